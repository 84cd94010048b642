// Helpers of the media API tests: uploads through the real app (raw bodies and multipart built by
// the platform's own FormData), and what the file-system blob store holds.
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Answer, TestApp } from "../support/app.ts";

export const site = (id: number) => `/api/site/${id}`;

/** POST (or PUT to `path`) the bytes as the body, with `type` as Content-Type when given. */
export function uploadRaw(
  t: TestApp,
  siteId: number,
  data: Buffer,
  options: { type?: string; filename?: string; method?: string; path?: string; token?: string } = {},
): Promise<Answer> {
  const path = options.path ?? `${site(siteId)}/media`;
  const query =
    options.filename === undefined
      ? ""
      : `${path.includes("?") ? "&" : "?"}filename=${encodeURIComponent(options.filename)}`;
  return t.call(options.method ?? "POST", `${path}${query}`, {
    payload: data,
    headers: { "content-type": options.type ?? "application/octet-stream" },
    token: options.token,
  });
}

/** A multipart/form-data body as a browser sends it: `fields` in order, the file among them where `file` stands. */
export async function multipartBody(
  parts: Array<[string, string | { data: Buffer; filename: string; type?: string }]>,
): Promise<{ body: Buffer; type: string }> {
  const form = new FormData();
  for (const [name, value] of parts) {
    if (typeof value === "string") form.append(name, value);
    else
      form.append(
        name,
        new Blob([new Uint8Array(value.data)], { type: value.type ?? "application/octet-stream" }),
        value.filename,
      );
  }
  const request = new Request("http://localhost/", { method: "POST", body: form });
  return { body: Buffer.from(await request.arrayBuffer()), type: request.headers.get("content-type")! };
}

export async function uploadMultipart(
  t: TestApp,
  siteId: number,
  parts: Parameters<typeof multipartBody>[0],
  options: { method?: string; path?: string; query?: string } = {},
): Promise<Answer> {
  const { body, type } = await multipartBody(parts);
  return t.call(options.method ?? "POST", `${options.path ?? `${site(siteId)}/media`}${options.query ?? ""}`, {
    payload: body,
    headers: { "content-type": type },
  });
}

/** The blobs and derived files the store under `dataDir` holds (its temporaries aside), by path. */
export function storedFiles(dataDir: string): string[] {
  const root = join(dataDir, "media");
  const out: string[] = [];
  const walk = (dir: string, rel: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const relative = rel ? `${rel}/${name}` : name;
      if (statSync(path).isDirectory()) walk(path, relative);
      else out.push(relative);
    }
  };
  if (existsSync(root))
    for (const name of readdirSync(root))
      if (name !== "tmp" && statSync(join(root, name)).isDirectory()) walk(join(root, name), name);
  return out.sort();
}

/** The blobs only (files named by a sha256). */
export function storedBlobs(dataDir: string): string[] {
  return storedFiles(dataDir)
    .filter((path) => /(^|\/)[0-9a-f]{64}$/.test(path))
    .map((path) => path.slice(-64));
}

/** Asserts the refusal's status and code, in the handler envelope. */
export function refusal(r: Answer, status: number, code: string): void {
  if (r.status !== status || r.body?.success !== false || r.body?.error !== code) {
    throw new Error(`expected ${status} ${code}, got ${r.status} ${r.text.slice(0, 400)}`);
  }
}

/** The names of the store's temporaries under `dataDir` (writes under way, or left behind). */
export function temporaries(dataDir: string): string[] {
  const dir = join(dataDir, "media", "tmp");
  return existsSync(dir) ? readdirSync(dir) : [];
}

/** What an upload may leave behind: the media rows (every site), the store's files and its temporaries. */
export async function storeState(
  t: TestApp,
): Promise<{ rows: Array<{ id: number; sha256: string; bytes: number }>; files: string[]; temporaries: string[] }> {
  const rows = await t.store.db.selectFrom("media").select(["id", "sha256", "bytes"]).orderBy("id").execute();
  return {
    rows: rows.map((row) => ({ id: Number(row.id), sha256: row.sha256, bytes: Number(row.bytes) })),
    files: storedFiles(t.dataDir),
    temporaries: temporaries(t.dataDir),
  };
}

/** Waits until `check` holds; fails after `timeoutMs` naming `what` (a deadline, not a timing asserted). */
export async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

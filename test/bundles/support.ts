// Helpers of the bundle tests: calls that must succeed, a bundle's bytes, an import, and bundles
// made by hand (tar-stream) for the refusals.
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { pack } from "tar-stream";
import type { TestApp } from "../support/app.ts";

export async function call(t: TestApp, method: string, url: string, body?: unknown) {
  const answer = await t.call(method, url, body === undefined ? {} : { body });
  if (answer.status >= 300) throw new Error(`${method} ${url}: ${answer.status} ${answer.text}`);
  return answer.body;
}

export async function exportBytes(t: TestApp, site: number): Promise<Buffer> {
  const answer = await t.app.inject({
    method: "GET",
    url: `/api/sites/${site}/export`,
    headers: { authorization: `Bearer ${t.adminToken}` },
  });
  if (answer.statusCode !== 200) throw new Error(`export: ${answer.statusCode} ${answer.body}`);
  return answer.rawPayload;
}

export async function importBytes(t: TestApp, url: string, bytes: Buffer, token = t.adminToken) {
  const answer = await t.app.inject({
    method: "POST",
    url,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/gzip" },
    payload: bytes,
  });
  return { status: answer.statusCode, body: JSON.parse(answer.body) };
}

export interface HandEntry {
  name: string;
  data: Buffer | string;
  type?: "file" | "symlink";
}

/** A tar.gz of the entries as given. */
export async function tarGz(entries: readonly HandEntry[]): Promise<Buffer> {
  const tar = pack();
  const chunks: Buffer[] = [];
  tar.on("data", (chunk: unknown) => chunks.push(chunk as Buffer));
  const done = new Promise<void>((resolve) => tar.on("end", () => resolve()));
  for (const entry of entries) {
    if (entry.type === "symlink") tar.entry({ name: entry.name, type: "symlink", linkname: "/etc/passwd" });
    else tar.entry({ name: entry.name }, entry.data);
  }
  tar.finalize();
  await done;
  return gzipSync(Buffer.concat(chunks));
}

export const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");

/** A bundle of `entries` under a manifest listing them (format 1 unless `manifest` says otherwise). */
export async function handBundle(entries: Record<string, string>, manifest: Record<string, unknown> = {}) {
  const listed = Object.fromEntries(Object.entries(entries).map(([name, data]) => [name, sha256(data)]));
  const head = { format_version: 1, source: {}, counts: {}, entries: listed, ...manifest };
  return tarGz([
    { name: "manifest.json", data: JSON.stringify(head) },
    ...Object.entries(entries).map(([name, data]) => ({ name, data })),
  ]);
}

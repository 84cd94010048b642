// Helpers of the bundle tests: a site with one object of every kind, a bundle's bytes, and
// bundles made by hand (tar-stream) for the refusals.
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { pack } from "tar-stream";
import type { TestApp } from "../support/app.ts";

export async function call(t: TestApp, method: string, url: string, body?: unknown) {
  const answer = await t.call(method, url, body === undefined ? {} : { body });
  if (answer.status >= 300) throw new Error(`${method} ${url}: ${answer.status} ${answer.text}`);
  return answer.body;
}

/** Builds a site of every kind under `/api/site/{id}`. */
export async function fillSite(t: TestApp, site: number): Promise<void> {
  const S = `/api/site/${site}`;
  await call(t, "POST", `${S}/languages`, { code: "en" });
  await call(t, "POST", `${S}/languages`, { code: "de", name: "Deutsch" });
  await call(t, "PATCH", `${S}/settings`, { tagline: "Grüße aus Köln", menu_locations: ["header"] });
  await call(t, "PUT", `${S}/strings`, { lang: "de", strings: { "nav.more": "Mehr" } });
  await call(t, "PUT", `${S}/styles/main`, { css: "body { color: #123; }\n" });
  await call(t, "POST", `${S}/frames`, {
    slug: "page",
    html: '<!doctype html><html><head><title>{{ page.title }}</title></head><body><h1 data-op-bind=\'{"text": "page.title"}\'>x</h1><main data-op-bind=\'{"html": "page.content"}\'></main></body></html>',
  });
  const about = (
    await call(t, "POST", `${S}/pages`, {
      title: "About",
      slug: "about",
      frame: "page",
      content: "<p>Über uns</p>",
      lang: "en",
    })
  ).page;
  await call(t, "POST", `${S}/pages`, {
    title: "Team",
    slug: "team",
    parent: "/about",
    frame: "page",
    content: "<p>Team</p>",
    lang: "en",
  });
  await call(t, "POST", `${S}/pages`, {
    title: "Draft",
    slug: "draft",
    frame: "page",
    status: "draft",
    content: "<p>d</p>",
    lang: "en",
  });
  const ueber = (
    await call(t, "POST", `${S}/pages`, {
      title: "Über",
      slug: "ueber",
      frame: "page",
      content: "<p>de</p>",
      lang: "de",
    })
  ).page;
  await call(t, "POST", `${S}/pages/language`, { page: about.id, lang: "de", translation: ueber.id });
  await call(t, "POST", `${S}/menus`, {
    name: "Main",
    slug: "main",
    items: [{ page: "/about" }, { url: "https://example.org/x", title: "X" }],
  });
  await call(t, "PUT", `${S}/menus/main/location`, { location: "header" });
  await call(t, "PUT", `${S}/data/team`, { items: [{ name: "Ada" }] });
  await call(t, "PUT", `${S}/sidebars/docs`, { items: [{ page: "/about" }] });
  await call(t, "POST", `${S}/forms`, { name: "contact", fields: [{ name: "email", type: "email" }] });
  await call(t, "POST", `${S}/seo/redirects`, { from: "/old", to: "/about" });
  const upload = await t.call("POST", `${S}/media?filename=dot.gif`, {
    payload: Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64"),
    headers: { "content-type": "image/gif" },
  });
  if (upload.status !== 201) throw new Error(upload.text);
  await call(t, "PATCH", `${S}/media/dot`, { alt: { en: "A dot", de: "Ein Punkt" } });
  await t.settled();
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

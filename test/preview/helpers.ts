// Helpers of the preview tests: a site with a page frame, a stylesheet and a footer; what the
// database holds, table by table; the public answer of an address.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { makeSite, type TestApp } from "../support/app.ts";
import type { PublishingEngine } from "../../src/publish/engine.ts";

/** Tables whose rows move with any request (rate limits) or belong to the migrator. */
const MOVING = new Set(["rate_limits", "kysely_migration", "kysely_migration_lock"]);

/** Every table's rows as one hash per table (SQLite and PostgreSQL alike). */
export async function storedState(t: TestApp): Promise<Map<string, string>> {
  // Earlier writes' paid outbox rows are deleted a moment after their publish runs: now, so that
  // only what happened between two states differs.
  await (t.deps.publisher as PublishingEngine).settled();
  const out = new Map<string, string>();
  for (const table of await t.store.db.introspection.getTables()) {
    if (MOVING.has(table.name)) continue;
    const rows = (await t.store.db
      .selectFrom(table.name as never)
      .selectAll()
      .execute()) as Record<string, unknown>[];
    // The webhook dispatcher marks events done in the background (docs/webhooks.md): bookkeeping
    // of its own, not something a request wrote.
    if (table.name === "events") for (const row of rows) delete row.dispatched;
    const lines = rows
      .map((row) => JSON.stringify(row, (_key, value) => (typeof value === "bigint" ? String(value) : value)))
      .sort();
    out.set(table.name, createHash("sha256").update(lines.join("\n")).digest("hex"));
  }
  return out;
}

/** The tables whose rows differ between two states. */
export function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...new Set([...before.keys(), ...after.keys()])]
    .filter((name) => before.get(name) !== after.get(name))
    .sort();
}

export interface Site {
  id: number;
  domain: string;
  at: (path: string) => string;
}

export const PAGE_FRAME = `<!DOCTYPE html><html><head><title data-op-bind='{"text": "page.title"}'>x</title><!--svc/styles{"name": "main"}/--></head><body><h1 data-op-bind='{"text": "page.title"}'>x</h1><div data-op-bind='{"html": "page.content"}'></div><p class="tone" data-op-bind='{"text": "page.fields.tone"}'></p><!--svc/frame{"name": "footer"}/--></body></html>`;

/** A site with stylesheet `main`, frames `page` (prints the title, content, fields.tone, main, footer) and `footer`, and a published page `about`. */
export async function previewSite(t: TestApp, label: string): Promise<Site & { pageId: number }> {
  const domain = `${label}.localhost`;
  const id = await makeSite(t, label, domain);
  const at = (path: string) => `/api/site/${id}${path}`;
  const ok = async (method: string, path: string, body: unknown, status = [200, 201]) => {
    const r = await t.call(method, at(path), { body });
    assert.ok(status.includes(r.status), `${method} ${path}: ${r.status} ${r.text}`);
    return r.body;
  };
  await ok("PUT", "/styles/main", { css: "h1 { color: red }" });
  await ok("POST", "/frames", { slug: "footer", html: "<footer>Old footer</footer>" });
  await ok("POST", "/frames", { slug: "page", html: PAGE_FRAME });
  const page = await ok("POST", "/pages", {
    title: "About",
    slug: "about",
    status: "publish",
    frame: "page",
    content: "<p>Stored content</p>",
    fields: { tone: "calm" },
  });
  return { id, domain, at, pageId: page.page.id };
}

export interface Shown {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

export async function visit(
  t: TestApp,
  host: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<Shown> {
  const r = await t.app.inject({ method: "GET", url: path, headers: { host, ...headers } });
  return { status: r.statusCode, headers: r.headers, body: r.body };
}

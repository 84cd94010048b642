// Static copies were counted by no quota (docs/security.md, "Quotas"; a site at 5 MB of
// stored_bytes held 80 MB of them). Now `published_bytes` (default 5 GiB) counts what the publish
// engine keeps: the static copy of each page and each frame bake. Both are derived, so a publish
// run never fails on them: an output that would pass the quota is not kept (a stale one it would
// have replaced is removed), and its page renders on request — the page answers the new output
// either way.
// Stylesheet bundles count too (each copy's CSS, brotli and gzip forms; a replaced copy is kept a
// day): nothing serves a stylesheet without its bundle, so a stylesheet write takes room for its
// bundles and is refused past the quota, while a bundle made outside a write is charged.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, startTestApp, type TestApp } from "../support/app.ts";
import { recountUsage, usageOf } from "../../src/quotas/usage.ts";

const GiB = 1024 ** 3;
/** A page-independent frame of `size` bytes, its text `word`. */
const layout = (word: string, size = 1000) => {
  const head = `<!DOCTYPE html><html><body><p>${word}</p><p>`;
  const tail = "</p></body></html>";
  return head + "x".repeat(size - head.length - tail.length) + tail;
};

describe("published_bytes: static copies, frame bakes and stylesheet bundles", () => {
  let t: TestApp;
  let n = 0;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  const newSite = async () => {
    const host = `published${++n}.localhost`;
    const id = await makeSite(t, `Published ${n}`, host);
    const S = `/api/site/${id}`;
    const call = (method: string, path: string, body?: unknown) =>
      t.call(method, `${S}${path}`, body === undefined ? {} : { body });
    const visit = async (path: string) => {
      const r = await t.call("GET", path, { token: null, headers: { host } });
      return { status: r.status, printed: r.headers["x-svc-printed"], body: r.text };
    };
    const published = async () =>
      (await t.call("GET", `${S}/usage`)).body.usage.published_bytes as { used: number; limit: number };
    const quota = async (value: number | null) =>
      assert.equal(
        (await t.call("PATCH", `/api/sites/${id}/quotas`, { body: { published_bytes: value } })).status,
        200,
      );
    /** What the engine keeps for the site, summed from its rows. */
    const kept = async () => {
      const copies = await t.store.db
        .selectFrom("static_copies")
        .select(["page_id", "html", "bytes"])
        .where("site_id", "=", id)
        .execute();
      const bakes = await t.store.db.selectFrom("frame_bakes").select("bytes").where("site_id", "=", id).execute();
      return { copies, bytes: [...copies, ...bakes].reduce((sum, row) => sum + Number(row.bytes), 0) };
    };
    const agrees = async () =>
      assert.deepEqual(
        await usageOf(t.store.db, id),
        await recountUsage(t.store.db, id),
        "the counters equal a recount",
      );
    const page = async (title: string) => {
      const r = await call("POST", "/pages", { title, frame: "layout" });
      assert.equal(r.status, 201, r.text);
      return r.body.page.id as number;
    };
    return { id, call, visit, published, quota, kept, agrees, page };
  };

  it("every static copy and frame bake counts; GET /usage shows published_bytes (default 5 GiB) and GET/PATCH /quotas set it", async () => {
    const site = await newSite();
    assert.deepEqual(await site.published(), { used: 0, limit: 5 * GiB });
    assert.equal((await site.call("POST", "/frames", { slug: "layout", html: layout("one") })).status, 201);
    for (const title of ["A", "B", "C"]) await site.page(title);
    const { copies, bytes } = await site.kept();
    assert.equal(copies.length, 3);
    assert.equal(bytes, 4 * 1000, "the frame's bake and three copies");
    assert.deepEqual(await site.published(), { used: 4000, limit: 5 * GiB });
    await site.agrees();
    const quotas = await t.call("PATCH", `/api/sites/${site.id}/quotas`, { body: { published_bytes: 123 } });
    assert.equal(quotas.body.quotas.published_bytes, 123);
    assert.equal((await t.call("GET", `/api/sites/${site.id}/quotas`)).body.quotas.published_bytes, 123);
    assert.deepEqual(await site.published(), { used: 4000, limit: 123 }, "a lowered quota takes nothing away");
  });

  it("past published_bytes a page's output is not kept and renders on request: every page answers its new output, no stale copy stays, and the write is not refused", async () => {
    const site = await newSite();
    await site.quota(2500);
    assert.equal((await site.call("POST", "/frames", { slug: "layout", html: layout("first") })).status, 201);
    const pages = [await site.page("A"), await site.page("B"), await site.page("C")];
    const first = await site.kept();
    assert.ok(first.bytes <= 2500, `${first.bytes}`);
    assert.equal(first.copies.length, 1, "the bake and one copy fit");
    const printed: string[] = [];
    for (const path of ["/a/", "/b/", "/c/"]) {
      const answer = await site.visit(path);
      assert.equal(answer.status, 200);
      assert.match(answer.body, /<p>first<\/p>/);
      printed.push(String(answer.printed));
    }
    assert.deepEqual(printed, ["static", "on_request", "on_request"]);
    await site.agrees();

    // A larger output: the write goes through and what no longer fits is dropped, never left stale.
    const rewrite = await site.call("PUT", "/frames/layout", { html: layout("second", 1400) });
    assert.equal(rewrite.status, 200, rewrite.text);
    const second = await site.kept();
    assert.ok(second.bytes <= 2500);
    for (const copy of second.copies) assert.match(copy.html, /<p>second<\/p>/, `page ${copy.page_id}: no stale copy`);
    for (const path of ["/a/", "/b/", "/c/"]) assert.match((await site.visit(path)).body, /<p>second<\/p>/);
    await site.agrees();

    // Room again: the next bake keeps every copy.
    await site.quota(null);
    assert.equal((await site.call("POST", "/frames/rebake", { frames: ["layout"] })).status, 200);
    assert.equal((await site.kept()).copies.length, 3);
    assert.equal((await site.call("GET", `/pages/${pages[2]}`)).body.page.static.published, true);
    await site.agrees();

    // Deletes free what they kept: a page deleted for good its copy, a frame its bakes.
    assert.equal((await site.call("DELETE", `/pages/${pages[0]}?force=true`)).status, 200);
    assert.equal((await site.published()).used, 3 * 1400);
    assert.equal((await site.call("DELETE", "/frames/layout")).status, 200);
    assert.deepEqual(await site.kept(), { copies: [], bytes: 0 });
    assert.equal((await site.published()).used, 0);
    await site.agrees();
  });

  it("stylesheet bundles count in published_bytes (CSS, brotli and gzip; a copy written back counts once); a stylesheet write past it is 413 quota_exceeded with nothing stored, its dry run too; copies dropped a day after they were replaced free their bytes", async (c) => {
    c.mock.timers.enable({ apis: ["Date"], now: Date.now() });
    const site = await newSite();
    const put = (name: string, css: string, query = "") => site.call("PUT", `/styles/${name}${query}`, { css });
    /** The site's copies and what they weigh, from their CSS and compressed forms. */
    const copies = async () => {
      const rows = await t.store.db
        .selectFrom("style_copies")
        .select(["name", "css", "br", "gzip"])
        .where("site_id", "=", site.id)
        .orderBy("name")
        .orderBy("css")
        .execute();
      return {
        css: rows.map((row) => `${row.name}: ${row.css}`),
        bytes: rows.reduce((sum, row) => sum + Buffer.byteLength(row.css) + row.br.length + row.gzip.length, 0),
      };
    };
    const big = Array.from(
      { length: 300 },
      (_, i) => `.c${i}{color:#${((i * 2654435761) >>> 8).toString(16).padStart(6, "0").slice(-6)};margin:${i}px}`,
    ).join("");
    assert.equal((await put("main", big)).status, 201);
    assert.equal((await site.published()).used, (await copies()).bytes);
    assert.ok((await copies()).bytes > Buffer.byteLength(big), "the compressed forms count besides the CSS");
    // Replaced, written back (its row current again), replaced again: two copies, each counted once.
    for (const css of ["a{color:red}", big, "a{color:red}"]) assert.equal((await put("main", css)).status, 200);
    const kept = await copies();
    assert.equal(kept.css.length, 2);
    assert.deepEqual(await site.published(), { used: kept.bytes, limit: 5 * GiB });
    await site.agrees();

    // At the quota: a write that would store a new bundle is refused whole, and so is its dry run.
    await site.quota(kept.bytes);
    for (const query of ["", "?dry_run=1"]) {
      const refused = await put("main", "a{color:blue}", query);
      assert.equal(refused.status, 413, refused.text);
      assert.deepEqual(
        [refused.body.error, refused.body.quota, refused.body.limit, refused.body.used],
        ["quota_exceeded", "published_bytes", kept.bytes, kept.bytes],
      );
    }
    assert.equal(
      (await site.call("GET", "/styles/main")).body.style.css,
      "a{color:red}",
      "the stylesheet is not stored",
    );
    assert.deepEqual(await copies(), kept, "no bundle is stored");
    assert.equal((await site.published()).used, kept.bytes);

    // A day after the large copy was replaced, the next write drops it first: its bytes make room.
    c.mock.timers.tick(24 * 60 * 60 * 1000 + 1000);
    assert.equal((await put("main", "a{color:blue}")).status, 200);
    const later = await copies();
    assert.deepEqual(later.css, ["main: a{color:#00f}", "main: a{color:red}"], "the large copy is gone");
    assert.equal((await site.published()).used, later.bytes);
    await site.agrees();

    // A deleted stylesheet's copies answer (and count) a day more, then go with the next write.
    await site.quota(null);
    assert.equal((await put("other", "b{color:red}")).status, 201);
    assert.equal((await site.call("DELETE", "/styles/main")).status, 200);
    assert.equal((await site.published()).used, (await copies()).bytes);
    c.mock.timers.tick(24 * 60 * 60 * 1000 + 1000);
    assert.equal((await put("other", "b{color:green}")).status, 200);
    const left = await copies();
    assert.deepEqual(left.css, ["other: b{color:green}", "other: b{color:red}"]);
    assert.equal((await site.published()).used, left.bytes);
    await site.agrees();
  });

  it("a bundle made outside a stylesheet write (an importer bundled again as what it imports is deleted) is counted past the quota, never refused", async () => {
    const site = await newSite();
    assert.equal((await site.call("PUT", "/styles/base", { css: "a{color:red}" })).status, 201);
    assert.equal((await site.call("PUT", "/styles/main", { css: '@import "base";b{color:red}' })).status, 201);
    const before = (await site.published()).used;
    await site.quota(0);
    const deleted = await site.call("DELETE", "/styles/base?force=1");
    assert.equal(deleted.status, 200, deleted.text);
    const rebundled = await t.store.db
      .selectFrom("style_copies")
      .select("css")
      .where("site_id", "=", site.id)
      .where("name", "=", "main")
      .where("replaced_at_gmt", "is", null)
      .executeTakeFirstOrThrow();
    assert.equal(rebundled.css, "b{color:red}", "the importer's new bundle is stored");
    assert.ok((await site.published()).used > before, "and counted, past the quota");
    await site.agrees();
  });
});

import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, makeSite, type TestApp } from "../support/app.ts";
import { assign, bind, frame, page, S, visit } from "../support/site.ts";

describe("public site: static copies", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    await frame(t, "layout", `<!DOCTYPE html><html><body><h1 ${bind("text", "site.name")}>x</h1></body></html>`);
  });
  after(() => t.close());

  it("a published page on a page-independent frame is served from its static copy as text/html with an ETag", async () => {
    const p = await page(t, { title: "Static one" });
    const assigned = await assign(t, "layout", p.id);
    assert.equal(assigned.static.published, true);
    assert.equal(assigned.republish.status, "ok");
    const r = await visit(t, "/static-one/");
    assert.equal(r.status, 200);
    assert.equal(r.printed, "static");
    assert.equal(r.type, "text/html; charset=utf-8");
    assert.equal(r.body, "<!DOCTYPE html><html><body><h1>Main site</h1></body></html>");
    assert.match(r.etag ?? "", /^"/);
    const same = await visit(t, "/static-one/", "localhost");
    assert.equal(same.body, r.body, "with or without the port");
    const unslashed = await t.app.inject({ method: "GET", url: "/static-one?ref=x", headers: { host: "localhost" } });
    assert.equal(unslashed.statusCode, 301, "without the trailing slash: redirected to the address (docs/security.md)");
    assert.equal(unslashed.headers.location, "/static-one/?ref=x");
  });

  it("If-None-Match with the current ETag answers 304 without a body", async () => {
    const p = await page(t, { title: "Conditional" });
    await assign(t, "layout", p.id);
    const first = await visit(t, "/conditional/");
    const again = await visit(t, "/conditional/", "localhost", { "if-none-match": first.etag! });
    assert.equal(again.status, 304);
    assert.equal(again.body, "");
    const stale = await visit(t, "/conditional/", "localhost", { "if-none-match": '"stale"' });
    assert.equal(stale.status, 200);
  });

  it("the page record says how its address answers: printed.how static, static.published with url and bytes", async () => {
    const p = await page(t, { title: "Recorded" });
    await assign(t, "layout", p.id);
    const r = await t.call("GET", `${S}/pages/${p.id}`);
    assert.deepEqual(r.body.page.printed, { how: "static", reason: "static_copy" });
    assert.equal(r.body.page.static.published, true);
    assert.equal(r.body.page.static.url, "http://localhost:8080/recorded/");
    assert.equal(
      r.body.page.static.bytes,
      Buffer.byteLength("<!DOCTYPE html><html><body><h1>Main site</h1></body></html>"),
    );
  });

  it("a settings write rewrites the static copies of frames reading site.* at once, and says which pages", async () => {
    const p = await page(t, { title: "Renamed site" });
    await assign(t, "layout", p.id);
    assert.match((await visit(t, "/renamed-site/")).body, /Main site/);
    const patched = await t.call("PATCH", `${S}/settings`, { body: { name: "Acme" } });
    assert.equal(patched.status, 200);
    assert.ok(patched.body.rebaked.frames.some((f: any) => f.slug === "layout"));
    assert.ok(patched.body.rebaked.pages.includes(p.id));
    const r = await visit(t, "/renamed-site/");
    assert.equal(r.printed, "static");
    assert.match(r.body, /<h1>Acme<\/h1>/);
    await t.call("PATCH", `${S}/settings`, { body: { name: "Main site" } });
  });

  for (const [label, change] of [
    ["unpublished (draft)", { status: "draft" }],
    ["trashed", { status: "trash" }],
  ] as const) {
    it(`a page ${label} answers 404 and loses its static copy; published again it answers 200`, async () => {
      const p = await page(t, { title: `Gone ${label.split(" ")[0]}` });
      await assign(t, "layout", p.id);
      const path = `/gone-${label.split(" ")[0]}/`;
      assert.equal((await visit(t, path)).status, 200);
      const patched = await t.call("PATCH", `${S}/pages/${p.id}`, { body: change });
      assert.equal(patched.status, 200, patched.text);
      assert.equal((await visit(t, path)).status, 404);
      const copy = await t.store.db
        .selectFrom("static_copies")
        .selectAll()
        .where("page_id", "=", p.id)
        .executeTakeFirst();
      assert.equal(copy, undefined, "the static copy is removed");
      await t.call("PATCH", `${S}/pages/${p.id}`, { body: { status: "publish" } });
      assert.equal((await visit(t, path)).status, 200);
    });
  }

  it("a page under an unpublished parent answers 404; a page without a frame answers 404", async () => {
    const parent = await page(t, { title: "Hidden parent", status: "draft" });
    const child = await page(t, { title: "Child", parent: parent.id });
    await assign(t, "layout", child.id);
    assert.equal((await visit(t, "/hidden-parent/child/")).status, 404);
    await t.call("PATCH", `${S}/pages/${parent.id}`, { body: { status: "publish" } });
    assert.equal((await visit(t, "/hidden-parent/child/")).status, 200, "visible once every ancestor is published");
    await page(t, { title: "Frameless" });
    assert.equal((await visit(t, "/frameless/")).status, 404);
    assert.equal((await visit(t, "/no/such/page/")).status, 404);
  });

  it("deleting a page for good removes its static copy and the address answers 404", async () => {
    const p = await page(t, { title: "Deleted for good" });
    await assign(t, "layout", p.id);
    assert.equal((await visit(t, "/deleted-for-good/")).status, 200);
    const r = await t.call("DELETE", `${S}/pages/${p.id}`, { query: { force: "true" } });
    assert.equal(r.status, 200, r.text);
    assert.equal((await visit(t, "/deleted-for-good/")).status, 404);
  });

  it("deleting the frame unbinds its pages, which answer 404", async () => {
    await frame(t, "doomed", "<p>doomed</p>");
    const p = await page(t, { title: "On doomed" });
    await assign(t, "doomed", p.id);
    assert.equal((await visit(t, "/on-doomed/")).status, 200);
    const r = await t.call("DELETE", `${S}/frames/doomed`);
    assert.deepEqual(r.body.unbound_pages, [p.id]);
    assert.equal((await visit(t, "/on-doomed/")).status, 404);
  });

  it("/ is the page named by the home_page setting", async () => {
    const p = await page(t, { title: "Welcome home" });
    await assign(t, "layout", p.id);
    assert.equal((await visit(t, "/")).status, 404, "no home page yet");
    const set = await t.call("PATCH", `${S}/settings`, { body: { home_page: "welcome-home" } });
    assert.equal(set.status, 200, set.text);
    const r = await visit(t, "/");
    assert.equal(r.status, 200);
    assert.match(r.body, /Main site/);
  });
});

describe("public site: rendered on request and cached", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    await frame(
      t,
      "article",
      `<article><h1 ${bind("text", "page.title")}></h1><p ${bind("text", "page.parent_title")}></p></article>`,
    );
  });
  after(() => t.close());

  it("a frame reading the page renders on request, then answers from the cache", async () => {
    const p = await page(t, { title: "Live one" });
    const assigned = await assign(t, "article", p.id);
    assert.equal(assigned.static.published, false);
    assert.equal(assigned.static.reason, "frame_renders_on_request");
    const first = await visit(t, "/live-one/");
    assert.equal(first.status, 200);
    assert.equal(first.printed, "on_request");
    assert.equal(first.body, "<article><h1>Live one</h1><p></p></article>");
    const second = await visit(t, "/live-one/");
    assert.equal(second.printed, "cache");
    assert.equal(second.body, first.body);
  });

  it("a page's new title flushes exactly its own cached render, not other pages'", async () => {
    const a = await page(t, { title: "Page A" });
    const b = await page(t, { title: "Page B" });
    await assign(t, "article", a.id);
    await assign(t, "article", b.id);
    await visit(t, "/page-a/");
    await visit(t, "/page-b/");
    const patched = await t.call("PATCH", `${S}/pages/${a.id}`, { body: { title: "Page A2" } });
    assert.equal(patched.status, 200, patched.text);
    assert.ok(patched.body.rebaked.cache.pages.includes(a.id));
    assert.ok(!patched.body.rebaked.cache.pages.includes(b.id));
    const ra = await visit(t, "/page-a/");
    assert.equal(ra.printed, "on_request");
    assert.match(ra.body, /Page A2/);
    assert.equal((await visit(t, "/page-b/")).printed, "cache", "the other page stayed cached");
  });

  it("a parent's new title refreshes its children that print page.parent_title", async () => {
    const parent = await page(t, { title: "Folder" });
    const child = await page(t, { title: "Leaf", parent: parent.id });
    await assign(t, "article", child.id);
    assert.match((await visit(t, "/folder/leaf/")).body, /<p>Folder<\/p>/);
    const patched = await t.call("PATCH", `${S}/pages/${parent.id}`, { body: { title: "Binder" } });
    assert.ok(patched.body.rebaked.pages.includes(child.id), JSON.stringify(patched.body.rebaked));
    assert.match((await visit(t, "/folder/leaf/")).body, /<p>Binder<\/p>/);
  });

  it("a new child refreshes a parent that lists its children", async () => {
    await frame(
      t,
      "listing",
      `<ul><!-- svc/repeat {"source": "pages.children"} --><li ${bind("text", "item.title")}></li><!-- /svc/repeat --></ul>`,
    );
    const parent = await page(t, { title: "Docs" });
    await assign(t, "listing", parent.id);
    assert.match((await visit(t, "/docs/")).body, /<ul><!-- op\/repeat [^>]*--><!-- \/op\/repeat --><\/ul>/);
    const added = await t.call("POST", `${S}/pages`, { body: { title: "Intro", parent: parent.id } });
    assert.ok(added.body.rebaked.pages.includes(parent.id), JSON.stringify(added.body.rebaked));
    assert.match((await visit(t, "/docs/")).body, /<li>Intro<\/li>/);
  });

  it("POST /cache/flush drops cached renders of the named addresses, or of the whole site", async () => {
    const p = await page(t, { title: "Flushable" });
    await assign(t, "article", p.id);
    await visit(t, "/flushable/");
    assert.equal((await visit(t, "/flushable/")).printed, "cache");
    const r = await t.call("POST", `${S}/cache/flush`, {
      body: { urls: ["/flushable", "https://elsewhere.example/x"] },
    });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.flushed, {
      status: "ok",
      by: "urls",
      urls: ["/flushable/"],
      skipped: ["https://elsewhere.example/x"],
    });
    assert.equal((await visit(t, "/flushable/")).printed, "on_request");
    const all = await t.call("POST", `${S}/cache/flush`, { body: { all: true } });
    assert.ok(all.body.flushed.urls.includes("/flushable/"));
    assert.equal((await visit(t, "/flushable/")).printed, "on_request");
    const bad = await t.call("POST", `${S}/cache/flush`, { body: {} });
    assert.equal(bad.status, 400);
  });
});

describe("public site: sites by host", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("the site is the one whose domain is the Host without port; an unknown host gets the main site", async () => {
    const blog = await makeSite(t, "Blog", "blog.localhost");
    const B = `/api/site/${blog}`;
    await frame(t, "name", `<b ${bind("text", "site.name")}></b>`, B);
    await frame(t, "name", `<i ${bind("text", "site.name")}></i>`);
    await assign(t, "name", (await page(t, { title: "Hello" }, B)).id, B);
    await assign(t, "name", (await page(t, { title: "Hello" })).id);
    assert.equal((await visit(t, "/hello/", "blog.localhost:8080")).body, "<b>Blog</b>");
    assert.equal((await visit(t, "/hello/", "localhost:8080")).body, "<i>Main site</i>");
    assert.equal((await visit(t, "/hello/", "unknown.example")).body, "<i>Main site</i>");
  });

  it("a site's new domain moves its public pages at once", async () => {
    const shop = await makeSite(t, "Shop", "shop.localhost");
    const P = `/api/site/${shop}`;
    await frame(t, "shop", "<p>shop</p>", P);
    await assign(t, "shop", (await page(t, { title: "Cart" }, P)).id, P);
    assert.equal((await visit(t, "/cart/", "shop.localhost")).body, "<p>shop</p>");
    await t.call("PATCH", `/api/sites/${shop}`, { body: { domain: "store.localhost" } });
    assert.equal((await visit(t, "/cart/", "store.localhost")).body, "<p>shop</p>");
    assert.equal((await visit(t, "/cart/", "shop.localhost")).status, 404, "the old host now reaches the main site");
  });
});

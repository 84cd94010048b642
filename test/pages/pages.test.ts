import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, startTestApp, type TestApp } from "../support/app.ts";
import { addLanguage, enc, pageChanges, publish, recordChanges, type Recorder } from "./helpers.ts";

describe("pages: read, change, trash, delete", () => {
  let t: TestApp;
  let recorder: Recorder;
  let n = 0;
  const site = () => makeSite(t, `Pages ${++n}`, `pages${n}.localhost`);
  const get = (id: number, ref: string | number, query?: Record<string, string>) =>
    t.call("GET", `/api/site/${id}/pages/${ref}`, { query });
  before(async () => {
    t = await startTestApp();
    recorder = recordChanges(t);
  });
  after(() => t.close());

  it("GET /pages/{ref} finds a page by id, by slug and by path (slashes as %2F); an unknown ref is 404 page_not_found", async () => {
    const id = await site();
    const docs = await publish(t, id, { title: "Docs" });
    const start = await publish(t, id, { title: "Getting started", parent: docs.page.id });
    for (const ref of [
      String(start.page.id),
      "getting-started",
      enc("/docs/getting-started"),
      enc("docs/getting-started/"),
    ]) {
      const r = await get(id, ref);
      assert.equal(r.status, 200, ref);
      assert.equal(r.body.page.id, start.page.id, ref);
      assert.equal(r.body.site_id, id);
    }
    const missing = await get(id, "nothing-here");
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, "page_not_found");
    assert.equal((await get(id, "424242")).body.error, "page_not_found");
  });

  it("several pages with the slug: 409 ambiguous_page with candidates; a path or ?lang tells them apart", async () => {
    const id = await site();
    const a = await publish(t, id, { title: "A" });
    const b = await publish(t, id, { title: "B" });
    const introA = await publish(t, id, { title: "Intro", parent: a.page.id });
    const introB = await publish(t, id, { title: "Intro", parent: b.page.id });
    const r = await get(id, "intro");
    assert.equal(r.status, 409);
    assert.equal(r.body.error, "ambiguous_page");
    assert.deepEqual(
      r.body.candidates.map((c: any) => [c.id, c.path]).sort(),
      [
        [introA.page.id, "/a/intro"],
        [introB.page.id, "/b/intro"],
      ].sort(),
    );
    assert.equal((await get(id, enc("/b/intro"))).body.page.id, introB.page.id);
  });

  it("a path with a language prefix finds the page in that language; ?lang narrows a slug", async () => {
    const id = await site();
    await addLanguage(t, id, "en");
    await addLanguage(t, id, "de");
    const en = await publish(t, id, { title: "Contact" });
    const de = await publish(t, id, { title: "Contact", lang: "de" });
    assert.equal((await get(id, "contact")).body.error, "ambiguous_page");
    assert.equal((await get(id, "contact", { lang: "de" })).body.page.id, de.page.id);
    assert.equal((await get(id, enc("/de/contact"))).body.page.id, de.page.id);
    assert.equal((await get(id, enc("/contact"), { lang: "en" })).body.page.id, en.page.id);
  });

  it("GET /pages lists {total, pages} and filters by ?status, ?parent and ?lang; trashed pages only when asked", async () => {
    const id = await site();
    const parent = await publish(t, id, { title: "Blog" });
    await publish(t, id, { title: "One", parent: parent.page.id });
    await publish(t, id, { title: "Two", parent: parent.page.id, status: "draft" });
    const three = await publish(t, id, { title: "Three", parent: parent.page.id });
    await t.call("DELETE", `/api/site/${id}/pages/${three.page.id}`);
    const all = await t.call("GET", `/api/site/${id}/pages`);
    assert.equal(all.status, 200);
    assert.equal(all.body.total, 3);
    assert.equal(all.body.pages.length, 3);
    const titles = async (query: Record<string, string>) =>
      (await t.call("GET", `/api/site/${id}/pages`, { query })).body.pages.map((p: any) => p.title).sort();
    assert.deepEqual(await titles({ status: "draft" }), ["Two"]);
    assert.deepEqual(await titles({ status: "trash" }), ["Three"]);
    assert.deepEqual(await titles({ status: "any" }), ["Blog", "One", "Three", "Two"]);
    assert.deepEqual(await titles({ parent: "blog" }), ["One", "Two"]);
    assert.deepEqual(await titles({ parent: "0" }), ["Blog"]);
    const bad = await t.call("GET", `/api/site/${id}/pages`, { query: { status: "deleted" } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error, "invalid_field");
    await addLanguage(t, id, "en");
    await addLanguage(t, id, "fr");
    await publish(t, id, { title: "Bonjour", lang: "fr" });
    assert.deepEqual(await titles({ lang: "fr" }), ["Bonjour"]);
  });

  it("visible is computed from the ancestors: a draft parent hides its published children until it is published", async () => {
    const id = await site();
    const parent = await publish(t, id, { title: "Section", status: "draft" });
    const child = await publish(t, id, { title: "Child", parent: parent.page.id });
    const grandchild = await publish(t, id, { title: "Grandchild", parent: child.page.id });
    assert.equal(child.page.visible, false);
    assert.deepEqual(child.page.printed, { how: "none", reason: "parent_unpublished" });
    assert.equal(grandchild.page.visible, false);
    assert.deepEqual(parent.page.printed, { how: "none", reason: "draft" });
    recorder.reset();
    await t.call("PATCH", `/api/site/${id}/pages/${parent.page.id}`, { body: { status: "publish" } });
    assert.equal((await get(id, grandchild.page.id)).body.page.visible, true);
    // publishing the parent changes what its whole subtree shows
    assert.deepEqual(
      pageChanges(recorder).map((c) => c.pageId),
      [parent.page.id, child.page.id, grandchild.page.id],
    );
  });

  it("PATCH changes any field: title, content, status; fields merge and null removes a key", async () => {
    const id = await site();
    const p = await publish(t, id, { title: "Draft me", fields: { a: 1, b: 2 } });
    const r = await t.call("PATCH", `/api/site/${id}/pages/${p.page.id}`, {
      body: { title: "Renamed", content: "<p>new</p>", status: "draft", fields: { b: null, c: 3 } },
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.page.title, "Renamed");
    assert.equal(r.body.page.slug, "draft-me", "a new title keeps the slug");
    assert.equal(r.body.page.content, "<p>new</p>");
    assert.equal(r.body.page.status, "draft");
    assert.deepEqual(r.body.page.fields, { a: 1, c: 3 });
    assert.deepEqual((await get(id, p.page.id)).body.page, r.body.page);
    const nothing = await t.call("PATCH", `/api/site/${id}/pages/${p.page.id}`, { body: {} });
    assert.equal(nothing.status, 400);
    assert.equal(nothing.body.error, "nothing_to_update");
    const missing = await t.call("PATCH", `/api/site/${id}/pages/nope`, { body: { title: "x" } });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, "page_not_found");
  });

  it("PATCH of a slug or a parent moves the page and every descendant's path, and announces each of them", async () => {
    const id = await site();
    const about = await publish(t, id, { title: "About" });
    const team = await publish(t, id, { title: "Team", parent: about.page.id });
    const alice = await publish(t, id, { title: "Alice", parent: team.page.id });
    const company = await publish(t, id, { title: "Company" });
    recorder.reset();
    const renamed = await t.call("PATCH", `/api/site/${id}/pages/${about.page.id}`, { body: { slug: "about-us" } });
    assert.equal(renamed.body.page.path, "/about-us");
    assert.equal((await get(id, alice.page.id)).body.page.path, "/about-us/team/alice");
    assert.equal((await get(id, alice.page.id)).body.page.url, `http://pages${n}.localhost:8080/about-us/team/alice/`);
    assert.deepEqual(
      pageChanges(recorder).map((c) => c.pageId),
      [about.page.id, team.page.id, alice.page.id],
    );

    recorder.reset();
    const moved = await t.call("PATCH", `/api/site/${id}/pages/${team.page.id}`, { body: { parent: company.page.id } });
    assert.equal(moved.body.page.path, "/company/team");
    assert.equal(moved.body.page.parent, company.page.id);
    assert.equal((await get(id, alice.page.id)).body.page.path, "/company/team/alice");
    const changes = pageChanges(recorder);
    assert.deepEqual(
      changes.find((c) => c.pageId === team.page.id),
      { pageId: team.page.id, parents: [about.page.id, company.page.id] },
    );
    assert.ok(changes.some((c) => c.pageId === alice.page.id));
    const top = await t.call("PATCH", `/api/site/${id}/pages/${team.page.id}`, { body: { parent: 0 } });
    assert.equal(top.body.page.path, "/team");
  });

  it("a page made its own parent or the child of its own descendant is 400 parent_cycle, and nothing changes", async () => {
    const id = await site();
    const a = await publish(t, id, { title: "A" });
    const b = await publish(t, id, { title: "B", parent: a.page.id });
    const c = await publish(t, id, { title: "C", parent: b.page.id });
    const self = await t.call("PATCH", `/api/site/${id}/pages/${a.page.id}`, { body: { parent: a.page.id } });
    assert.equal(self.status, 400);
    assert.equal(self.body.error, "parent_cycle");
    const loop = await t.call("PATCH", `/api/site/${id}/pages/${a.page.id}`, { body: { parent: c.page.id } });
    assert.equal(loop.status, 400);
    assert.equal(loop.body.error, "parent_cycle");
    // a cycle found after stubs were made rolls the stubs back too: one transaction
    const viaStubs = await t.call("POST", `/api/site/${id}/pages`, {
      body: { id: a.page.id, title: "A", url: "/a/b/new/x", create_missing_parents: true },
    });
    assert.equal(viaStubs.body.error, "parent_cycle");
    const pages = (await t.call("GET", `/api/site/${id}/pages`, { query: { status: "any" } })).body.pages;
    assert.deepEqual(pages.map((p: any) => p.path).sort(), ["/a", "/a/b", "/a/b/c"]);
  });

  it("PATCH frame: null takes it off; a frame that does not exist is 404 frame_not_found", async () => {
    const id = await site();
    const p = await publish(t, id, { title: "Framed" });
    const cleared = await t.call("PATCH", `/api/site/${id}/pages/${p.page.id}`, { body: { frame: null } });
    assert.equal(cleared.status, 200);
    assert.equal(cleared.body.page.frame, null);
    const missing = await t.call("PATCH", `/api/site/${id}/pages/${p.page.id}`, { body: { frame: "article" } });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, "frame_not_found");
  });

  it("a page on a frame names the frame's slug in frame; a frame that depends on the page prints on request", async () => {
    const id = await site();
    const frame = await t.call("POST", `/api/site/${id}/frames`, {
      body: { slug: "article", html: '<html><body><h1 data-op-bind=\'{"text": "site.name"}\'></h1></body></html>' },
    });
    assert.equal(frame.status, 201);
    const p = await publish(t, id, { title: "On a frame", frame: "article" });
    assert.equal(p.page.frame, "article");
    assert.notEqual(p.page.printed.reason, "no_frame");
    assert.notEqual(p.page.printed.how, "none");
    await t.call("POST", `/api/site/${id}/frames`, {
      body: { slug: "live", html: `<h1 data-op-bind='{"text": "page.title"}'></h1>` },
    });
    const live = await t.call("PATCH", `/api/site/${id}/pages/${p.page.id}`, { body: { frame: "live" } });
    assert.equal(live.body.page.frame, "live");
    assert.deepEqual(live.body.page.printed, { how: "on_request", reason: "frame_renders_on_request" });
    assert.equal(live.body.page.static.published, false);
  });

  it("DELETE moves a page to the trash: it keeps its slug, stays readable by id, and leaves the public site (announced gone)", async () => {
    const id = await site();
    const p = await publish(t, id, { title: "Old news" });
    const child = await publish(t, id, { title: "Sub", parent: p.page.id });
    recorder.reset();
    const r = await t.call("DELETE", `/api/site/${id}/pages/${p.page.id}`);
    assert.equal(r.status, 200);
    assert.equal(r.body.trashed, true);
    assert.equal(r.body.deleted, false);
    assert.equal(r.body.page.status, "trash");
    assert.ok(r.body.rebaked);
    assert.deepEqual(pageChanges(recorder), [
      { pageId: p.page.id, gone: true },
      { pageId: child.page.id, parents: [p.page.id], gone: true },
    ]);
    const byId = await get(id, p.page.id);
    assert.equal(byId.status, 200);
    assert.equal(byId.body.page.status, "trash");
    assert.equal(byId.body.page.slug, "old-news");
    assert.deepEqual(byId.body.page.printed, { how: "none", reason: "trash" });
    assert.equal((await get(id, "old-news")).status, 404, "slug and path lookups leave trashed pages out");
    const other = await publish(t, id, { title: "Other" });
    const taken = await t.call("PATCH", `/api/site/${id}/pages/${other.page.id}`, { body: { slug: "old-news" } });
    assert.equal(taken.body.page.slug, "old-news-2", "a trashed page still holds its slug");
    const restored = await t.call("PATCH", `/api/site/${id}/pages/${p.page.id}`, { body: { status: "publish" } });
    assert.equal(restored.body.page.visible, true);
  });

  it("DELETE ?force=true deletes for good: 404 afterwards; its children move up to its parent", async () => {
    const id = await site();
    const top = await publish(t, id, { title: "Top" });
    const mid = await publish(t, id, { title: "Mid", parent: top.page.id });
    const leaf = await publish(t, id, { title: "Leaf", parent: mid.page.id });
    recorder.reset();
    const r = await t.call("DELETE", `/api/site/${id}/pages/${mid.page.id}`, { query: { force: "true" } });
    assert.equal(r.status, 200);
    assert.equal(r.body.deleted, true);
    assert.deepEqual(r.body.reparented, [leaf.page.id]);
    assert.equal((await get(id, mid.page.id)).status, 404);
    const moved = (await get(id, leaf.page.id)).body.page;
    assert.equal(moved.parent, top.page.id);
    assert.equal(moved.path, "/top/leaf");
    assert.deepEqual(pageChanges(recorder), [
      { pageId: mid.page.id, parents: [top.page.id], gone: true },
      { pageId: leaf.page.id, parents: [mid.page.id, top.page.id] },
    ]);
    const again = await t.call("DELETE", `/api/site/${id}/pages/${mid.page.id}`, { query: { force: "true" } });
    assert.equal(again.status, 404);
    assert.equal(again.body.error, "page_not_found");
    const badFlag = await t.call("DELETE", `/api/site/${id}/pages/${top.page.id}`, { query: { force: "maybe" } });
    assert.equal(badFlag.status, 400);
  });

  it("a new title is announced as that page's change (the publish step adds its children); a new child is announced with its parent", async () => {
    const id = await site();
    const parent = await publish(t, id, { title: "Guides" });
    recorder.reset();
    const child = await publish(t, id, { title: "First guide", parent: parent.page.id });
    assert.deepEqual(pageChanges(recorder), [{ pageId: child.page.id, parents: [parent.page.id] }]);
    recorder.reset();
    await t.call("PATCH", `/api/site/${id}/pages/${parent.page.id}`, { body: { title: "All guides" } });
    assert.deepEqual(pageChanges(recorder), [{ pageId: parent.page.id }]);
    recorder.reset();
    await t.call("PATCH", `/api/site/${id}/pages/${child.page.id}`, { body: { content: "changed" } });
    assert.deepEqual(pageChanges(recorder), [{ pageId: child.page.id, parents: [parent.page.id] }]);
  });
  it("PATCH lang moves a page to another language (its url gets the prefix); refused 409 page_has_children while it has children", async () => {
    const id = await site();
    await addLanguage(t, id, "en");
    await addLanguage(t, id, "de");
    const parent = await publish(t, id, { title: "Parent" });
    await publish(t, id, { title: "Kid", parent: parent.page.id });
    const refused = await t.call("PATCH", `/api/site/${id}/pages/${parent.page.id}`, { body: { lang: "de" } });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error, "page_has_children");
    const leaf = await publish(t, id, { title: "Leaf" });
    const moved = await t.call("PATCH", `/api/site/${id}/pages/${leaf.page.id}`, { body: { lang: "de" } });
    assert.equal(moved.status, 200);
    assert.equal(moved.body.page.lang, "de");
    assert.equal(moved.body.page.url, `http://pages${n}.localhost:8080/de/leaf/`);
    const wrongParent = await t.call("PATCH", `/api/site/${id}/pages/${leaf.page.id}`, {
      body: { parent: parent.page.id },
    });
    assert.equal(wrongParent.status, 400);
    assert.equal(wrongParent.body.error, "parent_lang_mismatch");
    const unknown = await t.call("PATCH", `/api/site/${id}/pages/${leaf.page.id}`, { body: { lang: "fr" } });
    assert.equal(unknown.body.error, "unknown_language");
  });

  it("PATCH url places a page under the path's parent, and create_missing_parents works there too", async () => {
    const id = await site();
    await publish(t, id, { title: "Blog" });
    const post = await publish(t, id, { title: "Hello" });
    const moved = await t.call("PATCH", `/api/site/${id}/pages/${post.page.id}`, {
      body: { url: "/blog/ignored-last-segment" },
    });
    assert.equal(moved.body.page.path, "/blog/hello");
    const refused = await t.call("PATCH", `/api/site/${id}/pages/${post.page.id}`, {
      body: { url: "/archive/2024/hello" },
    });
    assert.equal(refused.status, 404);
    assert.equal(refused.body.error, "parent_not_found");
    assert.equal(refused.body.segment, "archive");
    const stubs = await t.call("PATCH", `/api/site/${id}/pages/${post.page.id}`, {
      body: { url: "/archive/2024/hello", create_missing_parents: true },
    });
    assert.equal(stubs.body.page.path, "/archive/2024/hello");
    assert.deepEqual(
      stubs.body.created_stubs.map((s: any) => s.path),
      ["/archive", "/archive/2024"],
    );
  });
});

import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, startTestApp, type TestApp } from "../support/app.ts";
import { addLanguage, enc, pageChanges, publish, recordChanges, type Recorder } from "./helpers.ts";

const RECORD_KEYS = [
  "id",
  "title",
  "slug",
  "path",
  "url",
  "status",
  "parent",
  "lang",
  "translations",
  "frame",
  "content",
  "content_format",
  "fields",
  "seo",
  "menu_order",
  "date",
  "tags",
  "feed",
  "visible",
  "static",
  "printed",
  "created_at_gmt",
  "updated_at_gmt",
].sort();

describe("publishing pages (POST /pages)", () => {
  let t: TestApp;
  let recorder: Recorder;
  let n = 0;
  const site = () => makeSite(t, `Pub ${++n}`, `pub${n}.localhost`);
  const list = async (id: number) =>
    (await t.call("GET", `/api/site/${id}/pages`, { query: { status: "any" } })).body.pages as any[];
  before(async () => {
    t = await startTestApp();
    recorder = recordChanges(t);
  });
  after(() => t.close());

  it("a new page: 201, created, every field of the page record; slug from the title; published by default; no frame so nothing printed", async () => {
    const id = await site();
    const r = await t.call("POST", `/api/site/${id}/pages`, {
      body: { title: "About Us", content: "<p>Hi</p>", fields: { tone: "warm" } },
    });
    assert.equal(r.status, 201);
    assert.equal(r.body.success, true);
    assert.equal(r.body.site_id, id);
    assert.equal(r.body.created, true);
    assert.deepEqual(r.body.warnings, []);
    assert.ok(r.body.rebaked);
    const page = r.body.page;
    assert.deepEqual(Object.keys(page).sort(), RECORD_KEYS);
    assert.deepEqual(
      {
        title: page.title,
        slug: page.slug,
        path: page.path,
        url: page.url,
        status: page.status,
        parent: page.parent,
        lang: page.lang,
        translations: page.translations,
        frame: page.frame,
        content: page.content,
        fields: page.fields,
        visible: page.visible,
        printed: page.printed,
      },
      {
        title: "About Us",
        slug: "about-us",
        path: "/about-us",
        url: `http://pub${n}.localhost:8080/about-us/`,
        status: "publish",
        parent: 0,
        lang: null,
        translations: {},
        frame: null,
        content: "<p>Hi</p>",
        fields: { tone: "warm" },
        visible: true,
        printed: { how: "none", reason: "no_frame" },
      },
    );
    assert.equal(page.static.published, false);
    assert.deepEqual(
      page.seo,
      { title: null, description: null, canonical: null, noindex: false, og_image: null },
      "no SEO fields of its own: every default",
    );
    assert.match(page.created_at_gmt, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it("publishing again without id updates the page with that slug under the same parent in the same language", async () => {
    const id = await site();
    const first = await publish(t, id, { title: "Pricing", content: "v1" });
    const again = await t.call("POST", `/api/site/${id}/pages`, { body: { title: "Pricing", content: "v2" } });
    assert.equal(again.status, 200);
    assert.equal(again.body.created, false);
    assert.equal(again.body.page.id, first.page.id);
    assert.equal(again.body.page.content, "v2");
    const bySlug = await t.call("POST", `/api/site/${id}/pages`, {
      body: { title: "Prices (new title)", slug: "pricing" },
    });
    assert.equal(bySlug.body.page.id, first.page.id);
    assert.equal(bySlug.body.page.title, "Prices (new title)");
    assert.equal(bySlug.body.page.content, "v2", "content not given keeps the stored one");
    assert.equal((await list(id)).length, 1);
  });

  it("a different parent or a different slug creates a second page", async () => {
    const id = await site();
    const docs = await publish(t, id, { title: "Docs" });
    const top = await publish(t, id, { title: "Intro" });
    const under = await publish(t, id, { title: "Intro", parent: docs.page.id });
    assert.notEqual(under.page.id, top.page.id);
    assert.equal(under.created, true);
    assert.equal(under.page.path, "/docs/intro");
    const other = await publish(t, id, { title: "Intro", slug: "intro-two" });
    assert.notEqual(other.page.id, top.page.id);
    assert.equal((await list(id)).length, 4);
  });

  it("url gives the parent path; the slug comes from slug or the title, never from the last segment of url", async () => {
    const id = await site();
    await publish(t, id, { title: "Company" });
    const team = await publish(t, id, { title: "Team", url: "/company/team" });
    const alice = await publish(t, id, { title: "Alice Smith", url: "/company/team/alice" });
    assert.equal(alice.page.parent, team.page.id);
    assert.equal(alice.page.slug, "alice-smith");
    assert.equal(alice.page.path, "/company/team/alice-smith");
    const full = await publish(t, id, {
      title: "Bob",
      slug: "bob",
      url: `http://pub${n}.localhost:8080/company/team/whatever/`,
    });
    assert.equal(full.page.path, "/company/team/bob");
  });

  it("parent may be an id, a slug or a path", async () => {
    const id = await site();
    const a = await publish(t, id, { title: "A" });
    const b = await publish(t, id, { title: "B", parent: "a" });
    assert.equal(b.page.parent, a.page.id);
    const c = await publish(t, id, { title: "C", parent: "/a/b" });
    assert.equal(c.page.path, "/a/b/c");
    const d = await publish(t, id, { title: "D", parent: String(c.page.id) });
    assert.equal(d.page.path, "/a/b/c/d");
  });

  it("a missing parent is 404 parent_not_found with the first missing segment and created_stubs [], and nothing is written", async () => {
    const id = await site();
    await publish(t, id, { title: "Shop" });
    const r = await t.call("POST", `/api/site/${id}/pages`, {
      body: { title: "Boots", url: "/shop/shoes/winter/boots" },
    });
    assert.equal(r.status, 404);
    assert.equal(r.body.success, false);
    assert.equal(r.body.error, "parent_not_found");
    assert.equal(r.body.segment, "shoes");
    assert.deepEqual(r.body.created_stubs, []);
    const byParent = await t.call("POST", `/api/site/${id}/pages`, { body: { title: "X", parent: "nowhere" } });
    assert.equal(byParent.status, 404);
    assert.equal(byParent.body.error, "parent_not_found");
    assert.deepEqual(byParent.body.created_stubs, []);
    assert.equal((await list(id)).length, 1);
  });

  it("create_missing_parents makes draft stubs, lists them as {id, path}, and warns that a parent is unpublished", async () => {
    const id = await site();
    await publish(t, id, { title: "Shop" });
    recorder.reset();
    const r = await t.call("POST", `/api/site/${id}/pages`, {
      body: { title: "Boots", url: "/shop/shoes/winter/boots", create_missing_parents: true },
    });
    assert.equal(r.status, 201);
    assert.deepEqual(
      r.body.created_stubs.map((s: any) => s.path),
      ["/shop/shoes", "/shop/shoes/winter"],
    );
    assert.equal(r.body.page.path, "/shop/shoes/winter/boots");
    assert.equal(r.body.page.visible, false);
    assert.deepEqual(r.body.page.printed, { how: "none", reason: "parent_unpublished" });
    assert.ok(r.body.warnings.some((w: any) => w.code === "parent_unpublished"));
    const stub = await t.call("GET", `/api/site/${id}/pages/${r.body.created_stubs[0].id}`);
    assert.equal(stub.body.page.status, "draft");
    assert.equal(stub.body.page.title, "Shoes");
    // the stubs and the page are announced, each with its parent
    const [shopId] = (await list(id)).filter((p) => p.slug === "shop").map((p) => p.id);
    const [s1, s2] = r.body.created_stubs.map((s: any) => s.id);
    assert.deepEqual(pageChanges(recorder), [
      { pageId: s1, parents: [shopId] },
      { pageId: s2, parents: [s1] },
      { pageId: r.body.page.id, parents: [s2] },
    ]);
  });

  it("template is ignored with warning template_ignored, other unknown keys with unknown_field", async () => {
    const id = await site();
    const r = await t.call("POST", `/api/site/${id}/pages`, {
      body: { title: "Plain", template: "full-width", colour: "red" },
    });
    assert.equal(r.status, 201);
    assert.deepEqual(
      r.body.warnings.map((w: any) => [w.code, w.field]),
      [
        ["template_ignored", "template"],
        ["unknown_field", "colour"],
      ],
    );
  });

  it("with id, a slug another page holds under the same parent gets -2 (then -3), reported in slug_changed and warnings", async () => {
    const id = await site();
    await publish(t, id, { title: "News" });
    const other = await publish(t, id, { title: "Other" });
    const r = await t.call("POST", `/api/site/${id}/pages`, {
      body: { id: other.page.id, title: "Other", slug: "news" },
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.page.slug, "news-2");
    assert.deepEqual(r.body.slug_changed, { from: "news", to: "news-2" });
    assert.ok(r.body.warnings.some((w: any) => w.code === "slug_changed" && w.to === "news-2"));
    const third = await publish(t, id, { title: "Third" });
    const p = await t.call("PATCH", `/api/site/${id}/pages/${third.page.id}`, { body: { slug: "news" } });
    assert.equal(p.body.page.slug, "news-3");
    assert.deepEqual(p.body.slug_changed, { from: "news", to: "news-3" });
  });

  it("with id, an unknown page is 404 page_not_found; a lang other than the page's is 409 lang_mismatch", async () => {
    const id = await site();
    const missing = await t.call("POST", `/api/site/${id}/pages`, { body: { id: 999999, title: "Ghost" } });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, "page_not_found");
    await addLanguage(t, id, "en");
    await addLanguage(t, id, "de");
    const en = await publish(t, id, { title: "Hello", lang: "en" });
    const r = await t.call("POST", `/api/site/${id}/pages`, { body: { id: en.page.id, title: "Hallo", lang: "de" } });
    assert.equal(r.status, 409);
    assert.equal(r.body.error, "lang_mismatch");
    assert.equal(r.body.lang, "en");
    assert.equal(r.body.requested, "de");
    assert.equal((await t.call("GET", `/api/site/${id}/pages/${en.page.id}`)).body.page.title, "Hello");
  });

  it("pages in languages: the default language has no prefix in url, others do; path never has one; lang defaults to the default language", async () => {
    const id = await site();
    await addLanguage(t, id, "en");
    await addLanguage(t, id, "de");
    const en = await publish(t, id, { title: "About" });
    assert.equal(en.page.lang, "en");
    assert.equal(en.page.url, `http://pub${n}.localhost:8080/about/`);
    const de = await publish(t, id, { title: "Über uns", lang: "de" });
    assert.equal(de.page.path, "/ueber-uns");
    assert.equal(de.page.url, `http://pub${n}.localhost:8080/de/ueber-uns/`);
    const child = await publish(t, id, { title: "Team", parent: de.page.id });
    assert.equal(child.page.lang, "de", "a page under a parent given by id takes the parent's language");
    const prefixed = await publish(t, id, { title: "Kontakt", lang: "de", url: "/de/ueber-uns/kontakt" });
    assert.equal(prefixed.page.path, "/ueber-uns/kontakt");
    const sameSlug = await publish(t, id, { title: "About", lang: "de" });
    assert.notEqual(sameSlug.page.id, en.page.id, "another language creates another page");
    const mismatch = await t.call("POST", `/api/site/${id}/pages`, {
      body: { title: "X", lang: "en", parent: de.page.id },
    });
    assert.equal(mismatch.status, 400);
    assert.equal(mismatch.body.error, "parent_lang_mismatch");
  });

  it("a page created while languages are inactive has lang null, and keeps it when languages are added", async () => {
    const id = await site();
    const p = await publish(t, id, { title: "Old" });
    assert.equal(p.page.lang, null);
    await addLanguage(t, id, "en");
    assert.equal((await t.call("GET", `/api/site/${id}/pages/${p.page.id}`)).body.page.lang, null);
  });

  it("bad input is a clear 400 naming the field, never a 500, and nothing is half-written", async () => {
    const id = await site();
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ title: "x".repeat(1001) }, "invalid_field", "title"],
      [{ title: "Ok", slug: "s".repeat(201) }, "invalid_field", "slug"],
      [{ title: 42 }, "invalid_field", "title"],
      [{ title: ["a"] }, "invalid_field", "title"],
      [{ title: "Ok", fields: [1, 2] }, "invalid_field", "fields"],
      [{ title: "Ok", fields: "x" }, "invalid_field", "fields"],
      [{ title: "Ok", status: "published-ish" }, "invalid_field", "status"],
      [{ title: "Ok", parent: true }, "invalid_field", "parent"],
      [{ title: "Ok", content: { html: "x" } }, "invalid_field", "content"],
      [{ title: "Ok", create_missing_parents: "yes" }, "invalid_field", "create_missing_parents"],
      [{ title: "Ok", id: "abc" }, "invalid_field", "id"],
      [{ title: "Ok", url: 5 }, "invalid_field", "url"],
      [{ title: "Ok", slug: "!!!" }, "invalid_slug", "slug"],
      [{ content: "no title" }, "title_required", "title"],
      [{ title: "   " }, "title_required", "title"],
      [{ title: "Ok", frame: "no-such-frame" }, "frame_not_found", "frame"],
    ];
    for (const [body, code, field] of cases) {
      const r = await t.call("POST", `/api/site/${id}/pages`, { body });
      assert.ok(r.status === 400 || r.status === 404, `${JSON.stringify(body).slice(0, 80)} → ${r.status}`);
      assert.equal(r.body.success, false);
      assert.equal(r.body.error, code, JSON.stringify(body).slice(0, 80));
      if (code === "invalid_field") assert.equal(r.body.field, field);
      assert.equal(typeof r.body.message, "string");
    }
    const exact = await t.call("POST", `/api/site/${id}/pages`, {
      body: { title: "t".repeat(1000), slug: "s".repeat(200) },
    });
    assert.equal(exact.status, 201, "1,000 characters of title and 200 of slug are allowed");
    assert.equal((await list(id)).length, 1);
  });

  it("an explicit slug is written as a slug, reported as slug_normalized", async () => {
    const id = await site();
    const r = await publish(t, id, { title: "Hello", slug: "Hello World" });
    assert.equal(r.page.slug, "hello-world");
    assert.deepEqual(
      r.warnings.map((w: any) => [w.code, w.to]),
      [["slug_normalized", "hello-world"]],
    );
    const quiet = await publish(t, id, { title: "Hi", slug: "UPPER" });
    assert.equal(quiet.page.slug, "upper");
    assert.deepEqual(quiet.warnings, [], "lower-casing alone is not reported");
  });

  it("the legacy address publishes to the selected site", async () => {
    const id = await site();
    const r = await t.call("POST", "/api/pages", {
      body: { title: "Legacy" },
      headers: { "x-svc-blog-id": String(id) },
    });
    assert.equal(r.status, 201);
    assert.equal(r.body.site_id, id);
    assert.equal((await t.call("GET", `/api/site/${id}/pages/legacy`)).body.page.id, r.body.page.id);
    assert.equal(enc("/a/b"), "%2Fa%2Fb");
  });
});

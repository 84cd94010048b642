import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, startTestApp, type TestApp } from "../support/app.ts";
import { addLanguage, publish } from "../pages/helpers.ts";

describe("data sources (GET /data/{source}, POST /data/resolve)", () => {
  let t: TestApp;
  let n = 0;
  const site = () => makeSite(t, `Src ${++n}`, `src${n}.localhost`);
  const source = (id: number, name: string, query?: Record<string, string>) =>
    t.call("GET", `/api/site/${id}/data/${name}`, { query });
  const resolve = (id: number, body: Record<string, unknown>) =>
    t.call("POST", `/api/site/${id}/data/resolve`, { body });
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("GET and POST /data/resolve answer the same {success, site_id, source, items, meta} from one resolver", async () => {
    const id = await site();
    await t.call("PUT", `/api/site/${id}/data/team`, {
      body: {
        items: [
          { id: 3, name: "Ada" },
          { id: "3 ", name: "Bob" },
          { id: "4", name: "Cy" },
        ],
      },
    });
    const viaGet = await source(id, "team");
    const viaPost = await resolve(id, { source: "team" });
    assert.equal(viaPost.status, 200);
    assert.deepEqual(Object.keys(viaPost.body).sort(), ["items", "meta", "site_id", "source", "success", "warnings"]);
    assert.deepEqual(viaPost.body, viaGet.body);
    assert.deepEqual(
      (await resolve(id, { source: "data.team" })).body.items,
      viaGet.body.items,
      "data.<name> names the same set",
    );
  });

  it('match compares values as strings: "3" matches 3, "3 " does not; limit keeps the first n', async () => {
    const id = await site();
    await t.call("PUT", `/api/site/${id}/data/team`, {
      body: {
        items: [
          { id: 3, name: "Ada" },
          { id: "3 ", name: "Bob" },
          { id: "3", name: "Cy" },
        ],
      },
    });
    const r = await resolve(id, { source: "team", match: { id: "3" } });
    assert.deepEqual(
      r.body.items.map((i: any) => i.name),
      ["Ada", "Cy"],
    );
    assert.equal(r.body.meta.matched, 2);
    const byNumber = await resolve(id, { source: "team", match: { id: 3 } });
    assert.deepEqual(
      byNumber.body.items.map((i: any) => i.name),
      ["Ada", "Cy"],
    );
    const limited = await resolve(id, { source: "team", match: { id: 3 }, limit: 1 });
    assert.deepEqual(
      limited.body.items.map((i: any) => i.name),
      ["Ada"],
    );
    const badMatch = await resolve(id, { source: "team", match: [1] });
    assert.equal(badMatch.status, 400);
    assert.equal(badMatch.body.error, "invalid_field");
    const noSource = await resolve(id, {});
    assert.equal(noSource.status, 400);
  });

  it("pages lists published, visible pages as page items {id, title, slug, path, url, lang, parent, fields, date, modified, menu_order, tags}", async () => {
    const id = await site();
    const a = await publish(t, id, { title: "A", fields: { order: 1 } });
    await publish(t, id, { title: "Draft", status: "draft" });
    const hidden = await publish(t, id, { title: "Hidden parent", status: "draft" });
    await publish(t, id, { title: "Under draft", parent: hidden.page.id });
    const r = await source(id, "pages");
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.items, [
      {
        id: a.page.id,
        title: "A",
        slug: "a",
        path: "/a",
        url: `http://src${n}.localhost:8080/a/`,
        lang: null,
        parent: 0,
        fields: { order: 1 },
        date: a.page.date,
        modified: `${a.page.updated_at_gmt.replace(" ", "T")}Z`,
        menu_order: 0,
        tags: [],
      },
    ]);
    assert.match(a.page.date, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/, "dated at its first publication");
    const filtered = await resolve(id, { source: "pages", match: { "fields.order": "1" } });
    assert.equal(filtered.body.items.length, 1);
  });

  it("pages.children and breadcrumbs need a page: 400 page_required without one", async () => {
    const id = await site();
    const docs = await publish(t, id, { title: "Docs" });
    const one = await publish(t, id, { title: "One", parent: docs.page.id });
    await publish(t, id, { title: "Two", parent: docs.page.id });
    await publish(t, id, { title: "Draft child", parent: docs.page.id, status: "draft" });
    const leaf = await publish(t, id, { title: "Leaf", parent: one.page.id });
    for (const name of ["pages.children", "breadcrumbs"]) {
      const r = await source(id, name);
      assert.equal(r.status, 400, name);
      assert.equal(r.body.error, "page_required");
      assert.equal((await resolve(id, { source: name })).body.error, "page_required");
    }
    const children = await source(id, "pages.children", { page: "docs" });
    assert.deepEqual(
      children.body.items.map((i: any) => i.title),
      ["One", "Two"],
    );
    const crumbs = await resolve(id, { source: "breadcrumbs", page: leaf.page.id });
    assert.deepEqual(
      crumbs.body.items.map((i: any) => i.path),
      ["/docs", "/docs/one", "/docs/one/leaf"],
    );
    const unknown = await source(id, "breadcrumbs", { page: "missing" });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error, "page_not_found");
  });

  it("languages lists the site's languages with their home address and, for a page, its translation", async () => {
    const id = await site();
    assert.deepEqual((await source(id, "languages")).body.items, []);
    await addLanguage(t, id, "en");
    await addLanguage(t, id, "de");
    const en = await publish(t, id, { title: "About" });
    const de = await t.call("POST", `/api/site/${id}/pages/language`, {
      body: { page: en.page.id, lang: "de", title: "Über uns" },
    });
    const r = await source(id, "languages", { page: String(de.body.page.id) });
    assert.deepEqual(r.body.items, [
      {
        code: "en",
        name: "English",
        default: true,
        prefix: "",
        url: `http://src${n}.localhost:8080/`,
        current: false,
        page_id: en.page.id,
        page_url: `http://src${n}.localhost:8080/about/`,
      },
      {
        code: "de",
        name: "Deutsch",
        default: false,
        prefix: "/de/",
        url: `http://src${n}.localhost:8080/de/`,
        current: true,
        page_id: de.body.page.id,
        page_url: `http://src${n}.localhost:8080/de/ueber-uns/`,
      },
    ]);
    assert.equal(r.body.meta.active, true);
  });

  it("site gives one item with name, tagline, url and lang", async () => {
    const id = await site();
    await t.call("PATCH", `/api/site/${id}/settings`, { body: { tagline: "Tag" } });
    const r = await source(id, "site");
    assert.deepEqual(r.body.items, [
      {
        id,
        name: `Src ${n}`,
        tagline: "Tag",
        url: `http://src${n}.localhost:8080/`,
        domain: `src${n}.localhost`,
        lang: null,
        default_lang: null,
        theme: "default",
      },
    ]);
  });

  it("menu.<location> answers items and meta.menu_id (0: no menu) and meta.invalid_items; an unknown location is 400 unknown_location", async () => {
    const id = await site();
    const r = await source(id, "menu.header");
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.items, []);
    assert.equal(r.body.meta.menu_id, 0);
    assert.equal(r.body.meta.invalid_items, 0);
    const bad = await source(id, "menu.sidebar");
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error, "unknown_location");
    assert.deepEqual(bad.body.locations, ["header", "footer_1", "footer_2", "footer_3"]);
  });

  it("a name that is neither a source nor a data-set name is 400 invalid_dataset_name", async () => {
    const id = await site();
    const r = await source(id, "not.a.source");
    assert.equal(r.status, 400);
    assert.equal(r.body.error, "invalid_dataset_name");
  });
});

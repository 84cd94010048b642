// Locations through HTTP: PUT /menus/{ref}/location per language and theme (read back and
// compared), `~location` references with lang and theme, and GET /data/menu.<location>.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../support/app.ts";
import { page, S } from "../support/site.ts";
import { addLanguage, dropLocationWrites, M, makeMenu, menuSource, shape } from "./helpers.ts";

describe("PUT /menus/{ref}/location without languages", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("writes the theme map, reads it back, and answers where the items are read", async () => {
    const menu = await makeMenu(t, { name: "Top", items: [{ url: "/x", title: "X" }] });
    const r = await t.call("PUT", `${M}/top/location`, { body: { location: "header" } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.menu, { id: menu.menu.id, name: "Top", slug: "top" });
    assert.deepEqual([r.body.location, r.body.lang, r.body.theme], ["header", null, "default"]);
    assert.deepEqual(r.body.written, [{ map: "theme", lang: null }]);
    assert.deepEqual(r.body.read_back, [
      { map: "theme", theme: "default", location: "header", lang: null, menu_id: menu.menu.id },
    ]);
    assert.deepEqual(r.body.assigned, [{ location: "header", lang: null }]);
    assert.equal(r.body.read_items_at, "/data/menu.header");
    assert.equal(r.body.rebaked.status, "ok");
    const source = await menuSource(t, "header");
    assert.equal(source.meta.menu_id, menu.menu.id);
    assert.equal(shape(source.items), "X");
  });

  it("a location holds one menu: assigning another replaces it, with a warning", async () => {
    const other = await makeMenu(t, { name: "Replacement" });
    const r = await t.call("PUT", `${M}/replacement/location`, { body: { location: "header" } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.replaced.length, 1);
    assert.ok(r.body.warnings.some((w: any) => w.code === "location_reassigned"));
    assert.equal((await menuSource(t, "header")).meta.menu_id, other.menu.id);
    const list = await t.call("GET", M);
    assert.deepEqual(list.body.menus.find((m: any) => m.name === "Top").assigned, []);
  });

  it("refusals: location_required (absent or empty), unknown_location with locations, menu_not_found, multilang_inactive", async () => {
    for (const [body, status, code] of [
      [{}, 400, "location_required"],
      [{ location: "" }, 400, "location_required"],
      [{ location: "  " }, 400, "location_required"],
      [{ location: "sidebar" }, 400, "unknown_location"],
      [{ location: "header", lang: "en" }, 409, "multilang_inactive"],
    ] as const) {
      const r = await t.call("PUT", `${M}/top/location`, { body });
      assert.equal(r.status, status, `${JSON.stringify(body)}: ${r.text}`);
      assert.equal(r.body.error, code);
      if (code === "unknown_location")
        assert.deepEqual(r.body.locations, ["header", "footer_1", "footer_2", "footer_3"]);
    }
    const missing = await t.call("PUT", `${M}/nobody/location`, { body: { location: "header" } });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, "menu_not_found");
  });

  it("500 menu_assignment_not_stored with read_back when the written map does not hold the menu", async () => {
    const restore = await dropLocationWrites(t);
    try {
      const r = await t.call("PUT", `${M}/top/location`, { body: { location: "footer_2" } });
      assert.equal(r.status, 500);
      assert.equal(r.body.error, "menu_assignment_not_stored");
      assert.deepEqual(r.body.read_back, [
        { map: "theme", theme: "default", location: "footer_2", lang: null, menu_id: null },
      ]);
    } finally {
      await restore();
    }
    const ok = await t.call("PUT", `${M}/top/location`, { body: { location: "footer_2" } });
    assert.equal(ok.status, 200);
  });

  it("theme writes and reads another theme's map; ~location with theme selects there", async () => {
    const r = await t.call("PUT", `${M}/top/location`, { body: { location: "footer_3", theme: "classic" } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.theme, "classic");
    assert.equal((await t.call("GET", `${M}/~footer_3`)).body.error, "menu_not_assigned", "not in the site's theme");
    const there = await t.call("GET", `${M}/~footer_3`, { query: { theme: "classic" } });
    assert.equal(there.body.menu.name, "Top");
    const viaBody = await t.call("POST", `${M}/~footer_3/items`, { body: { url: "/from-classic", theme: "classic" } });
    assert.equal(viaBody.status, 201, "theme in the body selects the menu on writes");
    assert.equal(viaBody.body.menu.name, "Top");
  });

  it("DELETE /menus/{ref}/location takes the menu off a location", async () => {
    await t.call("PUT", `${M}/top/location`, { body: { location: "footer_1" } });
    const r = await t.call("DELETE", `${M}/top/location`, { query: { location: "footer_1" } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.freed_locations, [{ location: "footer_1", lang: null, theme: "default", map: "theme" }]);
    assert.equal((await menuSource(t, "footer_1")).meta.menu_id, 0);
    const none = await t.call("DELETE", `${M}/top/location`, { body: { location: "footer_1" } });
    assert.ok(none.body.warnings.some((w: any) => w.code === "not_assigned"));
  });
});

describe("locations per language", () => {
  let t: TestApp;
  let en: any;
  let de: any;
  before(async () => {
    t = await startTestApp();
    await addLanguage(t, "en");
    await addLanguage(t, "de");
    en = await makeMenu(t, { name: "English header", items: [{ url: "/en-link", title: "Home" }] });
    de = await makeMenu(t, { name: "Deutscher Kopf", items: [{ url: "/de/link", title: "Startseite" }] });
  });
  after(() => t.close());

  it("a non-default language writes only its own map; the default language writes the theme map too", async () => {
    const german = await t.call("PUT", `${M}/deutscher-kopf/location`, { body: { location: "header", lang: "de" } });
    assert.equal(german.status, 200, german.text);
    assert.deepEqual(german.body.written, [{ map: "language", lang: "de" }]);
    assert.equal(german.body.read_items_at, "/data/menu.header?lang=de");
    const english = await t.call("PUT", `${M}/english-header/location`, { body: { location: "header", lang: "en" } });
    assert.deepEqual(english.body.written, [
      { map: "theme", lang: null },
      { map: "language", lang: "en" },
    ]);
    assert.deepEqual(
      english.body.read_back.map((e: any) => [e.map, e.lang, e.menu_id]),
      [
        ["theme", null, en.menu.id],
        ["language", "en", en.menu.id],
      ],
    );

    const list = await t.call("GET", M);
    assert.equal(list.body.default_lang, "en");
    const assigned = Object.fromEntries(list.body.menus.map((m: any) => [m.name, m.assigned]));
    assert.deepEqual(assigned["Deutscher Kopf"], [{ location: "header", lang: "de" }]);
    assert.deepEqual(assigned["English header"], [
      { location: "header", lang: null },
      { location: "header", lang: "en" },
    ]);
  });

  it("without lang the default language is written (theme map and its language map)", async () => {
    const footer = await makeMenu(t, { name: "Footer", location: "footer_1" });
    assert.deepEqual(footer.menu.assigned, [
      { location: "footer_1", lang: null },
      { location: "footer_1", lang: "en" },
    ]);
  });

  it("~location with lang selects that language's menu; without lang, the default language's", async () => {
    assert.equal((await t.call("GET", `${M}/~header`, { query: { lang: "de" } })).body.menu.id, de.menu.id);
    assert.equal((await t.call("GET", `${M}/~header`, { query: { lang: "en" } })).body.menu.id, en.menu.id);
    assert.equal((await t.call("GET", `${M}/~header`)).body.menu.id, en.menu.id);
    const r = await t.call("PUT", `${M}/~header/items`, {
      body: { lang: "de", items: [{ url: "/de/neu", title: "Neu" }] },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.menu.id, de.menu.id, "lang in the body selects the menu on writes");
    assert.equal(r.body.read_items_at, "/data/menu.header?lang=de");
    const unknown = await t.call("GET", `${M}/~header`, { query: { lang: "fr" } });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error, "unknown_language");
    assert.deepEqual(unknown.body.languages, ["en", "de"]);
    const noDe = await t.call("GET", `${M}/~footer_2`, { query: { lang: "de" } });
    assert.equal(noDe.body.error, "menu_not_assigned");
  });

  it("GET /data/menu.<location>?lang reads the language's map; a language without a menu there has menu_id 0", async () => {
    const german = await menuSource(t, "header", "de");
    assert.equal(german.meta.menu_id, de.menu.id);
    assert.equal(shape(german.items), "Neu");
    const english = await menuSource(t, "header");
    assert.equal(english.meta.menu_id, en.menu.id, "without lang: the default language");
    assert.equal(
      (await menuSource(t, "footer_1", "de")).meta.menu_id,
      0,
      "no fallback from a language to the theme map",
    );
    assert.equal((await menuSource(t, "footer_1", "en")).meta.menu_id > 0, true);
  });

  it("a theme map written before languages were added is what the default language reads", async () => {
    const other = await startTestApp();
    try {
      const menu = await makeMenu(other, { name: "Early", location: "footer_3" });
      await addLanguage(other, "fr");
      await addLanguage(other, "it");
      assert.equal((await menuSource(other, "footer_3")).meta.menu_id, menu.menu.id);
      assert.equal((await menuSource(other, "footer_3", "fr")).meta.menu_id, menu.menu.id);
      assert.equal((await menuSource(other, "footer_3", "it")).meta.menu_id, 0);
    } finally {
      await other.close();
    }
  });
});

describe("GET /data/menu.<location>", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("answers the nested tree with children, invalid items included with valid: false, and meta", async () => {
    const none = await menuSource(t, "header");
    assert.deepEqual([none.items, none.meta.menu_id, none.meta.invalid_items], [[], 0, 0]);

    const live = await page(t, { title: "Live" });
    const soon = await page(t, { title: "Soon" });
    const menu = await makeMenu(t, {
      name: "Header",
      location: "header",
      items: [
        { url: "/a", title: "A", children: [live.id, { page: soon.id, children: [{ url: "/deep", title: "Deep" }] }] },
        { url: "/b", title: "B" },
      ],
    });
    await t.call("PATCH", `${S}/pages/${soon.id}`, { body: { status: "draft" } });
    const r = await menuSource(t, "header");
    assert.equal(r.source, "menu.header");
    assert.equal(r.meta.menu_id, menu.menu.id);
    assert.equal(r.meta.invalid_items, 1);
    assert.equal(shape(r.items), "A[Live, Soon[Deep]], B");
    const [a] = r.items;
    assert.deepEqual(Object.keys(a).sort(), [
      "at",
      "children",
      "classes",
      "id",
      "order",
      "page",
      "parent",
      "target",
      "title",
      "type",
      "url",
      "valid",
    ]);
    assert.deepEqual(
      a.children.map((c: any) => [c.at, c.valid, c.parent]),
      [
        ["0.0", true, a.id],
        ["0.1", false, a.id],
      ],
    );
    assert.equal(a.children[1].invalid_reason, "draft");

    const resolved = await t.call("POST", `${S}/data/resolve`, {
      body: { source: "menu.header", match: { title: "B" } },
    });
    assert.equal(resolved.status, 200, resolved.text);
    assert.deepEqual(
      resolved.body.items.map((i: any) => i.title),
      ["B"],
    );
    const unknown = await t.call("GET", `${S}/data/menu.sidebar`);
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error, "unknown_location");
  });
});

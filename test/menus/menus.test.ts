// The menu itself through HTTP: GET /menus, references, POST /menus (every field and refusal),
// PATCH /menus/{ref}, DELETE /menus/{ref}.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, makeSite, type TestApp } from "../support/app.ts";
import { page, S } from "../support/site.ts";
import { addLanguage, dropLocationWrites, enc, M, makeMenu, menuSource, recordChanges } from "./helpers.ts";

describe("GET /menus", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("answers the theme, the locations, default_lang, read_items_at, total and the menus", async () => {
    const empty = await t.call("GET", M);
    assert.equal(empty.status, 200, empty.text);
    assert.deepEqual(empty.body, {
      success: true,
      site_id: 1,
      theme: "default",
      locations: ["header", "footer_1", "footer_2", "footer_3"],
      default_lang: null,
      read_items_at: "/data/menu.{location}",
      total: 0,
      menus: [],
      warnings: [],
    });

    const p = await page(t, { title: "Home page" });
    const main = await makeMenu(t, {
      name: "Main",
      location: "header",
      items: [p.id, { url: "/contact", title: "Contact" }],
    });
    await makeMenu(t, { name: "Aside" });
    const r = await t.call("GET", M);
    assert.equal(r.body.total, 2);
    assert.deepEqual(
      r.body.menus,
      [
        { id: main.menu.id + 1, name: "Aside", slug: "aside", items: 0, assigned: [] },
        { id: main.menu.id, name: "Main", slug: "main", items: 2, assigned: [{ location: "header", lang: null }] },
      ],
      "sorted by name, with item counts and assignments",
    );
  });

  it("?theme reads another theme's location map; without it, the site's theme", async () => {
    const other = await makeMenu(t, { name: "Other theme footer", location: "footer_1", theme: "twentyten" });
    assert.equal(other.theme, "twentyten");
    const mine = await t.call("GET", M);
    assert.deepEqual(
      mine.body.menus.find((m: any) => m.id === other.menu.id).assigned,
      [],
      "not assigned in the site's theme",
    );
    const theirs = await t.call("GET", M, { query: { theme: "twentyten" } });
    assert.equal(theirs.body.theme, "twentyten");
    assert.deepEqual(theirs.body.menus.find((m: any) => m.id === other.menu.id).assigned, [
      { location: "footer_1", lang: null },
    ]);

    const switched = await t.call("PATCH", `${S}/settings`, { body: { theme: "twentyten" } });
    assert.equal(switched.status, 200, switched.text);
    const now = await t.call("GET", M);
    assert.equal(now.body.theme, "twentyten", "the site's theme is read by default");
    assert.deepEqual(now.body.menus.find((m: any) => m.id === other.menu.id).assigned, [
      { location: "footer_1", lang: null },
    ]);
    assert.equal(
      (await menuSource(t, "footer_1")).meta.menu_id,
      other.menu.id,
      "the active theme's map is what pages read",
    );
    await t.call("PATCH", `${S}/settings`, { body: { theme: "default" } });
    assert.equal((await menuSource(t, "footer_1")).meta.menu_id, 0);

    const bad = await t.call("GET", M, { query: { theme: "../x" } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error, "invalid_field");
  });

  it("default_lang is the site's default language once languages are active", async () => {
    const other = await startTestApp();
    try {
      await addLanguage(other, "fr");
      await addLanguage(other, "de");
      const r = await other.call("GET", M);
      assert.equal(r.body.default_lang, "fr");
    } finally {
      await other.close();
    }
  });

  it("is served on the legacy address too, and a foreign site is not found", async () => {
    const legacy = await t.call("GET", "/api/menus");
    assert.equal(legacy.status, 200);
    assert.equal(legacy.body.site_id, 1);
    const siteId = await makeSite(t, "Second", "second.localhost");
    const second = await t.call("GET", `/api/site/${siteId}/menus`);
    assert.equal(second.body.total, 0, "menus belong to one site");
    const viaHeader = await t.call("POST", "/api/menus", {
      body: { name: "Legacy", location: "header" },
      headers: { "x-svc-blog-id": String(siteId) },
    });
    assert.equal(viaHeader.status, 201, viaHeader.text);
    assert.equal(viaHeader.body.site_id, siteId);
    assert.equal((await t.call("GET", `/api/site/${siteId}/menus/~header`)).body.menu.name, "Legacy");
    assert.equal((await t.call("GET", `${M}/legacy`)).status, 404, "not on the main site");
    assert.equal((await t.call("GET", "/api/site/999/menus")).status, 404);
  });
});

describe("menu references", () => {
  let t: TestApp;
  let first: any;
  before(async () => {
    t = await startTestApp();
    first = (await makeMenu(t, { name: "Primary Navigation", location: "header" })).menu;
  });
  after(() => t.close());

  it("by id, slug, name (case-insensitive), ~location and @location", async () => {
    for (const ref of [
      String(first.id),
      "primary-navigation",
      "PRIMARY-Navigation",
      "primary navigation",
      "Primary Navigation",
      "~header",
      "@header",
    ]) {
      const r = await t.call("GET", `${M}/${enc(ref)}`);
      assert.equal(r.status, 200, `${ref}: ${r.text}`);
      assert.equal(r.body.menu.id, first.id, ref);
    }
  });

  it("an id wins over a slug, a slug over a name", async () => {
    const numeric = (await makeMenu(t, { name: "Numbered", slug: String(first.id) })).menu;
    assert.equal(numeric.slug, String(first.id));
    assert.equal((await t.call("GET", `${M}/${first.id}`)).body.menu.id, first.id, "id wins");

    const bySlug = (await makeMenu(t, { name: "Footer links A", slug: "footer-links" })).menu;
    const byName = (await makeMenu(t, { name: "footer-links" })).menu;
    assert.notEqual(byName.slug, "footer-links");
    assert.equal((await t.call("GET", `${M}/footer-links`)).body.menu.id, bySlug.id, "slug wins over name");
    assert.equal((await t.call("GET", `${M}/${byName.slug}`)).body.menu.id, byName.id);
  });

  it("409 ambiguous_menu when several menus have the name, with candidates", async () => {
    const a = (await makeMenu(t, { name: "Twin Menu" })).menu;
    const b = (await makeMenu(t, { name: "twin menu" })).menu;
    assert.deepEqual([a.slug, b.slug], ["twin-menu", "twin-menu-2"]);
    const r = await t.call("GET", `${M}/${enc("TWIN MENU")}`);
    assert.equal(r.status, 409);
    assert.equal(r.body.error, "ambiguous_menu");
    assert.deepEqual(r.body.candidates.map((c: any) => c.id).sort(), [a.id, b.id].sort());
    assert.equal((await t.call("GET", `${M}/twin-menu-2`)).body.menu.id, b.id, "the slug still selects one");
    const patched = await t.call("PATCH", `${M}/${enc("twin menu")}`, { body: { name: "x" } });
    assert.equal(patched.status, 409);
    assert.equal(patched.body.error, "ambiguous_menu");
  });

  it("404 menu_not_found on every call, DELETE included; 404 menu_not_assigned for an empty location", async () => {
    for (const [method, path, body] of [
      ["GET", `${M}/nope`, undefined],
      ["PATCH", `${M}/nope`, { name: "x" }],
      ["DELETE", `${M}/nope`, undefined],
      ["DELETE", `${M}/424242`, undefined],
      ["PUT", `${M}/nope/location`, { location: "header" }],
      ["PUT", `${M}/nope/items`, { items: [] }],
      ["POST", `${M}/nope/items`, { url: "/x" }],
      ["PATCH", `${M}/nope/items/1`, { title: "x" }],
      ["DELETE", `${M}/nope/items/1`, undefined],
      ["POST", `${M}/nope/reorder`, { order: [1] }],
    ] as const) {
      const r = await t.call(method, path, { body });
      assert.equal(r.status, 404, `${method} ${path}: ${r.text}`);
      assert.equal(r.body.error, "menu_not_found", `${method} ${path}`);
    }
    const unassigned = await t.call("PUT", `${M}/~footer_3/items`, { body: { items: [] } });
    assert.equal(unassigned.status, 404);
    assert.equal(unassigned.body.error, "menu_not_assigned");
    assert.equal(unassigned.body.location, "footer_3");
    const unknown = await t.call("GET", `${M}/~sidebar`);
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error, "unknown_location");
    assert.deepEqual(unknown.body.locations, ["header", "footer_1", "footer_2", "footer_3"]);
  });

  it("lang on a site without languages is 409 multilang_inactive, in the query or the body", async () => {
    const q = await t.call("GET", `${M}/~header`, { query: { lang: "de" } });
    assert.equal(q.status, 409);
    assert.equal(q.body.error, "multilang_inactive");
    const b = await t.call("PUT", `${M}/~header/items`, { body: { items: [], lang: "de" } });
    assert.equal(b.status, 409);
    assert.equal(b.body.error, "multilang_inactive");
  });
});

describe("POST /menus", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("takes every field: name, slug, location, lang, items, allow_invalid, theme", async () => {
    const site = await makeSite(t, "Lingual", "lingual.localhost");
    const base = `/api/site/${site}`;
    await addLanguage(t, "en", {}, base);
    await addLanguage(t, "de", {}, base);
    const about = await page(t, { title: "Über uns", lang: "de" }, base);
    const draft = await page(t, { title: "Entwurf", lang: "de", status: "draft" }, base);
    const r = await t.call("POST", `${base}/menus`, {
      body: {
        name: "Kopfzeile",
        slug: "kopf",
        location: "header",
        lang: "de",
        theme: "blocks",
        allow_invalid: true,
        items: [
          "ueber-uns",
          { page: draft.id },
          { url: "/kontakt", title: "Kontakt", target: "_blank", classes: "cta  big" },
        ],
      },
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.success, true);
    assert.equal(r.body.site_id, site);
    assert.equal(r.body.theme, "blocks");
    assert.deepEqual(
      { ...r.body.menu, id: 0 },
      { id: 0, name: "Kopfzeile", slug: "kopf", items: 2, assigned: [{ location: "header", lang: "de" }] },
    );
    assert.deepEqual(
      r.body.items.map((i: any) => [i.at, i.title, i.type, i.page, i.url, i.target, i.classes]),
      [
        ["0", "Über uns", "post_type", about.id, "http://lingual.localhost:8080/de/ueber-uns/", "", ""],
        ["2", "Kontakt", "custom", null, "http://lingual.localhost:8080/kontakt", "_blank", "cta big"],
      ],
    );
    assert.deepEqual(r.body.invalid, [{ at: "1", page: draft.id, title: "Entwurf", status: "draft", reason: "draft" }]);
    assert.equal(r.body.rebaked.status, "ok");
    const listed = await t.call("GET", `${base}/menus`, { query: { theme: "blocks" } });
    assert.deepEqual(listed.body.menus[0].assigned, [{ location: "header", lang: "de" }]);
  });

  it("derives the slug from the name and makes it unique; an explicit taken slug is 409 slug_taken", async () => {
    const a = await makeMenu(t, { name: "Main Menü" });
    const b = await makeMenu(t, { name: "main menu" });
    const c = await makeMenu(t, { name: "!!!" });
    assert.deepEqual([a.menu.slug, b.menu.slug, c.menu.slug], ["main-menu", "main-menu-2", "menu"]);
    assert.equal(a.theme, null, "no location, no map written");
    const taken = await t.call("POST", M, { body: { name: "Another", slug: "main-menu" } });
    assert.equal(taken.status, 409);
    assert.equal(taken.body.error, "slug_taken");
    assert.equal(taken.body.id, a.menu.id);
    const normalized = await makeMenu(t, { name: "Spaced", slug: "My Slug" });
    assert.equal(normalized.menu.slug, "my-slug");
    assert.ok(normalized.warnings.some((w: any) => w.code === "slug_normalized"));
  });

  it("concurrent creations with one name all succeed, each with its own slug", async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => t.call("POST", M, { body: { name: "Race" } })));
    assert.deepEqual(
      answers.map((a) => a.status),
      [201, 201, 201, 201, 201, 201],
    );
    assert.deepEqual(answers.map((a) => a.body.menu.slug).sort(), [
      "race",
      "race-2",
      "race-3",
      "race-4",
      "race-5",
      "race-6",
    ]);
  });

  it("400 menu_name_required for a missing or blank name", async () => {
    for (const body of [{}, { name: "" }, { name: "   " }, { name: null, location: "header" }]) {
      const r = await t.call("POST", M, { body });
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.body.error, "menu_name_required");
    }
  });

  it("400 bad_items for a malformed tree, with errors at their coordinates", async () => {
    const p = await page(t, { title: "Target" });
    for (const [items, at] of [
      ["not a tree", ""],
      [[{ page: p.id, url: "/x" }], "0"],
      [[{ title: "nothing" }], "0"],
      [[{ url: "/a", children: [{ url: "/b" }, { page: p.id, url: "/c" }] }], "0.1"],
      [[{ url: "/a", children: "no" }], "0"],
      [[null], "0"],
      [[{ url: "javascript:alert(1)" }], "0"],
      [[{ page: -3 }], "0"],
    ] as const) {
      const r = await t.call("POST", M, { body: { name: "Bad", items } });
      assert.equal(r.status, 400, JSON.stringify(items));
      assert.equal(r.body.error, "bad_items", JSON.stringify(items));
      assert.equal(r.body.errors[0].at, at, JSON.stringify(r.body.errors));
    }
    assert.equal((await t.call("GET", `${M}/bad`)).status, 404, "nothing was created");
  });

  it("400 unknown_location with locations; 409 multilang_inactive; 400 unknown_language with languages", async () => {
    const loc = await t.call("POST", M, { body: { name: "X", location: "sidebar" } });
    assert.equal(loc.status, 400);
    assert.equal(loc.body.error, "unknown_location");
    assert.deepEqual(loc.body.locations, ["header", "footer_1", "footer_2", "footer_3"]);
    const inactive = await t.call("POST", M, { body: { name: "X", location: "header", lang: "en" } });
    assert.equal(inactive.status, 409);
    assert.equal(inactive.body.error, "multilang_inactive");

    const site = await makeSite(t, "Langs", "langs.localhost");
    await addLanguage(t, "en", {}, `/api/site/${site}`);
    const unknown = await t.call("POST", `/api/site/${site}/menus`, {
      body: { name: "X", location: "header", lang: "fr" },
    });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error, "unknown_language");
    assert.deepEqual(unknown.body.languages, ["en"]);
    assert.equal((await t.call("GET", `/api/site/${site}/menus`)).body.total, 0);
  });

  it("409 menu_items_unresolved with errors for references that name no page or several", async () => {
    const site = await makeSite(t, "Refs", "refs.localhost");
    const base = `/api/site/${site}`;
    await addLanguage(t, "en", {}, base);
    await addLanguage(t, "de", {}, base);
    await page(t, { title: "Team", lang: "en" }, base);
    await page(t, { title: "Team", lang: "de" }, base);
    const r = await t.call("POST", `${base}/menus`, {
      body: { name: "Refs", items: [{ url: "/ok", children: ["no-such-page", "team"] }, 999999] },
    });
    assert.equal(r.status, 409, r.text);
    assert.equal(r.body.error, "menu_items_unresolved");
    assert.deepEqual(
      r.body.errors.map((e: any) => [e.at, e.page, e.error]),
      [
        ["0.0", "no-such-page", "page_not_found"],
        ["0.1", "team", "ambiguous_page"],
        ["1", 999999, "page_not_found"],
      ],
    );
    assert.equal(r.body.errors[1].candidates.length, 2);
    const inGerman = await t.call("POST", `${base}/menus`, { body: { name: "Refs", lang: "de", items: ["team"] } });
    assert.equal(inGerman.status, 201, "with lang, a slug is looked up in that language first");
    assert.equal(inGerman.body.items[0].url, "http://refs.localhost:8080/de/team/");
  });

  it("409 menu_items_invalid with invalid when items point to unpublished pages, and nothing is created", async () => {
    const draft = await page(t, { title: "Not yet", status: "draft" });
    const live = await page(t, { title: "Live" });
    const r = await t.call("POST", M, { body: { name: "Strict", location: "footer_2", items: [live.id, draft.id] } });
    assert.equal(r.status, 409);
    assert.equal(r.body.error, "menu_items_invalid");
    assert.deepEqual(r.body.invalid, [{ at: "1", page: draft.id, title: "Not yet", status: "draft", reason: "draft" }]);
    assert.equal((await t.call("GET", `${M}/strict`)).status, 404);
    assert.equal((await menuSource(t, "footer_2")).meta.menu_id, 0);
  });

  it("500 menu_assignment_not_stored with read_back when the map does not hold the menu afterwards", async () => {
    const restore = await dropLocationWrites(t);
    try {
      const r = await t.call("POST", M, { body: { name: "Lost", location: "footer_3" } });
      assert.equal(r.status, 500);
      assert.equal(r.body.error, "menu_assignment_not_stored");
      assert.deepEqual(r.body.read_back, [
        { map: "theme", theme: "default", location: "footer_3", lang: null, menu_id: null },
      ]);
      assert.equal(r.body.menu.name, "Lost", "the menu itself was created and is named");
    } finally {
      await restore();
    }
  });
});

describe("PATCH /menus/{ref}", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("renames (name and/or slug) without touching items or locations and without a rebake", async () => {
    const created = await makeMenu(t, { name: "Old", location: "header", items: [{ url: "/a" }, { url: "/b" }] });
    const spy = recordChanges(t);
    try {
      const r = await t.call("PATCH", `${M}/old`, { body: { name: "New name", slug: "new-slug" } });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body.menu, {
        id: created.menu.id,
        term_taxonomy_id: created.menu.id,
        name: "New name",
        slug: "new-slug",
        count: 2,
      });
      assert.equal("rebaked" in r.body, false);
      assert.deepEqual(spy.changes, [], "nothing announced to the publish step");
      const only = await t.call("PATCH", `${M}/new-slug`, { body: { name: "Newer" } });
      assert.deepEqual(
        [only.body.menu.name, only.body.menu.slug],
        ["Newer", "new-slug"],
        "the slug stays when only the name changes",
      );
    } finally {
      spy.restore();
    }
    const read = await t.call("GET", `${M}/~header`);
    assert.equal(read.body.menu.name, "Newer");
    assert.equal(read.body.total, 2);
  });

  it("400 nothing_to_update, 409 slug_taken, 400 menu_name_required, 404 menu_not_found", async () => {
    await makeMenu(t, { name: "Taken" });
    await makeMenu(t, { name: "Mine" });
    const nothing = await t.call("PATCH", `${M}/mine`, { body: {} });
    assert.equal(nothing.status, 400);
    assert.equal(nothing.body.error, "nothing_to_update");
    const taken = await t.call("PATCH", `${M}/mine`, { body: { slug: "taken" } });
    assert.equal(taken.status, 409);
    assert.equal(taken.body.error, "slug_taken");
    const blank = await t.call("PATCH", `${M}/mine`, { body: { name: " " } });
    assert.equal(blank.body.error, "menu_name_required");
    const missing = await t.call("PATCH", `${M}/nobody`, { body: { name: "x" } });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, "menu_not_found");
  });
});

describe("DELETE /menus/{ref}", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("removes the items and frees the locations in the theme map and the language map", async () => {
    await addLanguage(t, "en");
    await addLanguage(t, "de");
    const menu = await makeMenu(t, {
      name: "Doomed",
      location: "header",
      items: [{ url: "/a", children: [{ url: "/b" }] }, { url: "/c" }],
    });
    const de = await t.call("PUT", `${M}/doomed/location`, { body: { location: "footer_1", lang: "de" } });
    assert.equal(de.status, 200, de.text);
    const r = await t.call("DELETE", `${M}/doomed`);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.deleted, { id: menu.menu.id, name: "Doomed", slug: "doomed" });
    assert.equal(r.body.removed_items, 3);
    const freed = r.body.freed_locations.map((f: any) => `${f.theme}:${f.location}:${f.lang}`).sort();
    assert.deepEqual(freed, ["default:footer_1:de", "default:header:en", "default:header:null"]);
    assert.equal(r.body.rebaked.status, "ok");
    assert.equal((await t.call("GET", `${M}/~header`)).body.error, "menu_not_assigned");
    assert.equal((await menuSource(t, "header")).meta.menu_id, 0);
    assert.equal((await menuSource(t, "footer_1", "de")).meta.menu_id, 0);
    const again = await t.call("DELETE", `${M}/${menu.menu.id}`);
    assert.equal(again.status, 404);
    assert.equal(again.body.error, "menu_not_found");
  });
});

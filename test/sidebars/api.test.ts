// The sidebar calls (docs/sidebars.md): named trees written by hand or generated from a
// root page, per language; item ids stable and kept by id; labels following titles; validity as
// for menu items; the refusals.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { TestApp } from "../support/app.ts";
import { ok, seoSite as newSite, startTestApp, type SeoSite } from "../seo/helpers.ts";

interface Item {
  id: number;
  label: string;
  page: number | null;
  url: string | null;
  valid: boolean;
  open: boolean;
  items: Item[];
}

/** label (valid) per item, nested: the shape of a tree at a glance. */
const shape = (items: Item[]): unknown[] =>
  items.map((item) =>
    item.items.length > 0 ? [item.label, shape(item.items)] : item.valid ? item.label : `${item.label} (invalid)`,
  );
const ids = (items: Item[]): number[] => items.flatMap((item) => [item.id, ...ids(item.items)]);

describe("sidebars: the API", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  async function docsSite(languages = false): Promise<{ site: SeoSite; pages: Record<string, number> }> {
    const site = await newSite(t, { languages });
    await site.frame("doc", "<p>doc</p>");
    const pages: Record<string, number> = {};
    const lang = languages ? { lang: "en" } : {};
    pages.docs = await site.page("Docs", "doc", lang);
    for (const [title, order] of [
      ["Intro", 1],
      ["Install", 2],
      ["Usage", 3],
      ["Api", 4],
    ] as const)
      pages[title.toLowerCase()] = await site.page(title, "doc", { ...lang, parent: pages.docs, menu_order: order });
    return { site, pages };
  }

  it("PUT creates a sidebar (201) of page, link and section items; GET answers each with an id, its label (the page's title unless given), page, address, validity and open; the list counts items at every depth", async () => {
    const { site, pages } = await docsSite();
    const made = ok(
      await site.api("PUT", "/sidebars/docs", {
        items: [
          { page: pages.intro },
          {
            label: "Guide",
            open: true,
            items: [{ page: "/docs/install", label: "Installing" }, { page: pages.usage }],
          },
          { url: "https://example.com/api", label: "API" },
        ],
      }),
      "PUT",
      201,
    );
    assert.deepEqual(shape(made.sidebar.items), ["Intro", ["Guide", ["Installing", "Usage"]], "API"]);
    const answered = ok(await site.api("GET", "/sidebars/docs"), "GET").sidebar;
    assert.deepEqual(answered.items, made.sidebar.items);
    const [intro, guide, api] = answered.items as Item[];
    assert.deepEqual(intro, {
      id: intro.id,
      label: "Intro",
      page: pages.intro,
      url: `${site.origin}/docs/intro/`,
      valid: true,
      open: false,
      items: [],
    });
    assert.deepEqual({ page: guide.page, url: guide.url, open: guide.open }, { page: null, url: null, open: true });
    assert.deepEqual(
      { page: api.page, url: api.url, valid: api.valid },
      { page: null, url: "https://example.com/api", valid: true },
    );
    assert.equal(new Set(ids(answered.items)).size, 5, "every item has an id of its own");
    assert.deepEqual(ok(await site.api("GET", "/sidebars"), "list").sidebars, [
      { name: "docs", root: null, languages: [], items: 5 },
    ]);
  });

  it("a PUT naming items by id keeps them; new items get new ids, never reused; an id the sidebar never had is ignored with a warning; a fetched tree sent back unchanged is the same tree", async () => {
    const { site, pages } = await docsSite();
    const first = ok(
      await site.api("PUT", "/sidebars/docs", { items: [{ page: pages.intro }, { page: pages.install }] }),
      "first",
      201,
    ).sidebar.items as Item[];
    const second = ok(
      await site.api("PUT", "/sidebars/docs", {
        items: [{ id: first[1].id, page: pages.install }, { page: pages.usage }],
      }),
      "second",
    ).sidebar.items as Item[];
    assert.equal(second[0].id, first[1].id, "kept by id");
    assert.ok(!ids(first).includes(second[1].id), "a new item never takes a former id");
    const warned = ok(
      await site.api("PUT", "/sidebars/docs", { items: [{ id: 999, page: pages.intro }] }),
      "unknown id",
    );
    assert.deepEqual(
      warned.warnings.map((w: { code: string }) => w.code),
      ["item_id_ignored"],
    );
    assert.notEqual(warned.sidebar.items[0].id, 999);
    const fetched = ok(await site.api("GET", "/sidebars/docs"), "GET").sidebar.items;
    ok(
      await site.api("PUT", "/sidebars/docs", { items: [...fetched, { label: "More", items: [] }] }),
      "with an empty section",
    );
    const again = ok(await site.api("GET", "/sidebars/docs"), "GET again").sidebar.items;
    const sentBack = ok(await site.api("PUT", "/sidebars/docs", { items: again }), "sent back").sidebar.items;
    assert.deepEqual(sentBack, again);
  });

  it("labels follow the page's title unless one was given (a label equal to the title is none); addresses follow slugs", async () => {
    const { site, pages } = await docsSite();
    ok(
      await site.api("PUT", "/sidebars/docs", {
        items: [
          { page: pages.intro, label: "Intro" },
          { page: pages.install, label: "Set up" },
        ],
      }),
      "PUT",
      201,
    );
    ok(await site.api("PATCH", `/pages/${pages.intro}`, { title: "Introduction", slug: "start" }), "retitle");
    ok(await site.api("PATCH", `/pages/${pages.install}`, { title: "Installation" }), "retitle");
    const items = ok(await site.api("GET", "/sidebars/docs"), "GET").sidebar.items as Item[];
    assert.deepEqual(
      items.map((item) => [item.label, item.url]),
      [
        ["Introduction", `${site.origin}/docs/start/`],
        ["Set up", `${site.origin}/docs/install/`],
      ],
    );
  });

  it("validity as for menu items: an item of an unpublished page is 409 sidebar_items_invalid unless ?allow_invalid=true (left out, listed in invalid); a page drafted later is kept with valid false, and true again once published", async () => {
    const { site, pages } = await docsSite();
    ok(await site.api("PATCH", `/pages/${pages.api}`, { status: "draft" }), "draft");
    const refused = await site.api("PUT", "/sidebars/docs", { items: [{ page: pages.intro }, { page: pages.api }] });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error, "sidebar_items_invalid");
    assert.deepEqual(
      refused.body.invalid.map((i: { page: number; reason: string }) => [i.page, i.reason]),
      [[pages.api, "draft"]],
    );
    assert.equal((await site.api("GET", "/sidebars/docs")).status, 404, "nothing was written");
    const allowed = ok(
      await site.api("PUT", "/sidebars/docs?allow_invalid=true", {
        items: [{ page: pages.intro }, { page: pages.api }, { page: pages.usage }],
      }),
      "allow_invalid",
      201,
    );
    assert.deepEqual(shape(allowed.sidebar.items), ["Intro", "Usage"]);
    assert.deepEqual(
      allowed.invalid.map((i: { page: number }) => i.page),
      [pages.api],
    );
    ok(await site.api("PATCH", `/pages/${pages.usage}`, { status: "draft" }), "draft usage");
    assert.deepEqual(shape(ok(await site.api("GET", "/sidebars/docs"), "GET").sidebar.items), [
      "Intro",
      "Usage (invalid)",
    ]);
    ok(await site.api("PATCH", `/pages/${pages.usage}`, { status: "publish" }), "publish usage");
    assert.deepEqual(shape(ok(await site.api("GET", "/sidebars/docs"), "GET").sidebar.items), ["Intro", "Usage"]);
  });

  it("{root} generates the tree from the pages under that page (the root no item), nested, by menu_order then title, with drafts kept invalid; it follows moves, new pages and order changes", async () => {
    const { site, pages } = await docsSite();
    const deep = await site.page("Advanced", "doc", { parent: pages.usage });
    await site.page("Zebra", "doc", { parent: pages.docs, menu_order: 2 });
    await site.page("Alpha", "doc", { parent: pages.docs, menu_order: 2, status: "draft" });
    const made = ok(await site.api("PUT", "/sidebars/docs", { root: "docs" }), "root", 201).sidebar;
    assert.equal(made.root, pages.docs);
    assert.deepEqual(shape(made.items), [
      "Intro",
      "Alpha (invalid)",
      "Install",
      "Zebra",
      ["Usage", ["Advanced"]],
      "Api",
    ]);
    assert.equal(made.items[0].id, pages.intro, "a generated item's id is its page's");
    ok(await site.api("PATCH", `/pages/${pages.api}`, { menu_order: 0 }), "reorder");
    ok(await site.api("PATCH", `/pages/${deep}`, { parent: pages.docs, menu_order: 9 }), "move up");
    await site.page("Elsewhere", "doc");
    await site.page("Faq", "doc", { parent: pages.install });
    const after = ok(await site.api("GET", "/sidebars/docs"), "GET").sidebar;
    assert.deepEqual(shape(after.items), [
      "Api",
      "Intro",
      "Alpha (invalid)",
      ["Install", ["Faq"]],
      "Zebra",
      "Usage",
      "Advanced",
    ]);
    assert.deepEqual(ok(await site.api("GET", "/sidebars"), "list").sidebars[0].root, pages.docs);
  });

  it("languages: a tree written with lang is that language's own; a language without one reads the default tree mapped to translations, leaving out pages without one and keeping sections and links", async () => {
    const { site, pages } = await docsSite(true);
    for (const [page, title] of [
      [pages.intro, "Einführung"],
      [pages.install, "Installation"],
    ] as const)
      ok(await site.api("POST", "/pages/language", { page, lang: "de", title }), "translation", 201);
    ok(
      await site.api("PUT", "/sidebars/docs", {
        items: [
          { page: pages.intro },
          { label: "Guide", items: [{ page: pages.install }, { page: pages.usage }] },
          { url: "/changelog/", label: "Changes" },
        ],
      }),
      "default tree",
      201,
    );
    const de = ok(await site.api("GET", "/sidebars/docs?lang=de"), "de").sidebar;
    assert.equal(de.lang, "de");
    assert.deepEqual(shape(de.items), ["Einführung", ["Guide", ["Installation"]], "Changes"]);
    assert.match(de.items[0].url, /\/de\/docs\/einfuehrung\/$|\/de\/einfuehrung\/$/);
    assert.equal(
      de.items[0].id,
      ok(await site.api("GET", "/sidebars/docs"), "en").sidebar.items[0].id,
      "the same item, in German",
    );
    ok(
      await site.api("PUT", "/sidebars/docs", { lang: "de", items: [{ url: "/de/", label: "Start" }] }),
      "a German tree of its own",
    );
    assert.deepEqual(shape(ok(await site.api("GET", "/sidebars/docs?lang=de"), "de own").sidebar.items), ["Start"]);
    assert.deepEqual(shape(ok(await site.api("GET", "/sidebars/docs?lang=en"), "en").sidebar.items), [
      "Intro",
      ["Guide", ["Install", "Usage"]],
      "Changes",
    ]);
    assert.deepEqual(
      ok(await site.api("GET", "/sidebars"), "list").sidebars[0].languages,
      ["en", "de"],
      "in the site's language order",
    );
    assert.equal((await site.api("GET", "/sidebars/docs?lang=fr")).body.error, "unknown_language");
  });

  it("refusals: a bad name 400 invalid_sidebar_name; no such sidebar 404 sidebar_not_found (GET and DELETE); items and root together, or neither, 400 sidebar_tree_required; malformed items 400 bad_items with each item's coordinate; a page that cannot be found 409 sidebar_items_unresolved; nothing written", async () => {
    const { site } = await docsSite();
    for (const name of ["Docs", "-docs", "docs!", "a".repeat(101)])
      assert.equal(
        (await site.api("PUT", `/sidebars/${encodeURIComponent(name)}`, { items: [] })).body.error,
        "invalid_sidebar_name",
        name,
      );
    assert.equal((await site.api("GET", "/sidebars/nope")).body.error, "sidebar_not_found");
    assert.equal((await site.api("DELETE", "/sidebars/nope")).body.error, "sidebar_not_found");
    assert.equal(
      (await site.api("PUT", "/sidebars/docs", { items: [], root: "docs" })).body.error,
      "sidebar_tree_required",
    );
    assert.equal((await site.api("PUT", "/sidebars/docs", {})).body.error, "sidebar_tree_required");
    const bad = await site.api("PUT", "/sidebars/docs", {
      items: [{ url: "/a" }, { label: "S", items: [{ page: 1, items: [{ page: 2 }] }] }, { page: "x", id: -1 }],
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error, "bad_items");
    assert.deepEqual(
      bad.body.errors.map((e: { at: string }) => e.at),
      ["0", "1.0", "2"],
    );
    const unresolved = await site.api("PUT", "/sidebars/docs", { items: [{ page: "no-such-page" }] });
    assert.equal(unresolved.status, 409);
    assert.equal(unresolved.body.error, "sidebar_items_unresolved");
    assert.equal(unresolved.body.errors[0].at, "0");
    assert.deepEqual(ok(await site.api("GET", "/sidebars"), "list").sidebars, []);
  });

  it("DELETE removes every language's tree; the legacy address reaches the same sidebars; another site's are its own", async () => {
    const { site, pages } = await docsSite();
    ok(
      await t.call("PUT", `/api/sidebars/docs?blog_id=${site.id}`, { body: { items: [{ page: pages.intro }] } }),
      "legacy PUT",
      201,
    );
    assert.equal(ok(await site.api("GET", "/sidebars/docs"), "GET").sidebar.items.length, 1);
    const other = await newSite(t);
    assert.equal((await other.api("GET", "/sidebars/docs")).status, 404);
    assert.deepEqual(ok(await site.api("DELETE", "/sidebars/docs"), "DELETE").deleted, { name: "docs" });
    assert.equal((await site.api("GET", "/sidebars/docs")).status, 404);
  });
});

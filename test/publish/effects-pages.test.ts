// Effect table, pages: POST, PATCH (title, content, slug, parent, status), DELETE (trash and
// force) and translations (docs/publishing.md; pattern in effects-helpers.ts).
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { bind, effects, gone, linkTitles, linkUrls, ok, redirected, served, suite } from "./effects-helpers.ts";

const link = `<a data-op-bind='{"href": "item.url", "text": "item.title"}'></a>`;
const repeat = (source: string) =>
  `<ul><!-- svc/repeat {"source": "${source}"} --><li>${link}</li><!-- /svc/repeat --></ul>`;

describe(suite("pages"), () => {
  const fx = effects();
  before(async () => {
    await fx.frame("px-plain", "<p>plain page</p>");
    // Baked: the site's page list.
    await fx.frame("px-list", `<nav class="all">${repeat("pages")}</nav>`);
    // On request: the page's own title and content, its parent's title, its children, its breadcrumbs.
    await fx.frame("px-self", `<h1 ${bind("text", "page.title")}></h1><div ${bind("html", "page.content")}></div>`);
    await fx.frame("px-kid", `<p class="parent" ${bind("text", "page.parent_title")}></p>`);
    await fx.frame("px-children", `<nav class="children">${repeat("pages.children")}</nav>`);
    await fx.frame("px-crumbs", `<nav class="crumbs">${repeat("breadcrumbs")}</nav>`);
    // Baked: the header menu.
    await fx.frame("px-menu", `<nav class="menu"><!-- svc/menu {"location": "header"} /--></nav>`);
    await fx.page("px-all", "px-list");
    await fx.page("px-menu-page", "px-menu");
    ok(await fx.api("POST", "/menus", { name: "Header", location: "header", items: [] }), "menu", 201);
  });

  it("POST /pages: a new page shows up in the frames that list pages", async () => {
    assert.ok(!linkTitles((await fx.primed("/px-all/")).text).includes("px-newcomer"));
    await fx.page("px-newcomer", "px-plain");
    assert.ok(linkTitles(served(await fx.visit("/px-all/"), "/px-all/", "static")).includes("px-newcomer"));
    served(await fx.visit("/px-newcomer/"), "/px-newcomer/", "static");
  });

  it("PATCH /pages title: the page, its children printing page.parent_title, page lists and menus showing it print the new title", async () => {
    const id = await fx.page("px-titled", "px-self", { title: "Old title" });
    await fx.page("px-titled-kid", "px-kid", { parent: id });
    ok(await fx.api("PUT", "/menus/~header/items", { items: [{ page: id }] }), "menu items");
    for (const path of ["/px-titled/", "/px-titled/px-titled-kid/", "/px-all/", "/px-menu-page/"])
      assert.match((await fx.primed(path)).text, /Old title/);
    ok(await fx.api("PATCH", `/pages/${id}`, { title: "New title" }), "PATCH title");
    assert.match(served(await fx.visit("/px-titled/"), "page", "on_request"), /<h1>New title<\/h1>/);
    assert.match(
      served(await fx.visit("/px-titled/px-titled-kid/"), "child", "on_request"),
      /<p class="parent">New title<\/p>/,
    );
    assert.ok(linkTitles(served(await fx.visit("/px-all/"), "list", "static")).includes("New title"));
    assert.deepEqual(linkTitles(served(await fx.visit("/px-menu-page/"), "menu", "static")), ["New title"]);
  });

  it("PATCH /pages content: a page printing page.content prints the new content", async () => {
    const id = await fx.page("px-content", "px-self", { content: "<em>old body</em>" });
    assert.match((await fx.primed("/px-content/")).text, /old body/);
    ok(await fx.api("PATCH", `/pages/${id}`, { content: "<em>new body</em>" }), "PATCH content");
    assert.match(served(await fx.visit("/px-content/"), "page", "on_request"), /<em>new body<\/em>/);
  });

  it("PATCH /pages slug: the old addresses of the page and its subtree answer 301 to the new ones, which answer; lists and menus link there", async () => {
    const id = await fx.page("px-slug", "px-plain");
    await fx.page("px-slug-kid", "px-plain", { parent: id });
    ok(await fx.api("PUT", "/menus/~header/items", { items: [{ page: id }] }), "menu items");
    for (const path of ["/px-slug/", "/px-slug/px-slug-kid/", "/px-all/", "/px-menu-page/"]) await fx.primed(path);
    ok(await fx.api("PATCH", `/pages/${id}`, { slug: "px-slug-moved" }), "PATCH slug");
    redirected(await fx.visit("/px-slug/"), "old address", "/px-slug-moved/");
    redirected(await fx.visit("/px-slug/px-slug-kid/"), "old child address", "/px-slug-moved/px-slug-kid/");
    served(await fx.visit("/px-slug-moved/"), "new address", "static");
    served(await fx.visit("/px-slug-moved/px-slug-kid/"), "new child address", "static");
    const listed = linkUrls(served(await fx.visit("/px-all/"), "list", "static"));
    assert.ok(
      listed.some((url) => url.endsWith("/px-slug-moved/px-slug-kid/")),
      listed.join(" "),
    );
    assert.ok(!listed.some((url) => url.endsWith("/px-slug/")), listed.join(" "));
    assert.match(linkUrls(served(await fx.visit("/px-menu-page/"), "menu", "static"))[0], /\/px-slug-moved\/$/);
  });

  it("PATCH /pages parent: the page answers under its new parent (its old address 301 to it), both parents' child lists and its descendants' breadcrumbs follow", async () => {
    const from = await fx.page("px-from", "px-children");
    const to = await fx.page("px-to", "px-children");
    const id = await fx.page("px-mover", "px-plain", { parent: from });
    await fx.page("px-mover-kid", "px-crumbs", { parent: id });
    for (const path of ["/px-from/", "/px-to/", "/px-from/px-mover/", "/px-from/px-mover/px-mover-kid/"])
      await fx.primed(path);
    ok(await fx.api("PATCH", `/pages/${id}`, { parent: to }), "PATCH parent");
    redirected(await fx.visit("/px-from/px-mover/"), "old address", "/px-to/px-mover/");
    served(await fx.visit("/px-to/px-mover/"), "new address", "static");
    assert.deepEqual(linkTitles(served(await fx.visit("/px-from/"), "old parent", "on_request")), []);
    assert.deepEqual(linkTitles(served(await fx.visit("/px-to/"), "new parent", "on_request")), ["px-mover"]);
    assert.deepEqual(linkTitles(served(await fx.visit("/px-to/px-mover/px-mover-kid/"), "descendant", "on_request")), [
      "px-to",
      "px-mover",
      "px-mover-kid",
    ]);
  });

  it("PATCH /pages status: a draft answers 404 with its published subtree, leaves lists and menus; published again it is back", async () => {
    const id = await fx.page("px-status", "px-plain");
    await fx.page("px-status-kid", "px-plain", { parent: id });
    ok(
      await fx.api("PUT", "/menus/~header/items", {
        items: [
          { page: id, title: "Status item" },
          { url: "/elsewhere", title: "Other item" },
        ],
      }),
      "menu items",
    );
    for (const path of ["/px-status/", "/px-status/px-status-kid/", "/px-all/", "/px-menu-page/"])
      await fx.primed(path);
    ok(await fx.api("PATCH", `/pages/${id}`, { status: "draft" }), "PATCH draft");
    gone(await fx.visit("/px-status/"), "draft", "draft");
    gone(await fx.visit("/px-status/px-status-kid/"), "child", "parent_unpublished");
    assert.ok(!linkTitles(served(await fx.visit("/px-all/"), "list", "static")).includes("px-status"));
    assert.deepEqual(linkTitles(served(await fx.visit("/px-menu-page/"), "menu", "static")), ["Other item"]);
    await fx.primed("/px-all/");
    await fx.primed("/px-menu-page/");
    ok(await fx.api("PATCH", `/pages/${id}`, { status: "publish" }), "PATCH publish");
    served(await fx.visit("/px-status/"), "published", "static");
    served(await fx.visit("/px-status/px-status-kid/"), "child", "static");
    assert.ok(linkTitles(served(await fx.visit("/px-all/"), "list", "static")).includes("px-status-kid"));
    assert.deepEqual(linkTitles(served(await fx.visit("/px-menu-page/"), "menu", "static")), [
      "Status item",
      "Other item",
    ]);
  });

  it("DELETE /pages: trashed, the page answers 404 and leaves the lists; forced, its children answer at their parent's level and their old addresses 301 there", async () => {
    const trashed = await fx.page("px-trashed", "px-plain");
    for (const path of ["/px-trashed/", "/px-all/"]) await fx.primed(path);
    ok(await fx.api("DELETE", `/pages/${trashed}`), "DELETE");
    gone(await fx.visit("/px-trashed/"), "trashed");
    assert.ok(!linkTitles(served(await fx.visit("/px-all/"), "list", "static")).includes("px-trashed"));

    const forced = await fx.page("px-forced", "px-plain");
    await fx.page("px-orphan", "px-plain", { parent: forced });
    for (const path of ["/px-forced/", "/px-forced/px-orphan/", "/px-all/"]) await fx.primed(path);
    ok(await fx.api("DELETE", `/pages/${forced}?force=true`), "DELETE force");
    gone(await fx.visit("/px-forced/"), "deleted", "no_page");
    redirected(await fx.visit("/px-forced/px-orphan/"), "old child address", "/px-orphan/");
    served(await fx.visit("/px-orphan/"), "reparented child", "static");
    const titles = linkTitles(served(await fx.visit("/px-all/"), "list", "static"));
    assert.ok(titles.includes("px-orphan") && !titles.includes("px-forced"), titles.join(" "));
  });

  it("translations (POST /pages/language, PATCH, DELETE): the new translation answers, its partners' language switchers link to it", async () => {
    const site = await fx.site("Translated", "translated.localhost");
    const host = "translated.localhost";
    for (const code of ["en", "de"]) ok(await fx.api("POST", "/languages", { code }, site), `language ${code}`, 201);
    await fx.frame("px-switch", `<p ${bind("text", "page.title")}></p><!-- op/lang-switcher /-->`, site);
    const origin = await fx.page("px-origin", "px-switch", { lang: "en" }, site);
    const homeOfDe = (html: string) => linkUrls(html).find((url) => /\/de\//.test(url));
    assert.match(homeOfDe((await fx.primed("/px-origin/", host)).text) ?? "", /translated\.localhost[^/]*\/de\/$/);
    const created = ok(
      await fx.api(
        "POST",
        "/pages/language",
        { page: origin, lang: "de", title: "Ursprung", slug: "px-ursprung" },
        site,
      ),
      "translation",
      201,
    );
    assert.match(
      homeOfDe(served(await fx.visit("/px-origin/", host), "origin", "on_request")) ?? "",
      /\/de\/px-ursprung\/$/,
    );
    assert.match(served(await fx.visit("/de/px-ursprung/", host), "translation", "on_request"), /<p>Ursprung<\/p>/);

    // POST /pages/language again updates the existing translation: its content reaches its page.
    await fx.frame("px-content", `<div ${bind("html", "page.content")}></div>`, site);
    ok(
      await fx.api("PATCH", `/pages/${created.page.id}`, { frame: "px-content", content: "<p>erste</p>" }, site),
      "translation on a content frame",
    );
    assert.match((await fx.primed("/de/px-ursprung/", host)).text, /<p>erste<\/p>/);
    const updated = ok(
      await fx.api("POST", "/pages/language", { page: origin, lang: "de", content: "<p>zweite</p>" }, site),
      "translation updated",
    );
    assert.equal(updated.created, false);
    assert.ok(
      updated.rebaked.pages.includes(created.page.id),
      "the update names the translation's page in rebaked.pages",
    );
    assert.match(served(await fx.visit("/de/px-ursprung/", host), "updated translation"), /<p>zweite<\/p>/);
    ok(await fx.api("PATCH", `/pages/${created.page.id}`, { frame: "px-switch" }, site), "back on the switcher frame");

    await fx.primed("/px-origin/", host);
    ok(await fx.api("PATCH", `/pages/${created.page.id}`, { slug: "px-herkunft" }, site), "PATCH translation slug");
    assert.match(
      homeOfDe(served(await fx.visit("/px-origin/", host), "origin", "on_request")) ?? "",
      /\/de\/px-herkunft\/$/,
    );

    await fx.primed("/px-origin/", host);
    ok(await fx.api("DELETE", `/pages/${created.page.id}`, undefined, site), "DELETE translation");
    assert.match(homeOfDe(served(await fx.visit("/px-origin/", host), "origin", "on_request")) ?? "", /\/de\/$/);
    gone(await fx.visit("/de/px-herkunft/", host), "trashed translation");
  });
});

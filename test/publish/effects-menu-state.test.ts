// Effect table, menu state (docs/publishing.md): the items of a page's ancestors in the page tree
// carry current-ancestor in menus (on a page-independent frame, each static copy resolving the
// bake's markers; on a frame rendered on request, at once) and in sidebars, and a page moved under
// another parent marks its new ancestors on the next request; PATCH /settings menu_locations
// reaches the frames reading menu.<location> of a location added or removed, and no other.
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { effects, linkTitles, ok, redirected, served, suite } from "./effects-helpers.ts";

/** The classes of the `<li>` holding the link `title` inside the element opened by `open` (its first match). */
function classesOf(html: string, open: string, title: string): string[] {
  const start = html.indexOf(open);
  assert.ok(start >= 0, `${open} is printed`);
  const part = html.slice(start);
  const found = new RegExp(
    `<li(?: class="([^"]*)")?>(?:<details[^>]*><summary>)?<a href="[^"]*"[^>]*>${title}</a>`,
  ).exec(part);
  assert.ok(found, `${title} is printed in ${open}`);
  return (found[1] ?? "").split(" ").filter((c) => c !== "");
}

describe(suite("menu-state"), () => {
  const fx = effects();

  describe("current-ancestor", () => {
    const host = "marks.localhost";
    let site: number;
    const ids: Record<string, number> = {};
    const menu = (html: string, title: string) => classesOf(html, '<nav class="menu">', title);
    const sidebar = (html: string, title: string) => classesOf(html, '<nav class="sidebar">', title);

    before(async () => {
      site = await fx.site("Marks", host);
      // Page-independent: baked once, each page's static copy resolves its own marks.
      await fx.frame("ms-static", `<nav class="menu"><!-- svc/menu {"location": "header"} /--></nav>`, site);
      // On request: the page's title, the menu and a sidebar marked at once.
      await fx.frame(
        "ms-live",
        `<h1 data-op-bind='{"text": "page.title"}'></h1><nav class="menu"><!-- svc/menu {"location": "header"} /--></nav><!-- svc/sidebar {"name": "ms-docs"} /-->`,
        site,
      );
      ids.news = await fx.page("ms-news", "ms-static", { title: "News" }, site);
      ids.company = await fx.page("ms-company", "ms-static", { title: "Company" }, site);
      ids.article = await fx.page("ms-article", "ms-static", { title: "Article", parent: ids.news }, site);
      ids.live = await fx.page("ms-live-article", "ms-live", { title: "Live article", parent: ids.news }, site);
      const items = [{ page: ids.news }, { page: ids.company }];
      ok(await fx.api("POST", "/menus", { name: "Header", location: "header", items }, site), "menu", 201);
      ok(await fx.api("PUT", "/sidebars/ms-docs", { items }, site), "sidebar", 201);
    });

    it("PATCH /pages parent of an article under News (static copy): News carries current-ancestor; moved under Company, the next request marks Company and not News", async () => {
      const html = served(await fx.primed("/ms-news/ms-article/", host), "article", "static");
      assert.deepEqual(menu(html, "News"), ["current-ancestor"]);
      assert.deepEqual(menu(html, "Company"), []);
      assert.doesNotMatch(html, /[\uE000\uE001]/, "no marker of the bake is left");
      // The parent's own page marks its item current, not as its own ancestor.
      assert.deepEqual(menu((await fx.primed("/ms-news/", host)).text, "News"), ["is-current"]);

      ok(await fx.api("PATCH", `/pages/${ids.article}`, { parent: ids.company }, site), "move");
      redirected(await fx.visit("/ms-news/ms-article/", host), "old address", "/ms-company/ms-article/");
      const moved = served(await fx.visit("/ms-company/ms-article/", host), "moved article", "static");
      assert.deepEqual(menu(moved, "News"), []);
      assert.deepEqual(menu(moved, "Company"), ["current-ancestor"]);
      assert.deepEqual(menu(served(await fx.visit("/ms-news/", host), "News", "static"), "News"), ["is-current"]);
    });

    it("PATCH /pages parent of an article on a frame rendered on request: menu and sidebar mark News current-ancestor, then Company once it moved", async () => {
      const html = served(await fx.primed("/ms-news/ms-live-article/", host), "live article", "cache");
      assert.deepEqual(menu(html, "News"), ["current-ancestor"]);
      assert.deepEqual(sidebar(html, "News"), ["current-ancestor"]);
      assert.deepEqual(sidebar(html, "Company"), []);

      ok(await fx.api("PATCH", `/pages/${ids.live}`, { parent: ids.company }, site), "move");
      const moved = served(await fx.visit("/ms-company/ms-live-article/", host), "moved", "on_request");
      assert.deepEqual(menu(moved, "News"), []);
      assert.deepEqual(menu(moved, "Company"), ["current-ancestor"]);
      assert.deepEqual(sidebar(moved, "News"), []);
      assert.deepEqual(sidebar(moved, "Company"), ["current-ancestor"]);
    });
  });

  it("PATCH /settings menu_locations: a location added prints what it reads (here the data set standing in), removed it prints nothing; frames reading other locations keep their static copy", async () => {
    const host = "locations.localhost";
    const site = await fx.site("Locations", host);
    await fx.frame("ml-social", `<nav class="social"><!-- svc/menu {"location": "social"} /--></nav>`, site);
    await fx.frame("ml-header", `<nav class="head"><!-- svc/menu {"location": "header"} /--></nav>`, site);
    await fx.page("ml-social-page", "ml-social", {}, site);
    await fx.page("ml-header-page", "ml-header", {}, site);
    ok(
      await fx.api("POST", "/menus", { name: "Head", location: "header", items: [{ url: "/", title: "Home" }] }, site),
      "menu",
      201,
    );
    ok(
      await fx.api(
        "PUT",
        "/data/social",
        { items: [{ title: "Mastodon", url: "https://example.social/@acme" }] },
        site,
      ),
      "data set",
      201,
    );
    assert.deepEqual(linkTitles((await fx.primed("/ml-social-page/", host)).text), [], "no location social yet");
    const head = (await fx.primed("/ml-header-page/", host)).text;

    const added = ok(
      await fx.api("PATCH", "/settings", { menu_locations: ["header", "footer_1", "social"] }, site),
      "add social",
    );
    assert.deepEqual(
      added.rebaked.frames
        .map((frame: { slug: string }) => frame.slug)
        .filter((slug: string) => slug.startsWith("ml-")),
      ["ml-social"],
    );
    assert.deepEqual(linkTitles(served(await fx.visit("/ml-social-page/", host), "added", "static")), ["Mastodon"]);
    assert.equal(served(await fx.visit("/ml-header-page/", host), "header page", "static"), head);

    await fx.primed("/ml-social-page/", host);
    ok(await fx.api("PATCH", "/settings", { menu_locations: ["header", "footer_1"] }, site), "remove social");
    assert.deepEqual(linkTitles(served(await fx.visit("/ml-social-page/", host), "removed", "static")), []);
    assert.equal(served(await fx.visit("/ml-header-page/", host), "header page", "static"), head);
  });
});

// Effect table, settings (name, tagline, theme, default_lang, home_page) and languages (POST, DELETE)
// (docs/publishing.md; pattern in effects-helpers.ts).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { bind, effects, gone, linkTitles, linkUrls, ok, redirected, served, suite } from "./effects-helpers.ts";

/** The names a language switcher or a language list prints. */
const switcher = (html: string) => linkTitles(/<ul class="lang-switcher">(.*?)<\/ul>/s.exec(html)?.[1] ?? "");

describe(suite("settings and languages"), () => {
  const fx = effects();

  it("settings name: frames printing site.name or settings.name print the new name", async () => {
    const path = await fx.shown(
      "sx-name",
      `<h1 ${bind("text", "site.name")}></h1><p ${bind("text", "settings.name")}></p>`,
    );
    ok(await fx.api("PATCH", "/settings", { name: "Named anew" }), "PATCH name");
    assert.match(served(await fx.visit(path), path, "static"), /<h1>Named anew<\/h1><p>Named anew<\/p>/);
  });

  it("settings tagline: frames printing settings show the new tagline", async () => {
    const path = await fx.shown("sx-tagline", `<p ${bind("text", "settings.tagline")}></p>`);
    ok(await fx.api("PATCH", "/settings", { tagline: "Fresh tagline" }), "PATCH settings");
    assert.match(served(await fx.visit(path), path, "static"), /<p>Fresh tagline<\/p>/);
  });

  it("settings home_page set, moved and cleared: / answers the named page, then 404 once cleared", async () => {
    await fx.frame("sx-home-a", "<p>Alpha home</p>");
    await fx.frame("sx-home-b", "<p>Beta home</p>");
    const a = await fx.page("sx-home-a-page", "sx-home-a");
    const b = await fx.page("sx-home-b-page", "sx-home-b");
    ok(await fx.api("PATCH", "/settings", { home_page: a }), "home_page A");
    assert.match((await fx.primed("/")).text, /Alpha home/);
    const moved = ok(await fx.api("PATCH", "/settings", { home_page: b }), "home_page B");
    assert.ok(moved.rebaked.cache.flushed.urls.urls.includes("/"), "the answer names / as flushed");
    assert.match(served(await fx.visit("/"), "/", "static"), /Beta home/);
    await fx.primed("/");
    ok(await fx.api("PATCH", "/settings", { home_page: null }), "home_page cleared");
    gone(await fx.visit("/"), "/", "no_home_page");
  });

  it("settings home_page moved: links to the home page print / (menu items, page lists, page.url), links to the former one its own path again", async () => {
    const site = await fx.site("Linked", "linked.localhost");
    const host = "linked.localhost";
    await fx.frame("sx-linked", `<a ${bind("href", "page.url")}>self</a>`, site);
    const a = await fx.page("sx-link-a", "sx-linked", { title: "Page A" }, site);
    const b = await fx.page("sx-link-b", "sx-linked", { title: "Page B" }, site);
    const list = `<!-- svc/repeat {"source": "pages"} --><a data-op-bind='{"href": "item.url", "text": "item.title"}'></a><!-- /svc/repeat -->`;
    await fx.frame("sx-nav", `<nav><!-- svc/menu {"location": "footer_3"} /--></nav><ol>${list}</ol>`, site);
    await fx.page("sx-nav-page", "sx-nav", { title: "Nav" }, site);
    ok(
      await fx.api("POST", "/menus", { name: "Links", location: "footer_3", items: [{ page: a }, { page: b }] }, site),
      "menu",
      201,
    );
    /** The path each link points to, by its text, in the menu and in the page list. */
    const links = (html: string) => {
      const [menu, listed] = html.split("<ol>");
      const of = (part: string) =>
        Object.fromEntries(
          [...part.matchAll(/<a href="([^"]*)"[^>]*>([^<]*)<\/a>/g)].map((m) => [m[2], new URL(m[1]).pathname]),
        );
      return { menu: of(menu), list: of(listed ?? "") };
    };
    ok(await fx.api("PATCH", "/settings", { home_page: a }, site), "home_page A");
    const before = links((await fx.primed("/sx-nav-page/", host)).text);
    assert.deepEqual(before.menu, { "Page A": "/", "Page B": "/sx-link-b/" });
    assert.deepEqual({ a: before.list["Page A"], b: before.list["Page B"] }, { a: "/", b: "/sx-link-b/" });
    const self = (html: string) =>
      new URL(/<a href="([^"]*)"[^>]*>self<\/a>/.exec(html)?.[1] ?? "http://none/missing").pathname;
    assert.equal(self((await fx.primed("/", host)).text), "/", "page.url of the home page is /");

    ok(await fx.api("PATCH", "/settings", { home_page: b }, site), "home_page B");
    const after = links(served(await fx.visit("/sx-nav-page/", host), "nav page", "static"));
    assert.deepEqual(after.menu, { "Page A": "/sx-link-a/", "Page B": "/" });
    assert.deepEqual({ a: after.list["Page A"], b: after.list["Page B"] }, { a: "/sx-link-a/", b: "/" });
    assert.equal(
      self(served(await fx.visit("/sx-link-a/", host), "former home")),
      "/sx-link-a/",
      "page.url of the former home page is its own address",
    );
  });

  it("settings home_page on a site with languages: links to the home page and its translation print / and /<lang>/ (menu items, sidebars, language lists), their own paths again once they are no longer home", async () => {
    const site = await fx.site("Linked homes", "linkedhomes.localhost");
    const host = "linkedhomes.localhost";
    for (const code of ["en", "de"]) ok(await fx.api("POST", "/languages", { code }, site), `language ${code}`, 201);
    const languages = `<!-- svc/repeat {"source": "languages"} --><a data-op-bind='{"href": "item.page_url", "text": "item.code"}'></a><!-- /svc/repeat -->`;
    await fx.frame("sx-lh", `<h1 ${bind("text", "page.title")}></h1><ol>${languages}</ol>`, site);
    const start = await fx.page("sx-lh-start", "sx-lh", { lang: "en", title: "Start" }, site);
    const other = await fx.page("sx-lh-other", "sx-lh", { lang: "en", title: "Other" }, site);
    const anfang = ok(
      await fx.api("POST", "/pages/language", { page: start, lang: "de", title: "Anfang" }, site),
      "translation",
      201,
    ).page;
    await fx.frame(
      "sx-lh-nav",
      `<nav><!-- svc/menu {"location": "header"} /--></nav><aside><!-- svc/sidebar {"name": "lh-docs"} /--></aside>`,
      site,
    );
    await fx.page("sx-lh-nav", "sx-lh-nav", { lang: "en", title: "Navigation" }, site);
    ok(
      await fx.api(
        "POST",
        "/menus",
        { name: "Header", location: "header", items: [{ page: anfang.id, title: "Menu link" }] },
        site,
      ),
      "menu",
      201,
    );
    const put = await fx.api("PUT", "/sidebars/lh-docs", { items: [{ page: anfang.id, label: "Sidebar link" }] }, site);
    assert.ok(
      put.status === 200 || put.status === 201,
      `PUT /sidebars/lh-docs: ${put.status} ${put.text.slice(0, 300)}`,
    );
    /** Where each link of a page points, by its text. */
    const links = (html: string) =>
      Object.fromEntries(
        [...html.matchAll(/<a href="([^"]*)"[^>]*>([^<]*)<\/a>/g)].map((m) => [m[2].trim(), new URL(m[1]).pathname]),
      );
    const nav = "/sx-lh-nav/";

    ok(await fx.api("PATCH", "/settings", { home_page: start }, site), "home_page start");
    const before = links((await fx.primed(nav, host)).text);
    assert.equal(before["Menu link"], "/de/", "menu item");
    assert.equal(before["Sidebar link"], "/de/", "sidebar item");
    assert.deepEqual(
      links((await fx.primed("/", host)).text),
      { en: "/", de: "/de/" },
      "the home page's language list",
    );

    ok(await fx.api("PATCH", "/settings", { home_page: other }, site), "home_page other");
    const after = links(served(await fx.visit(nav, host), "nav page"));
    assert.equal(after["Menu link"], `/de/${anfang.slug}/`, "menu item: the former home's translation at its own path");
    assert.equal(after["Sidebar link"], `/de/${anfang.slug}/`, "sidebar item");
    assert.deepEqual(
      links(served(await fx.visit("/sx-lh-start/", host), "former home")),
      { en: "/sx-lh-start/", de: `/de/${anfang.slug}/` },
      "the former home page's language list",
    );
  });

  it("settings theme: menus are kept per theme, so pages printing a menu print the new theme's", async () => {
    await fx.frame("sx-themed", `<nav><!-- svc/menu {"location": "footer_2"} /--></nav>`);
    await fx.page("sx-themed-page", "sx-themed");
    ok(
      await fx.api("POST", "/menus", {
        name: "Default theme footer",
        location: "footer_2",
        items: [{ url: "/somewhere", title: "Default theme link" }],
      }),
      "menu",
      201,
    );
    assert.deepEqual(linkTitles((await fx.primed("/sx-themed-page/")).text), ["Default theme link"]);
    ok(await fx.api("PATCH", "/settings", { theme: "dark" }), "PATCH theme");
    assert.deepEqual(linkTitles(served(await fx.visit("/sx-themed-page/"), "dark", "static")), []);
    await fx.primed("/sx-themed-page/");
    ok(await fx.api("PATCH", "/settings", { theme: "default" }), "PATCH theme back");
    assert.deepEqual(linkTitles(served(await fx.visit("/sx-themed-page/"), "default", "static")), [
      "Default theme link",
    ]);
  });

  it("settings default_lang: every address moves between /<path>/ and /<lang>/<path>/ (the old one answers 301)", async () => {
    const site = await fx.site("Bilingual", "langs.localhost");
    for (const code of ["en", "de"]) ok(await fx.api("POST", "/languages", { code }, site), `language ${code}`, 201);
    await fx.frame("sx-lang", "<p>Hello in English</p>", site);
    await fx.page("sx-lang-page", "sx-lang", { lang: "en" }, site);
    await fx.primed("/sx-lang-page/", "langs.localhost");
    ok(await fx.api("PATCH", "/settings", { default_lang: "de" }, site), "PATCH default_lang");
    assert.match(served(await fx.visit("/en/sx-lang-page/", "langs.localhost"), "moved", "static"), /Hello in English/);
    redirected(
      await fx.visit("/sx-lang-page/", "langs.localhost"),
      "old address answers 301 to the new one",
      "/en/sx-lang-page/",
    );
  });

  it("settings default_lang on a site without languages: what prints the site's language (site.lang, page.lang) prints the new one", async () => {
    const site = await fx.site("Monolingual", "mono.localhost");
    const host = "mono.localhost";
    await fx.frame("sx-site-lang", `<html ${bind("lang", "site.lang")}><p>site language</p></html>`, site);
    await fx.frame(
      "sx-page-lang",
      `<html ${bind("lang", "page.lang")}><h1 ${bind("text", "page.title")}></h1></html>`,
      site,
    );
    await fx.page("sx-site-lang-page", "sx-site-lang", {}, site);
    await fx.page("sx-page-lang-page", "sx-page-lang", {}, site);
    ok(await fx.api("PATCH", "/settings", { default_lang: "en" }, site), "PATCH default_lang en");
    for (const path of ["/sx-site-lang-page/", "/sx-page-lang-page/"])
      assert.match((await fx.primed(path, host)).text, /<html lang="en">/);
    ok(await fx.api("PATCH", "/settings", { default_lang: "fr" }, site), "PATCH default_lang fr");
    assert.match(served(await fx.visit("/sx-site-lang-page/", host), "site.lang", "static"), /<html lang="fr">/);
    assert.match(served(await fx.visit("/sx-page-lang-page/", host), "page.lang", "on_request"), /<html lang="fr">/);
  });

  it("settings home_page on a site with languages: / and /<lang>/ answer the new home page and its translation", async () => {
    const site = await fx.site("Homes", "homes.localhost");
    const host = "homes.localhost";
    for (const code of ["en", "de"]) ok(await fx.api("POST", "/languages", { code }, site), `language ${code}`, 201);
    await fx.frame("sx-home", `<h1 ${bind("text", "page.title")}></h1>`, site);
    const first = await fx.page("sx-first", "sx-home", { lang: "en", title: "First home" }, site);
    const second = await fx.page("sx-second", "sx-home", { lang: "en", title: "Second home" }, site);
    for (const [origin, title] of [
      [first, "Erste"],
      [second, "Zweite"],
    ] as const)
      ok(
        await fx.api("POST", "/pages/language", { page: origin, lang: "de", title }, site),
        `translation ${title}`,
        201,
      );
    ok(await fx.api("PATCH", "/settings", { home_page: first }, site), "home_page first");
    assert.match((await fx.primed("/", host)).text, /First home/);
    assert.match((await fx.primed("/de/", host)).text, /Erste/);
    ok(await fx.api("PATCH", "/settings", { home_page: second }, site), "home_page second");
    assert.match(served(await fx.visit("/", host), "/", "on_request"), /Second home/);
    assert.match(served(await fx.visit("/de/", host), "/de/", "on_request"), /Zweite/);
  });

  it("POST /languages: language switchers and language lists print a new or renamed language; made the default, addresses move (the old ones answer 301)", async () => {
    const site = await fx.site("Growing", "growing.localhost");
    const host = "growing.localhost";
    ok(await fx.api("POST", "/languages", { code: "en" }, site), "language en", 201);
    await fx.frame("sx-switch", `<h1 ${bind("text", "page.title")}></h1><!-- op/lang-switcher /-->`, site);
    await fx.frame(
      "sx-langs",
      `<ol><!-- svc/repeat {"source": "languages"} --><li><a data-op-bind='{"href": "item.url", "text": "item.name"}'></a></li><!-- /svc/repeat --></ol>`,
      site,
    );
    await fx.page("sx-switch-page", "sx-switch", { lang: "en" }, site);
    await fx.page("sx-langs-page", "sx-langs", { lang: "en" }, site);
    assert.deepEqual(switcher((await fx.primed("/sx-switch-page/", host)).text), ["English"]);
    assert.deepEqual(linkTitles((await fx.primed("/sx-langs-page/", host)).text), ["English"]);
    ok(await fx.api("POST", "/languages", { code: "fr" }, site), "language fr", 201);
    assert.deepEqual(switcher(served(await fx.visit("/sx-switch-page/", host), "switcher", "on_request")), [
      "English",
      "Français",
    ]);
    assert.deepEqual(linkTitles(served(await fx.visit("/sx-langs-page/", host), "list", "static")), [
      "English",
      "Français",
    ]);

    for (const path of ["/sx-switch-page/", "/sx-langs-page/"]) await fx.primed(path, host);
    ok(await fx.api("POST", "/languages", { code: "fr", name: "French" }, site), "fr renamed");
    assert.deepEqual(switcher(served(await fx.visit("/sx-switch-page/", host), "switcher", "on_request")), [
      "English",
      "French",
    ]);
    assert.deepEqual(linkTitles(served(await fx.visit("/sx-langs-page/", host), "list", "static")), [
      "English",
      "French",
    ]);

    for (const path of ["/sx-switch-page/", "/sx-langs-page/"]) await fx.primed(path, host);
    ok(await fx.api("POST", "/languages", { code: "fr", default: true }, site), "fr default");
    // Old addresses answer 301 to the new ones (docs/seo.md, "Redirects").
    for (const path of ["/sx-switch-page/", "/sx-langs-page/"])
      redirected(await fx.visit(path, host), `old ${path}`, `/en${path}`);
    assert.deepEqual(switcher(served(await fx.visit("/en/sx-switch-page/", host), "moved switcher", "on_request")), [
      "English",
      "French",
    ]);
    const urls = linkUrls(served(await fx.visit("/en/sx-langs-page/", host), "moved list", "static"));
    assert.match(urls[0], /growing\.localhost[^/]*\/en\/$/);
    assert.match(urls[1], /growing\.localhost[^/]*\/$/);
  });

  it("DELETE /languages/{code}: its pages answer 404 and language switchers and lists drop it", async () => {
    const site = await fx.site("Shrinking", "shrinking.localhost");
    const host = "shrinking.localhost";
    for (const code of ["en", "de"]) ok(await fx.api("POST", "/languages", { code }, site), `language ${code}`, 201);
    await fx.frame("sx-switch", `<!-- op/lang-switcher /-->`, site);
    await fx.frame(
      "sx-langs",
      `<ol><!-- svc/repeat {"source": "languages"} --><li><a data-op-bind='{"href": "item.url", "text": "item.name"}'></a></li><!-- /svc/repeat --></ol>`,
      site,
    );
    const en = await fx.page("sx-bye", "sx-switch", { lang: "en" }, site);
    ok(
      await fx.api("POST", "/pages/language", { page: en, lang: "de", slug: "sx-tschuess" }, site),
      "translation",
      201,
    );
    await fx.page("sx-langs-page", "sx-langs", { lang: "en" }, site);
    assert.deepEqual(switcher((await fx.primed("/sx-bye/", host)).text), ["English", "Deutsch"]);
    await fx.primed("/de/sx-tschuess/", host);
    await fx.primed("/sx-langs-page/", host);
    ok(await fx.api("DELETE", "/languages/de", undefined, site), "DELETE de");
    gone(await fx.visit("/de/sx-tschuess/", host), "German page");
    assert.deepEqual(switcher(served(await fx.visit("/sx-bye/", host), "switcher", "on_request")), ["English"]);
    assert.deepEqual(linkTitles(served(await fx.visit("/sx-langs-page/", host), "list", "static")), ["English"]);
  });
});

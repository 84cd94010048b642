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
    const path = await fx.shown("sx-name", `<h1 ${bind("text", "site.name")}></h1><p ${bind("text", "settings.name")}></p>`);
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

  it("settings theme: menus are kept per theme, so pages printing a menu print the new theme's", async () => {
    await fx.frame("sx-themed", `<nav><!-- svc/menu {"location": "footer_2"} /--></nav>`);
    await fx.page("sx-themed-page", "sx-themed");
    ok(await fx.api("POST", "/menus", { name: "Default theme footer", location: "footer_2", items: [{ url: "/somewhere", title: "Default theme link" }] }), "menu", 201);
    assert.deepEqual(linkTitles((await fx.primed("/sx-themed-page/")).text), ["Default theme link"]);
    ok(await fx.api("PATCH", "/settings", { theme: "dark" }), "PATCH theme");
    assert.deepEqual(linkTitles(served(await fx.visit("/sx-themed-page/"), "dark", "static")), []);
    await fx.primed("/sx-themed-page/");
    ok(await fx.api("PATCH", "/settings", { theme: "default" }), "PATCH theme back");
    assert.deepEqual(linkTitles(served(await fx.visit("/sx-themed-page/"), "default", "static")), ["Default theme link"]);
  });

  it("settings default_lang: every address moves between /<path>/ and /<lang>/<path>/ (the old one answers 301)", async () => {
    const site = await fx.site("Bilingual", "langs.localhost");
    for (const code of ["en", "de"]) ok(await fx.api("POST", "/languages", { code }, site), `language ${code}`, 201);
    await fx.frame("sx-lang", "<p>Hello in English</p>", site);
    await fx.page("sx-lang-page", "sx-lang", { lang: "en" }, site);
    await fx.primed("/sx-lang-page/", "langs.localhost");
    ok(await fx.api("PATCH", "/settings", { default_lang: "de" }, site), "PATCH default_lang");
    assert.match(served(await fx.visit("/en/sx-lang-page/", "langs.localhost"), "moved", "static"), /Hello in English/);
    redirected(await fx.visit("/sx-lang-page/", "langs.localhost"), "old address answers 301 to the new one (issue 19)", "/en/sx-lang-page/");
  });

  it("settings default_lang on a site without languages: what prints the site's language (site.lang, page.lang) prints the new one", async () => {
    const site = await fx.site("Monolingual", "mono.localhost");
    const host = "mono.localhost";
    await fx.frame("sx-site-lang", `<html ${bind("lang", "site.lang")}><p>site language</p></html>`, site);
    await fx.frame("sx-page-lang", `<html ${bind("lang", "page.lang")}><h1 ${bind("text", "page.title")}></h1></html>`, site);
    await fx.page("sx-site-lang-page", "sx-site-lang", {}, site);
    await fx.page("sx-page-lang-page", "sx-page-lang", {}, site);
    ok(await fx.api("PATCH", "/settings", { default_lang: "en" }, site), "PATCH default_lang en");
    for (const path of ["/sx-site-lang-page/", "/sx-page-lang-page/"]) assert.match((await fx.primed(path, host)).text, /<html lang="en">/);
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
    for (const [origin, title] of [[first, "Erste"], [second, "Zweite"]] as const) ok(await fx.api("POST", "/pages/language", { page: origin, lang: "de", title }, site), `translation ${title}`, 201);
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
    await fx.frame("sx-langs", `<ol><!-- svc/repeat {"source": "languages"} --><li><a data-op-bind='{"href": "item.url", "text": "item.name"}'></a></li><!-- /svc/repeat --></ol>`, site);
    await fx.page("sx-switch-page", "sx-switch", { lang: "en" }, site);
    await fx.page("sx-langs-page", "sx-langs", { lang: "en" }, site);
    assert.deepEqual(switcher((await fx.primed("/sx-switch-page/", host)).text), ["English"]);
    assert.deepEqual(linkTitles((await fx.primed("/sx-langs-page/", host)).text), ["English"]);
    ok(await fx.api("POST", "/languages", { code: "fr" }, site), "language fr", 201);
    assert.deepEqual(switcher(served(await fx.visit("/sx-switch-page/", host), "switcher", "on_request")), ["English", "Français"]);
    assert.deepEqual(linkTitles(served(await fx.visit("/sx-langs-page/", host), "list", "static")), ["English", "Français"]);

    for (const path of ["/sx-switch-page/", "/sx-langs-page/"]) await fx.primed(path, host);
    ok(await fx.api("POST", "/languages", { code: "fr", name: "French" }, site), "fr renamed");
    assert.deepEqual(switcher(served(await fx.visit("/sx-switch-page/", host), "switcher", "on_request")), ["English", "French"]);
    assert.deepEqual(linkTitles(served(await fx.visit("/sx-langs-page/", host), "list", "static")), ["English", "French"]);

    for (const path of ["/sx-switch-page/", "/sx-langs-page/"]) await fx.primed(path, host);
    ok(await fx.api("POST", "/languages", { code: "fr", default: true }, site), "fr default");
    // Old addresses answer 301 to the new ones (issue 19).
    for (const path of ["/sx-switch-page/", "/sx-langs-page/"]) redirected(await fx.visit(path, host), `old ${path}`, `/en${path}`);
    assert.deepEqual(switcher(served(await fx.visit("/en/sx-switch-page/", host), "moved switcher", "on_request")), ["English", "French"]);
    const urls = linkUrls(served(await fx.visit("/en/sx-langs-page/", host), "moved list", "static"));
    assert.match(urls[0], /growing\.localhost[^/]*\/en\/$/);
    assert.match(urls[1], /growing\.localhost[^/]*\/$/);
  });

  it("DELETE /languages/{code}: its pages answer 404 and language switchers and lists drop it", async () => {
    const site = await fx.site("Shrinking", "shrinking.localhost");
    const host = "shrinking.localhost";
    for (const code of ["en", "de"]) ok(await fx.api("POST", "/languages", { code }, site), `language ${code}`, 201);
    await fx.frame("sx-switch", `<!-- op/lang-switcher /-->`, site);
    await fx.frame("sx-langs", `<ol><!-- svc/repeat {"source": "languages"} --><li><a data-op-bind='{"href": "item.url", "text": "item.name"}'></a></li><!-- /svc/repeat --></ol>`, site);
    const en = await fx.page("sx-bye", "sx-switch", { lang: "en" }, site);
    ok(await fx.api("POST", "/pages/language", { page: en, lang: "de", slug: "sx-tschuess" }, site), "translation", 201);
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

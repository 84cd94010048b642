// End to end in a real browser: the real server on a socket, a two-language site built through
// the API, opened in headless Chromium (Debian's package, driven by playwright-core).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { launchChromium, startBrowserSite, withBrowser, type BrowserSite } from "../support/browser.ts";

describe("a two-language site in a real browser", withBrowser, () => {
  let site: BrowserSite;
  let browser: Browser;

  const api = (method: string, path: string, body?: unknown, type?: string) => site.api(method, path, body, type);

  before(async () => {
    site = await startBrowserSite();

    await api("POST", "/languages", { code: "en", name: "English" });
    await api("POST", "/languages", { code: "de", name: "Deutsch" });
    await api("PUT", "/data/features", { items: [{ name: "Fast" }, { name: "Safe" }] });
    await api("PUT", "/data/features", { lang: "de", items: [{ name: "Schnell" }, { name: "Sicher" }] });

    const home = (await api("POST", "/pages", { title: "Home", slug: "home", lang: "en" })).page;
    const about = (
      await api("POST", "/pages", { title: "About", slug: "about", lang: "en", content: "<p>We build sites.</p>" })
    ).page;
    const start = (await api("POST", "/pages/language", { page: home.id, lang: "de", title: "Start", slug: "start" }))
      .page;
    const ueber = (
      await api("POST", "/pages/language", { page: about.id, lang: "de", title: "Über uns", slug: "ueber-uns" })
    ).page;
    await api("PATCH", "/settings", { name: "Acme", home_page: home.id });

    await api("POST", "/frames", {
      slug: "site-header",
      html: `<header><a class="brand" href="/" data-op-bind='{"text": "site.name"}'>x</a><nav><!-- svc/menu {"location": "header", "class": "main-nav"} /--></nav><div class="langs"><!-- op/lang-switcher /--></div></header>`,
    });
    await api("POST", "/frames", {
      slug: "page",
      html: `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title data-op-bind='{"text": "page.title"}'>t</title></head>
<body><!-- svc/frame {"name": "site-header"} /-->
<main><h1 data-op-bind='{"text": "page.title"}'>h</h1><div class="content" data-op-bind='{"html": "page.content"}'></div>
<ul class="features"><!-- svc/repeat {"source": "features"} --><li data-op-bind='{"text": "item.name"}'>f</li><!-- /svc/repeat --></ul></main>
</body></html>`,
    });
    for (const p of [home, about, start, ueber]) await api("POST", "/frames/page/assign", { page: p.id });

    await api("POST", "/menus", {
      name: "Main",
      location: "header",
      items: [{ page: home.id, title: "Home" }, { page: about.id }],
    });
    await api("POST", "/menus", {
      name: "Haupt",
      location: "header",
      lang: "de",
      items: [{ page: start.id }, { page: ueber.id }],
    });

    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await site?.close();
  });

  it("shows the home page, follows a menu link, switches language, and shows each language's menu and data", async () => {
    const page = await browser.newPage();
    await page.goto(`${site.base}/`);
    assert.equal(await page.textContent("h1"), "Home");
    assert.equal(await page.textContent("a.brand"), "Acme");
    assert.deepEqual(await page.$$eval("ul.features li", (lis) => lis.map((li) => li.textContent)), ["Fast", "Safe"]);
    assert.deepEqual(await page.$$eval("nav a", (as) => as.map((a) => a.textContent)), ["Home", "About"]);

    await Promise.all([page.waitForURL(`${site.base}/about/`), page.click("nav >> text=About")]);
    assert.equal(await page.textContent("h1"), "About");
    assert.equal(await page.title(), "About");
    assert.equal(await page.textContent(".content p"), "We build sites.");

    await Promise.all([page.waitForURL(`${site.base}/de/ueber-uns/`), page.click(".langs >> text=Deutsch")]);
    assert.equal(await page.textContent("h1"), "Über uns");
    assert.deepEqual(await page.$$eval("nav a", (as) => as.map((a) => a.textContent)), ["Start", "Über uns"]);
    assert.deepEqual(await page.$$eval("ul.features li", (lis) => lis.map((li) => li.textContent)), [
      "Schnell",
      "Sicher",
    ]);
    await page.screenshot({ path: join(tmpdir(), "svc-e2e-ueber-uns.png"), fullPage: true });

    await Promise.all([page.waitForURL(`${site.base}/about/`), page.click(".langs >> text=English")]);
    assert.equal(await page.textContent("h1"), "About");
  });

  it("a menu change through the API shows on the live page at once", async () => {
    const menus = await api("GET", "/menus");
    const main = menus.menus.find((m: any) => m.name === "Main");
    await api("POST", `/menus/${main.id}/items`, { item: { url: "https://example.com/docs", title: "Docs" } });
    const page = await browser.newPage();
    await page.goto(`${site.base}/about/`);
    assert.deepEqual(await page.$$eval("nav a", (as) => as.map((a) => a.textContent)), ["Home", "About", "Docs"]);
  });
});

// End to end in a real browser (docs/seo.md): a bilingual site (en the default, de) whose frame holds
// `<!-- svc/seo /-->` in its <head>, a page and its German translation, and the site's SEO
// defaults. Headless Chromium (Debian's package, driven by playwright-core) opens each page and
// reads `document.head` as a browser built it: the title, the description, the canonical link,
// the hreflang alternates with x-default, Open Graph, and the JSON-LD parsed from the script's
// text. The two languages point at each other. A page titled `</title><script>…</script>` shows
// that text as its title and runs no script.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { launchChromium, startBrowserSite, withBrowser, type BrowserSite } from "../support/browser.ts";

/** What Chromium's document.head holds, read in the page. */
interface Head {
  title: string;
  description: string | null;
  canonical: string | null;
  canonicals: number;
  alternates: Record<string, string>;
  ogTitle: string | null;
  ogUrl: string | null;
  ogType: string | null;
  twitterSite: string | null;
  jsonLd: any[];
  titles: number;
  scripts: string[];
  pwned: unknown;
  h1: string | null;
}

const HOSTILE = "</title><script>window.__pwned=1</script>";

/**
 * Run in the page: what document.head holds (getAttribute: the values as written). A string, not
 * a function: tsx names the functions it compiles with a helper the page does not have.
 */
const READ_HEAD = `(() => {
  const head = document.head;
  const attr = (selector, name) => head.querySelector(selector)?.getAttribute(name) ?? null;
  const alternates = {};
  for (const link of head.querySelectorAll("link[rel=alternate][hreflang]")) alternates[link.getAttribute("hreflang")] = link.getAttribute("href");
  return {
    title: document.title,
    description: attr('meta[name="description"]', "content"),
    canonical: attr('link[rel="canonical"]', "href"),
    canonicals: head.querySelectorAll('link[rel="canonical"]').length,
    alternates,
    ogTitle: attr('meta[property="og:title"]', "content"),
    ogUrl: attr('meta[property="og:url"]', "content"),
    ogType: attr('meta[property="og:type"]', "content"),
    twitterSite: attr('meta[name="twitter:site"]', "content"),
    jsonLd: [...head.querySelectorAll('script[type="application/ld+json"]')].map((script) => JSON.parse(script.textContent ?? "")),
    titles: document.querySelectorAll("title").length,
    scripts: [...document.querySelectorAll("script")].map((script) => script.getAttribute("type") ?? ""),
    pwned: window.__pwned,
    h1: document.querySelector("h1")?.textContent ?? null,
  };
})()`;

describe("svc/seo head tags in a real browser", withBrowser, () => {
  let site: BrowserSite;
  let browser: Browser;

  const api = (method: string, path: string, body?: unknown) => site.api(method, path, body);

  before(async () => {
    site = await startBrowserSite();
    browser = await launchChromium();
    // The site's SEO defaults, and the frame both pages stand on.
    for (const code of ["en", "de"]) await api("POST", "/languages", { code });
    await api("PATCH", "/seo", {
      title_template: "%s | Acme",
      description: "Tools for every workshop",
      twitter_site: "acme",
    });
    await api("POST", "/frames", {
      slug: "seo-head",
      html: `<!DOCTYPE html><html><head><meta charset="utf-8"><!-- svc/seo /--></head><body><h1 data-op-bind='{"text": "page.title"}'></h1></body></html>`,
    });
  });

  after(async () => {
    await browser?.close();
    await site?.close();
  });

  /** Opens `path` in a new tab and reads its head there. */
  async function headOf(path: string): Promise<Head> {
    const page = await browser.newPage();
    try {
      const answer = await page.goto(`${site.base}${path}`);
      assert.equal(answer?.status(), 200, path);
      return (await page.evaluate(READ_HEAD)) as Head;
    } finally {
      await page.close();
    }
  }

  it("a page and its German translation: title, description, canonical, hreflang with x-default, og:title, og:url and JSON-LD point at each other", async () => {
    const en = (
      await api("POST", "/pages", {
        title: "Products",
        slug: "products",
        status: "publish",
        frame: "seo-head",
        lang: "en",
      })
    ).page;
    const de = (await api("POST", "/pages/language", { page: en.id, lang: "de", title: "Produkte", slug: "produkte" }))
      .page;
    await api("PATCH", `/seo/pages/${de.id}`, { description: "Werkzeug für jede Werkstatt" });
    const origin = new URL(site.base).origin;
    const enUrl = `${origin}/products/`;
    const deUrl = `${origin}/de/produkte/`;
    assert.equal(en.url, enUrl, "the page record's address");
    assert.equal(de.url, deUrl, "the translation record's address");

    const english = await headOf("/products/");
    assert.equal(english.title, "Products | Acme");
    assert.equal(english.titles, 1);
    assert.equal(english.description, "Tools for every workshop");
    assert.equal(english.canonical, enUrl);
    assert.equal(english.canonicals, 1);
    assert.deepEqual(english.alternates, { en: enUrl, de: deUrl, "x-default": enUrl });
    assert.equal(english.ogTitle, english.title);
    assert.equal(english.ogUrl, enUrl);
    assert.equal(english.ogType, "article");
    assert.equal(english.twitterSite, "@acme");
    assert.deepEqual(english.jsonLd, [
      {
        "@context": "https://schema.org",
        "@type": "BreadcrumbList",
        itemListElement: [{ "@type": "ListItem", position: 1, name: "Products", item: enUrl }],
      },
    ]);

    const german = await headOf("/de/produkte/");
    assert.equal(german.title, "Produkte | Acme");
    assert.equal(german.description, "Werkzeug für jede Werkstatt", "the translation's own description");
    assert.equal(german.canonical, deUrl);
    assert.deepEqual(german.alternates, { en: enUrl, de: deUrl, "x-default": enUrl });
    assert.equal(german.ogTitle, german.title);
    assert.equal(german.ogUrl, deUrl);
    assert.deepEqual(german.jsonLd, [
      {
        "@context": "https://schema.org",
        "@type": "BreadcrumbList",
        itemListElement: [{ "@type": "ListItem", position: 1, name: "Produkte", item: deUrl }],
      },
    ]);

    // Each names the other as its alternate, and the other names it back.
    assert.equal(english.alternates.de, german.canonical);
    assert.equal(german.alternates.en, english.canonical);
  });

  it("a page titled </title><script>…</script> shows that text as its title, heading and JSON-LD name, and runs no script", async () => {
    await api("POST", "/pages", { title: HOSTILE, slug: "hostile", status: "publish", frame: "seo-head", lang: "en" });
    const head = await headOf("/hostile/");
    assert.equal(head.title, `${HOSTILE} | Acme`);
    assert.equal(head.titles, 1, "one <title>: the text did not close it");
    assert.equal(head.ogTitle, head.title);
    assert.equal(head.h1, HOSTILE);
    assert.equal(head.jsonLd[0].itemListElement[0].name, HOSTILE);
    assert.deepEqual(head.scripts, ["application/ld+json"], "the only script element is the JSON-LD");
    assert.equal(head.pwned, undefined);
  });
});

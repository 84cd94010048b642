// End to end in a real browser (docs/sidebars.md): a docs section of ten pages on a bilingual site
// (en the default, de; every page but one translated), a sidebar of two sections printed by
// svc/sidebar with svc/pager under the content. Headless Chromium (Debian's package, driven by
// playwright-core) opens a page of the second section and reads the document as the browser built
// it: that section's <details> open and the other's not, one link with aria-current="page" (the
// page's own), the pager's rel=prev and rel=next links its neighbours. In German the untranslated
// page is in neither. With script disabled, a click on a <summary> opens and closes its section.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { launchChromium, startBrowserSite, withBrowser, type BrowserSite } from "../support/browser.ts";

/** The docs: two sections of five pages; `de` null for the page without a German translation. */
const SECTIONS = [
  {
    label: "Getting started",
    pages: [
      { slug: "introduction", title: "Introduction", de: { slug: "einfuehrung", title: "Einführung" } },
      { slug: "installation", title: "Installation", de: { slug: "installieren", title: "Installieren" } },
      { slug: "configuration", title: "Configuration", de: { slug: "konfiguration", title: "Konfiguration" } },
      { slug: "first-site", title: "Your first site", de: { slug: "erste-website", title: "Die erste Website" } },
      { slug: "deployment", title: "Deployment", de: { slug: "bereitstellung", title: "Bereitstellung" } },
    ],
  },
  {
    label: "Guides",
    pages: [
      { slug: "frames-guide", title: "Frames", de: { slug: "rahmen", title: "Rahmen" } },
      { slug: "menus-guide", title: "Menus", de: { slug: "menues", title: "Menüs" } },
      { slug: "media-guide", title: "Media files", de: null },
      { slug: "styles-guide", title: "Stylesheets", de: { slug: "stile", title: "Stile" } },
      { slug: "seo-guide", title: "Search engines", de: { slug: "suchmaschinen", title: "Suchmaschinen" } },
    ],
  },
];

/** What the browser's document holds of the sidebar and the pager. */
interface Shown {
  sections: Array<{ summary: string; open: boolean }>;
  links: Array<{ text: string; href: string }>;
  current: Array<{ text: string; href: string; value: string }>;
  prev: { text: string; href: string } | null;
  next: { text: string; href: string } | null;
  location: string;
  scripts: number;
  h1: string | null;
}

/**
 * Run in the page. A string, not a function: tsx names the functions it compiles with a helper
 * the page does not have. `a.href` is the address as the browser resolved it.
 */
const READ = `(() => {
  const link = (a) => (a ? { text: a.textContent, href: a.href } : null);
  return {
    sections: [...document.querySelectorAll("nav.sidebar details")].map((d) => ({ summary: d.querySelector("summary").textContent, open: d.open })),
    links: [...document.querySelectorAll("nav.sidebar a")].map(link),
    current: [...document.querySelectorAll("[aria-current]")].map((a) => ({ ...link(a), value: a.getAttribute("aria-current") })),
    prev: link(document.querySelector('a[rel="prev"]')),
    next: link(document.querySelector('a[rel="next"]')),
    location: location.href,
    scripts: document.querySelectorAll("script").length,
    h1: document.querySelector("h1")?.textContent ?? null,
  };
})()`;

describe("the documentation sidebar in a real browser", withBrowser, () => {
  let site: BrowserSite;
  let browser: Browser;
  /** The absolute address of each page by its slug (English and German). */
  const urls = new Map<string, string>();

  const api = (method: string, path: string, body?: unknown) => site.api(method, path, body);

  before(async () => {
    site = await startBrowserSite();
    for (const code of ["en", "de"]) await api("POST", "/languages", { code });
    await api("POST", "/frames", {
      slug: "docs",
      html: `<!DOCTYPE html><html><head><meta charset="utf-8"><title data-op-bind='{"text": "page.title"}'>t</title></head>
<body><aside><!-- svc/sidebar {"name": "docs"} /--></aside>
<main><h1 data-op-bind='{"text": "page.title"}'>h</h1><div data-op-bind='{"html": "page.content"}'></div><!-- svc/pager {"name": "docs"} /--></main>
</body></html>`,
    });
    const items = [];
    for (const section of SECTIONS) {
      const ids = [];
      for (const doc of section.pages) {
        const en = (
          await api("POST", "/pages", {
            title: doc.title,
            slug: doc.slug,
            status: "publish",
            frame: "docs",
            lang: "en",
            content: `<p>${doc.title}</p>`,
          })
        ).page;
        urls.set(doc.slug, en.url);
        ids.push(en.id);
        if (doc.de) {
          const de = (
            await api("POST", "/pages/language", { page: en.id, lang: "de", title: doc.de.title, slug: doc.de.slug })
          ).page;
          urls.set(doc.de.slug, de.url);
        }
      }
      items.push({ label: section.label, items: ids.map((page) => ({ page })) });
    }
    // One tree, the default language's: German maps it to the translations.
    await api("PUT", "/sidebars/docs", { items });
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await site?.close();
  });

  async function open(page: Page, path: string): Promise<Shown> {
    const answer = await page.goto(`${site.base}${path}`);
    assert.equal(answer?.status(), 200, path);
    return (await page.evaluate(READ)) as Shown;
  }

  it("a page of the second section: its section open and the other closed, one aria-current link (its own), the pager's neighbours", async () => {
    const page = await browser.newPage();
    try {
      const shown = await open(page, "/menus-guide/");
      assert.equal(shown.h1, "Menus");
      assert.deepEqual(shown.sections, [
        { summary: "Getting started", open: false },
        { summary: "Guides", open: true },
      ]);
      assert.equal(shown.links.length, 10, "every page in the sidebar");
      assert.deepEqual(
        shown.links.map((link) => link.text),
        SECTIONS.flatMap((section) => section.pages.map((doc) => doc.title)),
        "in the tree's order",
      );
      assert.equal(shown.current.length, 1, JSON.stringify(shown.current));
      assert.deepEqual(shown.current[0], { text: "Menus", href: urls.get("menus-guide"), value: "page" });
      assert.equal(shown.current[0].href, shown.location, "the current link is the page's own address");
      assert.deepEqual(shown.prev, { text: "Frames", href: urls.get("frames-guide") });
      assert.deepEqual(shown.next, { text: "Media files", href: urls.get("media-guide") });
      // A link inside the collapsed section is not shown; one in the open section is.
      assert.equal(await page.locator("nav.sidebar a", { hasText: "Installation" }).isVisible(), false);
      assert.equal(await page.locator("nav.sidebar a", { hasText: "Stylesheets" }).isVisible(), true);

      // The first page of a section crosses into the section before it in the pager.
      const first = await open(page, "/frames-guide/");
      assert.deepEqual(first.prev, { text: "Deployment", href: urls.get("deployment") });
      assert.deepEqual(first.next, { text: "Menus", href: urls.get("menus-guide") });
      // The first and last pages of the sidebar have one neighbour only.
      const start = await open(page, "/introduction/");
      assert.deepEqual(start.sections, [
        { summary: "Getting started", open: true },
        { summary: "Guides", open: false },
      ]);
      assert.equal(start.prev, null);
      assert.deepEqual(start.next, { text: "Installation", href: urls.get("installation") });
      const end = await open(page, "/seo-guide/");
      assert.deepEqual(end.prev, { text: "Stylesheets", href: urls.get("styles-guide") });
      assert.equal(end.next, null);
    } finally {
      await page.close();
    }
  });

  it("the German version: the untranslated page is in neither the sidebar nor the pager", async () => {
    const page = await browser.newPage();
    try {
      const shown = await open(page, "/de/menues/");
      assert.equal(shown.h1, "Menüs");
      assert.deepEqual(
        shown.sections,
        [
          { summary: "Getting started", open: false },
          { summary: "Guides", open: true },
        ],
        "sections kept, labels as written",
      );
      const german = SECTIONS.flatMap((section) => section.pages.flatMap((doc) => (doc.de ? [doc.de] : [])));
      assert.deepEqual(
        shown.links.map((link) => link.text),
        german.map((doc) => doc.title),
      );
      assert.deepEqual(
        shown.links.map((link) => link.href),
        german.map((doc) => urls.get(doc.slug)),
        "every link to a German page",
      );
      assert.ok(
        !shown.links.some((link) => link.href === urls.get("media-guide")),
        "no English page in the German sidebar",
      );
      assert.equal(shown.current.length, 1, JSON.stringify(shown.current));
      assert.deepEqual(shown.current[0], { text: "Menüs", href: urls.get("menues"), value: "page" });
      assert.equal(shown.current[0].href, shown.location);
      assert.deepEqual(shown.prev, { text: "Rahmen", href: urls.get("rahmen") });
      assert.deepEqual(shown.next, { text: "Stile", href: urls.get("stile") }, "the pager skips the untranslated page");
      const after = await open(page, "/de/stile/");
      assert.deepEqual(after.prev, { text: "Menüs", href: urls.get("menues") });
    } finally {
      await page.close();
    }
  });

  it("with script disabled, a click on a <summary> opens its section, and another click closes it", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      const answer = await page.goto(`${site.base}/menus-guide/`);
      assert.equal(answer?.status(), 200);
      assert.equal(await page.locator("script").count(), 0, "the page holds no script");
      const started = page.locator("nav.sidebar details", {
        has: page.locator("summary", { hasText: "Getting started" }),
      });
      const guides = page.locator("nav.sidebar details", { has: page.locator("summary", { hasText: "Guides" }) });
      const install = page.locator("nav.sidebar a", { hasText: "Installation" });
      assert.equal(await started.getAttribute("open"), null);
      assert.equal(await install.isVisible(), false);

      await started.locator("summary").click();
      assert.equal(await started.getAttribute("open"), "", "opened");
      assert.equal(await install.isVisible(), true);
      assert.equal(await guides.getAttribute("open"), "", "the other section stays as it was");

      await started.locator("summary").click();
      assert.equal(await started.getAttribute("open"), null, "closed again");
      assert.equal(await install.isVisible(), false);

      await guides.locator("summary").click();
      assert.equal(await guides.getAttribute("open"), null, "the current page's section closes too");
      assert.equal(await page.locator("nav.sidebar a[aria-current]").isVisible(), false);
    } finally {
      await context.close();
    }
  });
});

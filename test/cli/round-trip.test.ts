// The folder holds a whole site: `svc pull` a bilingual site using every kind (languages,
// translations, strings, sidebars, redirects, SEO defaults per language, two themes' stylesheets,
// media with alt texts, Markdown pages, menus in locations of the site's own, data sets), `svc
// push` the folder into an empty site, and every public address of the new site answers the same
// status and bytes as the old one's, apart from its domain (docs/cli.md, "The folder") and what
// the service stamps on a write, which no folder carries: the sitemap's `lastmod` and a feed's
// `updated` (when the new site's pages were written) and a feed's Atom ids (made of a page's id and
// creation date, so a reader never takes a new site's entry for an old one). The sitemap's entries
// are compared as a set: it lists pages in the order they were made, and a push makes parents first.

import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { serve, tempDir, type Served } from "./harness.ts";
import { must, newSite, publicPage, svcSite, upload } from "./folder-helpers.ts";

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="6"><rect width="8" height="6"/></svg>';

const LAYOUT = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><!-- svc/seo /--><!-- svc/styles {"name": "main"} /--></head>
<body>
<!-- svc/menu {"location": "header"} /--><!-- svc/menu {"location": "social"} /--><!-- op/lang-switcher /-->
<h1 data-op-bind='{"text": "page.title"}'></h1>
<div data-op-bind='{"html": "page.content"}'></div>
<p data-op-bind='{"text": "t.nav.more"}'></p>
<!-- svc/sidebar {"name": "guide"} /-->
<ul><!-- svc/repeat {"source": "data.team"} --><li data-op-bind='{"text": "item.name"}'></li><!-- /svc/repeat --></ul>
<!-- svc/image {"media": "team-photo"} /-->
</body></html>`;

const NEWS = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><!-- svc/seo /--></head>
<body>
<!-- svc/repeat {"source": "pages.children", "order_by": "-date", "page_size": 1} -->
<a data-op-bind='{"href": "item.url", "text": "item.title"}'></a>
<!-- /svc/repeat -->
<!-- svc/pagination /-->
</body></html>`;

/** A public answer as compared: the domain made the target's, the service's stamps blanked. */
function comparable(text: string, from: string, to: string): string {
  return text
    .replaceAll(from, to)
    .replace(/<lastmod>[^<]*<\/lastmod>/g, "<lastmod/>")
    .replace(/<updated>[^<]*<\/updated>/g, "<updated/>")
    .replace(/<id>tag:[^<]*<\/id>/g, "<id/>")
    .replace(/(?:<url>.*<\/url>\n)+/g, (entries) => `${entries.split("\n").filter(Boolean).sort().join("\n")}\n`);
}

async function seed(t: Served, site: number): Promise<void> {
  const call = (method: string, path: string, body?: unknown) => must(t, site, method, path, body);
  await call("POST", "/languages", { code: "en" });
  await call("POST", "/languages", { code: "de" });
  await call("PATCH", "/settings", { theme: "studio", menu_locations: ["header", "social"] });
  await call("PUT", "/strings", { lang: "en", strings: { "nav.more": "Read more" } });
  await call("PUT", "/strings", { lang: "de", strings: { "nav.more": "Weiterlesen" } });
  await upload(t, site, "team-photo.svg", "image/svg+xml", SVG);
  await call("PATCH", "/media/team-photo", { alt: { en: "The team", de: "Das Team" } });
  await call("PUT", "/styles/main", { css: "body { color: #222 }" });
  await call("PUT", "/styles/main", { css: "body { color: #888 }", theme: "classic" });
  await call("POST", "/frames", { slug: "layout", html: LAYOUT });
  await call("POST", "/frames", { slug: "news", html: NEWS });
  await call("POST", "/pages", { title: "Home", slug: "home", frame: "layout", content: "<p>Welcome</p>" });
  const about = await call("POST", "/pages", { title: "About", slug: "about", frame: "layout", content: "<p>Us</p>" });
  await call("POST", "/pages/language", { page: about.page.id, lang: "de", title: "Über uns", slug: "ueber-uns" });
  await call("POST", "/pages", { title: "Docs", slug: "docs", frame: "layout", content: "<h2>Docs</h2>" });
  await call("POST", "/pages", { title: "Intro", slug: "intro", parent: "/docs", frame: "layout" });
  await call("POST", "/pages", { title: "Doku", slug: "doku", lang: "de", frame: "layout" });
  await call("POST", "/pages", {
    title: "News",
    slug: "news",
    frame: "news",
    feed: true,
    date: "2025-01-01T00:00:00Z",
  });
  for (const [slug, day] of [
    ["first", "02"],
    ["second", "03"],
  ])
    await call("POST", "/pages", {
      title: `Post ${slug}`,
      slug,
      parent: "/news",
      frame: "layout",
      content_format: "markdown",
      content: `# ${slug}\n\n![](media:team-photo) See [about](page:/about).\n`,
      date: `2025-01-${day}T09:00:00Z`,
      tags: ["news"],
    });
  await call("PATCH", "/settings", { home_page: "/home" });
  await call("POST", "/menus", { name: "Main", location: "header", items: [{ page: "/about" }, { page: "/news" }] });
  await call("POST", "/menus", { name: "Haupt", slug: "haupt", items: [{ page: "/de/ueber-uns" }] });
  await call("PUT", "/menus/haupt/location", { location: "header", lang: "de" });
  await call("POST", "/menus", {
    name: "Social",
    location: "social",
    items: [{ url: "https://example.org/", title: "Us" }],
  });
  await call("PUT", "/sidebars/guide", { items: [{ page: "/docs" }, { page: "/docs/intro", label: "Start" }] });
  await call("PUT", "/sidebars/guide", { lang: "de", items: [{ page: "/de/doku" }] });
  await call("PUT", "/data/team", { items: [{ name: "Ada" }, { name: "Grace" }] });
  await call("PUT", "/data/team", { lang: "de", items: [{ name: "Ada (de)" }] });
  await call("PATCH", "/seo", {
    description: { en: "We make things.", de: "Wir machen Dinge." },
    twitter_site: "@maker",
  });
  await call("POST", "/seo/redirects", {
    redirects: [
      { from: "/old", to: "/about" },
      { from: "/older", to: "/de/ueber-uns", status: 302 },
    ],
  });
}

describe("svc pull a whole site, svc push it into an empty site: the same public site", () => {
  let t: Served;
  let source: { id: number; domain: string };
  let target: { id: number; domain: string };
  const dir = tempDir("svc-round-trip-");
  before(async () => {
    t = await serve();
    source = await newSite(t, "Client");
    target = await newSite(t, "Empty");
    await seed(t, source.id);
  });
  after(async () => {
    await t.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("every public address answers the same status and bytes, apart from the domain", async () => {
    const pull = await svcSite(t, source.id, ["pull", dir]);
    assert.equal(pull.code, 0, pull.stdout + pull.stderr);
    const push = await svcSite(t, target.id, ["push", dir, "--force"]);
    assert.equal(push.code, 0, push.stdout + push.stderr);

    const pages = (await must(t, source.id, "GET", "/pages")).pages as Array<{ url: string }>;
    const paths = new Set([
      "/",
      "/de/",
      "/sitemap.xml",
      "/robots.txt",
      "/news/feed.xml",
      "/news/page/2/",
      "/old/",
      "/older/",
    ]);
    for (const page of pages) paths.add(new URL(page.url).pathname);
    const first = await publicPage(t, source.domain, "/about/");
    for (const match of first.text.matchAll(/(?:href|src)="(\/(?:styles|media)\/[^"]+)"/g)) paths.add(match[1]);
    assert.ok(paths.size > 16, [...paths].join(" "));
    const differences: string[] = [];
    for (const path of [...paths].sort()) {
      const before = await publicPage(t, source.domain, path);
      const after = await publicPage(t, target.domain, path);
      const mine = comparable(before.text, source.domain, target.domain);
      const theirs = comparable(after.text, target.domain, target.domain);
      if (before.status !== after.status) differences.push(`${path}: ${before.status} → ${after.status}`);
      else if (mine !== theirs) differences.push(`${path}: bytes differ\n${mine}\n----\n${theirs}`);
      else if (before.location.replaceAll(source.domain, target.domain) !== after.location)
        differences.push(`${path}: Location ${before.location} → ${after.location}`);
    }
    assert.deepEqual(differences, []);
    assert.equal(first.status, 200);
    assert.match(first.text, /Read more/);

    const again = await svcSite(t, target.id, ["push", dir]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /0 writes sent/);
  });
});

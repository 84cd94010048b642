// What svc/sidebar, svc/pager and svc/toc print on the public site (docs/sidebars.md): the tree in the
// page's language with the current page marked and its sections open, the reading order's
// neighbours, and the page's headings with the ids page.content prints them with.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Parser } from "htmlparser2";
import type { TestApp } from "../support/app.ts";
import { ok, seoSite as newSite, startTestApp, type SeoSite } from "../seo/helpers.ts";

interface Seen {
  /** [text, href, aria-current] of each link in the sidebar's nav, in order. */
  links: Array<[string, string, string | undefined]>;
  /** summary text and whether its details is open, in order. */
  sections: Array<[string, boolean]>;
  pager: Record<string, [string, string]>;
  toc: Array<[string, string]>;
  headingIds: string[];
}

function read(html: string): Seen {
  const seen: Seen = { links: [], sections: [], pager: {}, toc: [], headingIds: [] };
  const navs: string[] = [];
  let link: { text: string; href: string; current?: string; rel?: string } | null = null;
  let summary: { text: string; open: boolean } | null = null;
  const opens: boolean[] = [];
  const parser = new Parser({
    onopentag(name, a) {
      if (name === "nav") navs.push(a.class ?? "");
      if (name === "details") opens.push(a.open !== undefined);
      if (name === "summary") summary = { text: "", open: opens[opens.length - 1] };
      if (name === "a") link = { text: "", href: a.href ?? "", current: a["aria-current"], rel: a.rel };
      if (/^h[1-6]$/.test(name) && a.id) seen.headingIds.push(a.id);
    },
    ontext(text) {
      if (link) link.text += text;
      if (summary) summary.text += text;
    },
    onclosetag(name) {
      const nav = navs[navs.length - 1];
      if (name === "a" && link) {
        if (nav === "sidebar" || nav === "docs-nav") seen.links.push([link.text, link.href, link.current]);
        if (nav === "pager" && link.rel) seen.pager[link.rel] = [link.text, link.href];
        if (nav === "toc") seen.toc.push([link.text, link.href]);
        link = null;
      }
      if (name === "summary" && summary) {
        seen.sections.push([summary.text, summary.open]);
        summary = null;
      }
      if (name === "details") opens.pop();
      if (name === "nav") navs.pop();
    },
  });
  parser.end(html);
  return seen;
}

const FRAME = `<!DOCTYPE html><html><body><!-- svc/sidebar {"name": "docs"} /--><main data-op-bind='{"html": "page.content"}'></main><!-- svc/toc /--><!-- svc/pager {"name": "docs"} /--></body></html>`;

describe("sidebars on the public site", () => {
  let t: TestApp;
  let site: SeoSite;
  const p: Record<string, number> = {};
  before(async () => {
    t = await startTestApp();
    site = await newSite(t, { languages: true });
    await site.frame("doc", FRAME);
    await site.frame("shallow", `<!-- svc/sidebar {"name": "docs", "depth": 1, "class": "docs-nav"} /-->`);
    for (const title of ["Intro", "Install", "Configure", "Usage", "Recipes", "Faq"])
      p[title.toLowerCase()] = await site.page(title, "doc", {
        lang: "en",
        content: `<h2>${title} basics</h2><p>…</p><h3 id="kept">Details</h3><h3>Details</h3><h2>More</h2><h4>Deep</h4>`,
      });
    p.shallow = await site.page("Shallow", "shallow", { lang: "en" });
    ok(await site.api("PATCH", `/pages/${p.faq}`, { status: "draft" }), "draft faq");
    ok(
      await site.api("PUT", "/sidebars/docs?allow_invalid=true", {
        items: [
          { page: p.intro },
          { label: "Setup", items: [{ page: p.install }, { page: p.configure }] },
          {
            label: "Guides",
            open: true,
            items: [
              { page: p.usage },
              { url: "https://example.com/more", label: "More elsewhere" },
              { page: p.recipes },
            ],
          },
        ],
      }),
      "sidebar",
      201,
    );
    for (const [page, title] of [
      [p.intro, "Einführung"],
      [p.install, "Installation"],
      [p.usage, "Nutzung"],
      [p.recipes, "Rezepte"],
    ] as const)
      ok(await site.api("POST", "/pages/language", { page, lang: "de", title }), "de", 201);
  });
  after(() => t.close());

  it("the tree in order, aria-current on the page shown's link only; its section open, a section written open open, the others collapsed", async () => {
    const seen = read((await site.visit("/configure/")).text);
    assert.deepEqual(
      seen.links.map(([text]) => text),
      ["Intro", "Install", "Configure", "Usage", "More elsewhere", "Recipes"],
    );
    assert.deepEqual(
      seen.links.filter(([, , current]) => current !== undefined),
      [["Configure", `${site.origin}/configure/`, "page"]],
    );
    assert.deepEqual(seen.sections, [
      ["Setup", true],
      ["Guides", true],
    ]);
    const intro = read((await site.visit("/intro/")).text);
    assert.deepEqual(
      intro.sections,
      [
        ["Setup", false],
        ["Guides", true],
      ],
      "the section that does not hold the page is collapsed",
    );
  });

  it("the pager follows the reading order, sections flattened, links skipped: the first page has only next, the last only previous", async () => {
    assert.deepEqual(read((await site.visit("/intro/")).text).pager, { next: ["Install", `${site.origin}/install/`] });
    assert.deepEqual(read((await site.visit("/usage/")).text).pager, {
      prev: ["Configure", `${site.origin}/configure/`],
      next: ["Recipes", `${site.origin}/recipes/`],
    });
    assert.deepEqual(read((await site.visit("/recipes/")).text).pager, { prev: ["Usage", `${site.origin}/usage/`] });
    assert.deepEqual(read((await site.visit("/shallow/")).text).pager, {}, "a page outside the sidebar gets no pager");
  });

  it("depth 1 prints the top-level items only; the class is the nav's", async () => {
    const html = (await site.visit("/shallow/")).text;
    assert.match(html, /<nav class="docs-nav">/);
    assert.deepEqual(
      read(html).links.map(([text]) => text),
      ["Intro"],
    );
    assert.doesNotMatch(html, /<details/);
  });

  it("a draft page is left out of sidebar and pager; published, it is back", async () => {
    ok(await site.api("PATCH", `/pages/${p.configure}`, { status: "draft" }), "draft configure");
    const seen = read((await site.visit("/install/")).text);
    assert.ok(!seen.links.some(([text]) => text === "Configure"));
    assert.deepEqual(seen.pager.next, ["Usage", `${site.origin}/usage/`]);
    ok(await site.api("PATCH", `/pages/${p.configure}`, { status: "publish" }), "publish configure");
    assert.deepEqual(read((await site.visit("/install/")).text).pager.next, ["Configure", `${site.origin}/configure/`]);
  });

  it("a German page shows the default tree in German: translated labels and addresses, the untranslated page left out of sidebar and pager", async () => {
    const seen = read((await site.visit("/de/nutzung/")).text);
    assert.deepEqual(
      seen.links.map(([text]) => text),
      ["Einführung", "Installation", "Nutzung", "More elsewhere", "Rezepte"],
    );
    assert.deepEqual(seen.links.find(([, , current]) => current)?.slice(0, 2), [
      "Nutzung",
      `${site.origin}/de/nutzung/`,
    ]);
    assert.deepEqual(seen.pager, {
      prev: ["Installation", `${site.origin}/de/installation/`],
      next: ["Rezepte", `${site.origin}/de/rezepte/`],
    });
  });

  it("svc/toc lists the page's headings of levels 2 and 3, an h3 under its h2, linking to the ids page.content prints: slugs of the text, repeats numbered, written ids kept; the same on every render", async () => {
    const html = (await site.visit("/intro/")).text;
    const seen = read(html);
    assert.deepEqual(seen.headingIds, ["intro-basics", "kept", "details", "more", "deep"]);
    assert.deepEqual(seen.toc, [
      ["Intro basics", "#intro-basics"],
      ["Details", "#kept"],
      ["Details", "#details"],
      ["More", "#more"],
    ]);
    assert.match(
      html,
      /<nav class="toc"><ul><li><a href="#intro-basics">Intro basics<\/a><ul><li><a href="#kept">Details<\/a><\/li><li><a href="#details">Details<\/a><\/li><\/ul><\/li><li><a href="#more">More<\/a><\/li><\/ul><\/nav>/,
    );
    ok(await t.call("POST", `/api/site/${site.id}/cache/flush`, { body: { all: true } }), "flush");
    assert.equal((await site.visit("/intro/")).text, html, "rendered again, the same ids");
  });
});

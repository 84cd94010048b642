// A page's paged list on the public site (docs/markup.md, "Lists"): `<address>page/<n>/` with that
// page's slice, 404 past the last page, `page/1/` 301 to the page; svc/pagination and the head's
// canonical, prev and next; the sitemap lists the list's pages; the home page's and a translation's
// list; a real page at such an address wins; and a repeat's match and order are what POST
// /data/resolve answers for the same parameters.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ok, seoSite, startTestApp, type SeoSite } from "../seo/helpers.ts";
import { assertValid, parse, URLSET_XSD } from "../seo/sitemap-xml.ts";
import type { TestApp } from "../support/app.ts";

/** A list of the page's children, newest first, two a page, with its pagination and head tags. */
const INDEX = [
  "<!DOCTYPE html><html><head><!-- svc/seo /--></head><body><ul>",
  `<!-- svc/repeat {"source":"pages.children","order_by":"-date","page_size":2} --><li data-op-bind='{"text":"item.title"}'></li><!-- /svc/repeat -->`,
  "</ul><!-- svc/pagination /--></body></html>",
].join("");

/** The titles a page's list prints. */
const titles = (html: string) => [...html.matchAll(/<li>([^<]*)<\/li>/g)].map((m) => m[1]);
const link = (html: string, rel: string) => new RegExp(`<link rel="${rel}" href="([^"]*)">`).exec(html)?.[1];

describe("paged lists on the public site", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  /** A site with a News page on INDEX and five posts under it, dated out of order. */
  async function news(
    options: { languages?: boolean } = {},
  ): Promise<{ site: SeoSite; news: number; posts: number[] }> {
    const site = await seoSite(t, options);
    await site.frame("index", INDEX);
    await site.frame("post", "<p>post</p>");
    const id = await site.page("News", "index");
    const posts: number[] = [];
    for (const [title, date] of [
      ["October", "2024-10-01"],
      ["November", "2024-11-20T10:00:00Z"],
      ["September", "2024-09-12"],
      ["December", "2024-12-01T08:00:00+01:00"],
      ["January", "2024-01-05"],
    ])
      posts.push(await site.page(title, "post", { parent: id, date }));
    return { site, news: id, posts };
  }

  it("page n of the list at <address>page/<n>/, newest first; 404 past the last page; page/1/ answers 301 to the page", async () => {
    const { site } = await news();
    const first = await site.visit("/news/");
    assert.equal(first.status, 200);
    assert.deepEqual(titles(first.text), ["December", "November"]);
    assert.deepEqual(titles((await site.visit("/news/page/2/")).text), ["October", "September"]);
    assert.deepEqual(titles((await site.visit("/news/page/3/")).text), ["January"]);
    assert.equal((await site.visit("/news/page/4/")).status, 404);
    assert.equal((await site.visit("/news/page/0/")).status, 404);
    assert.equal((await site.visit("/news/page/02/")).status, 404);
    const one = await site.visit("/news/page/1/?ref=x");
    assert.equal(one.status, 301);
    assert.equal(one.headers.location, "/news/?ref=x");
    const cached = await site.visit("/news/page/2/");
    assert.equal(cached.headers["x-svc-printed"], "cache", "kept like a page");
    assert.equal((await site.visit("/news/page/2/", { "if-none-match": String(cached.headers.etag) })).status, 304);
    assert.equal((await site.visit("/nowhere/page/2/")).status, 404);
  });

  it("a page without a paged list has no page/<n>/; a page standing at such an address wins", async () => {
    const { site, news: id } = await news();
    await site.page("Plain", "post");
    assert.equal((await site.visit("/plain/page/2/")).status, 404);
    const page = await site.page("Page", "post", { parent: id });
    await site.page("2", "post", { parent: page });
    assert.equal((await site.visit("/news/page/2/")).text, "<p>post</p>", "the page /news/page/2/ itself");
  });

  it("svc/pagination links the pages; the head's canonical is the page of the list shown, with prev and next", async () => {
    const { site } = await news();
    const origin = site.origin;
    const second = (await site.visit("/news/page/2/")).text;
    assert.match(
      second,
      new RegExp(
        `<nav class="pagination" aria-label="Pagination"><a class="prev" rel="prev" href="${origin}/news/">Previous</a><a class="page" href="${origin}/news/">1</a><a class="page current" href="${origin}/news/page/2/" aria-current="page">2</a><a class="page" href="${origin}/news/page/3/">3</a><a class="next" rel="next" href="${origin}/news/page/3/">Next</a></nav>`,
      ),
    );
    assert.equal(link(second, "canonical"), `${origin}/news/page/2/`);
    assert.equal(link(second, "prev"), `${origin}/news/`);
    assert.equal(link(second, "next"), `${origin}/news/page/3/`);
    const first = (await site.visit("/news/")).text;
    assert.equal(link(first, "canonical"), `${origin}/news/`);
    assert.equal(link(first, "prev"), undefined);
    assert.equal(link(first, "next"), `${origin}/news/page/2/`);
    const last = (await site.visit("/news/page/3/")).text;
    assert.equal(link(last, "next"), undefined);
  });

  it("the sitemap lists the list's further pages, valid against the sitemaps.org schema", async () => {
    const { site } = await news();
    const map = await site.visit("/sitemap.xml");
    assertValid(map.text, URLSET_XSD, "sitemap with a paged list");
    const locs = parse(map.text).urls.map((u) => u.loc);
    for (const path of ["/news/", "/news/page/2/", "/news/page/3/"])
      assert.ok(locs.includes(`${site.origin}${path}`), path);
    assert.ok(!locs.includes(`${site.origin}/news/page/4/`));
  });

  it("the home page's list answers at /page/<n>/, a translation's under its language prefix", async () => {
    const site = await seoSite(t, { languages: true });
    await site.frame("index", INDEX);
    const home = await site.page("Home", "index");
    ok(await site.api("PATCH", "/settings", { home_page: home }), "home_page");
    for (const day of ["01", "02", "03"])
      await site.page(`Post ${day}`, null, { parent: home, date: `2024-05-${day}` });
    assert.deepEqual(titles((await site.visit("/page/2/")).text), ["Post 01"]);
    assert.equal(link((await site.visit("/page/2/")).text, "prev"), `${site.origin}/`);
    const own = await site.visit("/home/page/2/");
    assert.equal(own.status, 301, "the home page's own path sends to /");
    assert.equal(own.headers.location, "/page/2/");

    const news = await site.page("Neuigkeiten", "index", { lang: "de" });
    for (const day of ["01", "02", "03"])
      await site.page(`Beitrag ${day}`, null, { parent: news, date: `2024-06-${day}` });
    const second = (await site.visit("/de/neuigkeiten/page/2/")).text;
    assert.deepEqual(titles(second), ["Beitrag 01"]);
    assert.equal(link(second, "canonical"), `${site.origin}/de/neuigkeiten/page/2/`);
    assert.equal((await site.visit("/de/neuigkeiten/page/3/")).status, 404);
  });

  it("a list of a data set pages too: its count follows the set's items", async () => {
    const site = await seoSite(t);
    ok(
      await site.api("PUT", "/data/team", { items: [1, 2, 3, 4, 5].map((n) => ({ id: n, name: `P${n}` })) }),
      "team",
      201,
    );
    await site.frame(
      "team",
      `<!-- svc/repeat {"source":"team","order_by":"fields.none","page_size":3,"offset":1} --><li data-op-bind='{"text":"item.name"}'></li><!-- /svc/repeat --><!-- svc/pagination /-->`,
    );
    await site.page("Team", "team");
    assert.deepEqual(titles((await site.visit("/team/")).text), ["P2", "P3", "P4"]);
    assert.deepEqual(titles((await site.visit("/team/page/2/")).text), ["P5"]);
    assert.equal((await site.visit("/team/page/3/")).status, 404);
  });
});

describe("a repeat's match and order are POST /data/resolve's", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("match with a list of values (in a frame too), order_by and offset print what the resolver answers", async () => {
    const site = await seoSite(t);
    const blog = await site.page("Blog", null);
    const tagged: Array<[string, string[], string]> = [
      ["Launch", ["news", "press"], "2024-03-01"],
      ["Hiring", ["jobs"], "2024-03-05"],
      ["Award", ["press"], "2024-02-10"],
      ["Update", ["news"], "2024-04-01"],
      ["Party", [], "2024-01-01"],
    ];
    for (const [title, tags, date] of tagged) await site.page(title, null, { parent: blog, tags, date });
    const params = { match: { tags: ["news", "press"] }, order_by: "-date", offset: 1 };
    const frame = ok(
      await site.api("POST", "/frames", {
        slug: "tagged",
        html: `<!-- svc/repeat ${JSON.stringify({ source: "pages.children", ...params })} --><li data-op-bind='{"text":"item.title"}'></li><!-- /svc/repeat -->`,
      }),
      "frame",
      201,
    );
    assert.deepEqual(frame.warnings, [], "a list of values is no warning in a frame");
    ok(await site.api("PATCH", `/pages/${blog}`, { frame: "tagged" }), "assign");
    const resolved = ok(
      await site.api("POST", "/data/resolve", { source: "pages.children", page: blog, ...params }),
      "resolve",
    );
    assert.deepEqual(
      resolved.items.map((i: any) => i.title),
      ["Launch", "Award"],
    );
    assert.deepEqual(titles((await site.visit("/blog/")).text), ["Launch", "Award"]);
    const byGet = ok(
      await t.call("GET", `/api/site/${site.id}/data/pages.children`, {
        query: { page: String(blog), order_by: "title", offset: "3" },
      }),
      "GET",
    );
    assert.deepEqual(
      byGet.items.map((i: any) => i.title),
      ["Party", "Update"],
    );
    for (const bad of [{ order_by: "price" }, { offset: -1 }, { order_by: 3 }]) {
      const refused = await site.api("POST", "/data/resolve", { source: "pages", ...bad });
      assert.equal(refused.status, 400, JSON.stringify(bad));
      assert.equal(refused.body.error, "invalid_field");
    }
  });
});

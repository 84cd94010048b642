// A page's Atom feed (docs/seo.md, "Feeds"): `<address>feed.xml` while the page has `feed: true`,
// valid against the Atom schema (test/seo/schema/atom.rng, RFC 4287's RELAX NG, with xmllint) and
// read with a real XML parser for what the schema leaves to its Schematron rules and for its
// content: the entries of its children newest first (20 at most), or of the first list of its frame
// that sorts or pages pages; titles, links, dates, summaries and content; its language; 404 without
// a feed; conditional GET; the head's alternate link; texts XML cannot hold.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Parser } from "htmlparser2";
import { ok, seoSite, startTestApp, type SeoSite } from "./helpers.ts";
import type { TestApp } from "../support/app.ts";

const ATOM_RNG = join(import.meta.dirname, "schema", "atom.rng");

/** An element of a parsed document: its name, attributes, children and text (CDATA included). */
interface Node {
  name: string;
  attrs: Record<string, string>;
  children: Node[];
  text: string;
}

/** The document's root element, read with htmlparser2's XML mode (entities decoded, CDATA as text). */
function parseXml(xml: string): Node {
  const root: Node = { name: "", attrs: {}, children: [], text: "" };
  const open: Node[] = [root];
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        const node: Node = { name, attrs: { ...attrs }, children: [], text: "" };
        open.at(-1)!.children.push(node);
        open.push(node);
      },
      ontext(text) {
        open.at(-1)!.text += text;
      },
      onclosetag() {
        open.pop();
      },
    },
    { xmlMode: true, decodeEntities: true, recognizeCDATA: true },
  );
  parser.write(xml);
  parser.end();
  assert.equal(root.children.length, 1, "one root element");
  return root.children[0]!;
}

const all = (node: Node, name: string) => node.children.filter((child) => child.name === name);
const one = (node: Node, name: string) => {
  const found = all(node, name);
  assert.equal(found.length, 1, `one <${name}> in <${node.name}>`);
  return found[0]!;
};
const text = (node: Node, name: string) => one(node, name).text.trim();

/** xmllint --relaxng over the feed: valid, or what xmllint printed. */
function assertAtom(xml: string): void {
  const dir = mkdtempSync(join(tmpdir(), "feed-"));
  try {
    const file = join(dir, "feed.xml");
    writeFileSync(file, xml);
    const run = spawnSync("xmllint", ["--noout", "--relaxng", ATOM_RNG, file], { encoding: "utf8" });
    assert.equal(run.status, 0, `valid Atom:\n${run.stdout}${run.stderr}\n${xml}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** RFC 4287's rules beyond its RELAX NG schema (§4.1.1, §4.1.2), and a date-time in each date. */
function assertAtomRules(feed: Node): void {
  assert.equal(feed.name, "feed");
  assert.equal(feed.attrs.xmlns, "http://www.w3.org/2005/Atom");
  const entries = all(feed, "entry");
  assert.ok(all(feed, "author").length > 0 || entries.every((e) => all(e, "author").length > 0), "an author");
  assert.ok(
    all(feed, "link").some((l) => l.attrs.rel === "self"),
    "a self link",
  );
  const rfc3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;
  assert.match(text(feed, "updated"), rfc3339);
  for (const entry of entries) {
    assert.ok(text(entry, "id").length > 0);
    assert.match(text(entry, "updated"), rfc3339);
    const alternates = all(entry, "link").filter((l) => (l.attrs.rel ?? "alternate") === "alternate");
    assert.ok(all(entry, "content").length === 1 || alternates.length > 0, "content or an alternate link");
    assert.ok(alternates.length <= 1, "at most one alternate link");
  }
}

/** The feed at `path` of the site: 200, Atom's type, valid; answers its parsed root and its text. */
async function feedOf(site: SeoSite, path: string): Promise<{ feed: Node; xml: string; etag: string }> {
  const r = await site.visit(path);
  assert.equal(r.status, 200, `${path}: ${r.status} ${r.text.slice(0, 300)}`);
  assert.equal(r.headers["content-type"], "application/atom+xml; charset=utf-8");
  assertAtom(r.text);
  const feed = parseXml(r.text);
  assertAtomRules(feed);
  return { feed, xml: r.text, etag: String(r.headers.etag) };
}

const entryTitles = (feed: Node) => all(feed, "entry").map((e) => text(e, "title"));

describe("Atom feeds", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("a page with feed: true publishes its children newest first, each with title, link, dates, summary and content", async () => {
    const site = await seoSite(t);
    await site.frame("page", "<!DOCTYPE html><html><head><!-- svc/seo /--></head><body>page</body></html>");
    const news = await site.page("News & more", "page", { feed: true });
    await site.page("Older", "page", {
      parent: news,
      date: "2024-01-01",
      content: "<h2>x</h2><p>First <b>para</b>.</p><p>Second.</p>",
    });
    await site.page("Newer <b>", "page", {
      parent: news,
      date: "2024-03-05T09:30:00Z",
      content: "No paragraph here.\n\nSecond block.",
      fields: { summary: "A summary & more" },
    });
    await site.page("Draft", "page", { parent: news, status: "draft" });
    const { feed } = await feedOf(site, "/news-more/feed.xml");
    assert.equal(text(feed, "title"), "News & more");
    assert.equal(text(one(feed, "author"), "name"), site.name);
    const links = all(feed, "link").map((l) => `${l.attrs.rel} ${l.attrs.href}`);
    assert.deepEqual(links, [`alternate ${site.origin}/news-more/`, `self ${site.origin}/news-more/feed.xml`]);
    assert.equal(feed.attrs["xml:lang"], undefined, "a site without a language names none");
    assert.deepEqual(entryTitles(feed), ["Newer &lt;b&gt;", "Older"], "titles are HTML text; the draft is not listed");
    const [newer, older] = all(feed, "entry");
    assert.equal(one(newer!, "title").attrs.type, "html");
    assert.equal(one(newer!, "link").attrs.href, `${site.origin}/news-more/newer-b/`);
    assert.equal(text(newer!, "published"), "2024-03-05T09:30:00.000Z");
    assert.equal(text(newer!, "summary"), "A summary &amp; more", "fields.summary, as HTML text");
    assert.equal(text(newer!, "content"), "No paragraph here.\n\nSecond block.");
    assert.equal(text(older!, "summary"), "First <b>para</b>.", "the first paragraph");
    assert.equal(text(older!, "content"), "<h2>x</h2><p>First <b>para</b>.</p><p>Second.</p>");
    assert.match(text(older!, "id"), /^tag:seo\d+-\d+\.localhost,\d{4}-\d\d-\d\d:page-\d+$/);
    const ids = all(feed, "entry").map((e) => text(e, "id"));
    assert.equal(new Set(ids).size, ids.length);
  });

  it("a Markdown page's entry holds its content as the page prints it (HTML, page: links at their address), its summary the first paragraph of that", async () => {
    const site = await seoSite(t);
    await site.frame("page", "<!DOCTYPE html><html><head><!-- svc/seo /--></head><body>page</body></html>");
    const news = await site.page("News", "page", { feed: true });
    await site.page("About", "page");
    await site.page("Post", "page", {
      parent: news,
      content_format: "markdown",
      content: "## Hello\n\nSee *our* [team](page:about).\n\n- [x] done",
    });
    const entry = one((await feedOf(site, "/news/feed.xml")).feed, "entry");
    const content = text(entry, "content");
    assert.match(content, /<h2 id="hello">Hello<\/h2>/);
    assert.match(content, new RegExp(`<a href="${site.origin}/about/">team</a>`));
    assert.match(content, /<input[^>]*type="checkbox"/);
    assert.ok(!content.includes("*our*") && !content.includes("page:about"), "no Markdown source");
    assert.equal(text(entry, "summary"), `See <em>our</em> <a href="${site.origin}/about/">team</a>.`);
  });

  it("at most 20 entries; the page's own list decides which and in what order", async () => {
    const site = await seoSite(t);
    await site.frame("page", "<p>page</p>");
    const news = await site.page("News", "page", { feed: true });
    for (let i = 1; i <= 22; i++)
      await site.page(`Post ${i}`, null, {
        parent: news,
        date: `2024-01-${String(i).padStart(2, "0")}`,
        tags: i % 2 ? ["odd"] : [],
      });
    const { feed } = await feedOf(site, "/news/feed.xml");
    assert.equal(all(feed, "entry").length, 20);
    assert.equal(entryTitles(feed)[0], "Post 22");
    await site.frame(
      "sorted",
      `<!-- svc/repeat {"source":"pages.children","match":{"tags":["odd"]},"order_by":"title","page_size":4} -->x<!-- /svc/repeat -->`,
    );
    ok(await site.api("PATCH", `/pages/${news}`, { frame: "sorted" }), "frame");
    const sorted = (await feedOf(site, "/news/feed.xml")).feed;
    assert.deepEqual(
      entryTitles(sorted).slice(0, 4),
      ["Post 1", "Post 3", "Post 5", "Post 7"],
      "the list's match and order (digits as numbers), not its pages",
    );
    assert.equal(all(sorted, "entry").length, 11);
  });

  it("in the page's language, under its prefix; a translation has its own", async () => {
    const site = await seoSite(t, { languages: true });
    await site.frame("page", "<p>page</p>");
    const news = await site.page("Neuigkeiten", "page", { lang: "de", feed: true });
    await site.page("Beitrag", null, { parent: news, lang: "de" });
    const { feed } = await feedOf(site, "/de/neuigkeiten/feed.xml");
    assert.equal(feed.attrs["xml:lang"], "de");
    assert.equal(one(all(feed, "entry")[0]!, "link").attrs.href, `${site.origin}/de/neuigkeiten/beitrag/`);
    assert.equal((await site.visit("/neuigkeiten/feed.xml")).status, 404, "not in the default language");
  });

  it("404 for a page without a feed, a draft, or an address without a page; other spellings 301 to the one", async () => {
    const site = await seoSite(t);
    await site.frame("page", "<p>page</p>");
    await site.page("Plain", "page");
    await site.page("Hidden", "page", { feed: true, status: "draft" });
    await site.page("News", "page", { feed: true });
    for (const path of ["/plain/feed.xml", "/hidden/feed.xml", "/nowhere/feed.xml"])
      assert.equal((await site.visit(path)).status, 404, path);
    const moved = await site.visit("/NEWS/feed.xml");
    assert.equal(moved.status, 301);
    assert.equal(moved.headers.location, "/news/feed.xml");
  });

  it("kept like a page: an ETag, 304 to If-None-Match, X-Svc-Printed cache the second time", async () => {
    const site = await seoSite(t);
    await site.frame("page", "<p>page</p>");
    await site.page("News", "page", { feed: true });
    const { etag } = await feedOf(site, "/news/feed.xml");
    const again = await site.visit("/news/feed.xml", { "if-none-match": etag });
    assert.equal(again.status, 304);
    assert.equal((await site.visit("/news/feed.xml")).headers["x-svc-printed"], "cache");
  });

  it("svc/seo links the feed from the page and from every page of its list", async () => {
    const site = await seoSite(t);
    await site.frame(
      "index",
      `<html><head><!-- svc/seo /--></head><body><!-- svc/repeat {"source":"pages.children","page_size":1} -->x<!-- /svc/repeat --></body></html>`,
    );
    const news = await site.page("News", "index", { feed: true });
    for (const title of ["A", "B"]) await site.page(title, null, { parent: news });
    const alternate = `<link rel="alternate" type="application/atom+xml" title="News — ${site.name}" href="${site.origin}/news/feed.xml">`;
    assert.ok((await site.visit("/news/")).text.includes(alternate));
    assert.ok((await site.visit("/news/page/2/")).text.includes(alternate));
    ok(await site.api("PATCH", `/pages/${news}`, { feed: false }), "feed off");
    assert.ok(!(await site.visit("/news/")).text.includes("application/atom+xml"));
    assert.equal((await site.visit("/news/feed.xml")).status, 404);
  });

  it("texts XML cannot hold are left out and ]]> stays inside its section: still valid", async () => {
    const site = await seoSite(t);
    await site.frame("page", "<p>page</p>");
    const news = await site.page("News\u0001", "page", { feed: true });
    await site.page("Odd\u000b title", null, {
      parent: news,
      content: "<p>a ]]> b ]]> c \u0002</p><script>x = 1;</script>",
    });
    const { feed } = await feedOf(site, "/news/feed.xml");
    assert.equal(text(feed, "title"), "News");
    const entry = all(feed, "entry")[0]!;
    assert.equal(text(entry, "title"), "Odd title");
    assert.equal(text(entry, "content"), "<p>a ]]&gt; b ]]&gt; c </p><script>x = 1;</script>");
  });

  it("follows a write: a child's new title and a new child are in the next answer", async () => {
    const site = await seoSite(t);
    await site.frame("page", "<p>page</p>");
    const news = await site.page("News", "page", { feed: true });
    const child = await site.page("First", null, { parent: news, date: "2024-01-01" });
    assert.deepEqual(entryTitles((await feedOf(site, "/news/feed.xml")).feed), ["First"]);
    ok(await site.api("PATCH", `/pages/${child}`, { title: "Renamed" }), "rename");
    assert.deepEqual(entryTitles((await feedOf(site, "/news/feed.xml")).feed), ["Renamed"]);
    await site.page("Second", null, { parent: news, date: "2024-02-01" });
    assert.deepEqual(entryTitles((await feedOf(site, "/news/feed.xml")).feed), ["Second", "Renamed"]);
  });
});

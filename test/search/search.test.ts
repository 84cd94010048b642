// Site search (docs/search.md): GET /_search on a site's host finds its published pages by their
// title, text, summary and tags — accents folded, the last word a prefix, the title ranked first —
// and never a draft, a trashed, a future, a noindex, a frameless page or another site's; an answer
// page of ten; snippets escaped but for their marks; a long or stop-word query finds nothing.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ok, seoSite, startTestApp, type SeoSite } from "../seo/helpers.ts";
import type { TestApp } from "../support/app.ts";
import { sql } from "kysely";
import { catchUpSearchIndex } from "../../src/search/catch-up.ts";

describe("site search", () => {
  let t: TestApp;
  let site: SeoSite;
  before(async () => {
    t = await startTestApp();
    site = await seoSite(t);
    await site.frame(
      "plain",
      '<!DOCTYPE html><html><body><main data-op-bind=\'{"html":"page.content"}\'></main></body></html>',
    );
  });
  after(() => t.close());

  async function search(q: string, extra: Record<string, string> = {}, on: SeoSite = site) {
    const params = new URLSearchParams({ q, ...extra });
    const answer = await on.visit(`/_search?${params}`);
    assert.equal(answer.status, 200, answer.text);
    return answer.body as {
      query: string;
      total: number;
      more: boolean;
      page: number;
      results: Array<{ title: string; url: string; snippet: string; date: string | null }>;
    };
  }
  const titles = async (q: string, extra: Record<string, string> = {}) =>
    (await search(q, extra)).results.map((result) => result.title);

  it("finds a page by a word of its text, accents folded both ways, the last word as a prefix", async () => {
    await site.page("Our café", "plain", { content: "<p>Fresh croissants at the Zürich bakery.</p>" });
    assert.deepEqual(await titles("cafe"), ["Our café"]);
    assert.deepEqual(await titles("CAFÉ"), ["Our café"]);
    assert.deepEqual(await titles("zurich bak"), ["Our café"]);
    assert.deepEqual(await titles("croiss"), ["Our café"]);
    assert.deepEqual(await titles("bak zurich"), [], "only the last word is a prefix");
    const [result] = (await search("croissants")).results;
    assert.equal(result.url, `${site.origin}/our-cafe/`);
    assert.match(result.snippet, /<mark>croissants<\/mark>/);
    assert.match(result.date ?? "", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it("finds a page by its summary and its tags, Markdown read as text; the title ranks first", async () => {
    await site.page("Gardening notes", "plain", {
      content: "All about **zucchini** and [links](https://example.com/zz).",
      content_format: "markdown",
    });
    await site.page("Zucchini", "plain", { content: "<p>A vegetable.</p>" });
    await site.page("Tagged", "plain", {
      content: "<p>x</p>",
      tags: ["pumpkin"],
      fields: { summary: "A squash story" },
    });
    assert.deepEqual(await titles("zucchini"), ["Zucchini", "Gardening notes"]);
    assert.deepEqual(await titles("pumpkin"), ["Tagged"]);
    assert.deepEqual(await titles("squash"), ["Tagged"]);
    assert.deepEqual(await titles("example"), [], "a link's address is not text");
  });

  it("never finds a draft, a trashed, a future, a noindex or a frameless page, nor a published page under a draft", async () => {
    await site.page("Hidden draft quokka", "plain", { status: "draft" });
    const trashed = await site.page("Trashed quokka", "plain");
    ok(await site.api("DELETE", `/pages/${trashed}`), "trash");
    await site.page("Future quokka", "plain", { status: "future", date: "2999-01-01" });
    await site.page("Noindex quokka", "plain", { seo: { noindex: true } });
    await site.page("Frameless quokka", null as unknown as string);
    const parent = await site.page("Parent draft", "plain", { status: "draft" });
    await site.page("Child quokka", "plain", { parent });
    assert.deepEqual(await titles("quokka"), []);
    ok(await site.api("PATCH", `/pages/${parent}`, { status: "publish" }), "publish the parent");
    assert.deepEqual(await titles("quokka"), ["Child quokka"], "its parent published, the child is found");
  });

  it("never finds another site's pages", async () => {
    const other = await seoSite(t);
    await other.frame("plain", "<p>x</p>");
    await other.page("Wombat elsewhere", "plain");
    assert.deepEqual(await titles("wombat"), []);
    assert.deepEqual(
      (await search("wombat", {}, other)).results.map((r) => r.title),
      ["Wombat elsewhere"],
    );
  });

  it("answers ten a page, `page` for the next; the total counts them all", async () => {
    for (let n = 1; n <= 12; n++) await site.page(`Platypus ${n}`, "plain");
    const first = await search("platypus");
    assert.equal(first.total, 12);
    assert.equal(first.results.length, 10);
    const second = await search("platypus", { page: "2" });
    assert.equal(second.page, 2);
    assert.equal(second.results.length, 2);
    assert.equal((await search("platypus", { page: "9" })).results.length, 0);
  });

  it("escapes everything in a title and a snippet but the marks", async () => {
    await site.page("<script>alert(1)</script> Echidna", "plain", {
      content: "<p>Echidna &lt;b&gt;bold&lt;/b&gt; &amp; more</p>",
    });
    const [result] = (await search("echidna")).results;
    assert.equal(result.title, "<script>alert(1)</script> Echidna", "the title is JSON text; the caller escapes it");
    assert.equal(result.snippet, "<mark>Echidna</mark> &lt;b&gt;bold&lt;/b&gt; &amp; more");
    assert.doesNotMatch(result.snippet.replaceAll(/<\/?mark>/g, ""), /[<>]/);
  });

  it("answers an empty result for a query over 200 characters, of stop words alone, or of FTS syntax", async () => {
    assert.deepEqual(await search(`platypus ${"x".repeat(200)}`), {
      query: `platypus ${"x".repeat(200)}`,
      total: 0,
      more: false,
      page: 1,
      results: [],
    });
    assert.equal((await search("the and of")).total, 0);
    assert.equal((await search("")).total, 0);
    for (const q of ['"', "platypus OR NOT", "title:platypus", "NEAR(a b)", "*", "platypus^", "') --"])
      assert.equal((await site.visit(`/_search?q=${encodeURIComponent(q)}`)).status, 200, q);
    assert.equal((await search("the platypus")).total, 12, "stop words are dropped from a query");
  });

  it("a page changed, moved, unpublished or deleted is found (or not) on the next request", async () => {
    const id = await site.page("Numbat", "plain");
    ok(await site.api("PATCH", `/pages/${id}`, { title: "Bilby" }), "rename");
    assert.deepEqual(await titles("numbat"), []);
    assert.deepEqual(await titles("bilby"), ["Bilby"]);
    const parent = await site.page("Burrows", "plain");
    ok(await site.api("PATCH", `/pages/${id}`, { parent }), "move");
    assert.equal(
      (await search("bilby")).results[0]?.url,
      `${site.origin}/burrows/numbat/`,
      "the slug stays; the address follows the move",
    );
    ok(await site.api("PATCH", `/pages/${parent}`, { status: "draft" }), "unpublish the parent");
    assert.deepEqual(await titles("bilby"), []);
    ok(await site.api("PATCH", `/pages/${parent}`, { status: "publish" }), "publish the parent");
    assert.deepEqual(await titles("bilby"), ["Bilby"]);
    ok(await site.api("DELETE", `/pages/${id}`, undefined), "trash");
    assert.deepEqual(await titles("bilby"), []);
  });

  it("a site deleted takes its pages' entries with it", async () => {
    const other = await seoSite(t);
    await other.frame("plain", "<p>x</p>");
    const id = await other.page("Wombat gone", "plain");
    const key = sql.raw(t.store.dialect === "postgres" ? "page_id" : "rowid");
    const entries = async () =>
      Number(
        (await sql<{ n: number }>`select count(*) as n from page_search where ${key} = ${id}`.execute(t.store.db))
          .rows[0]?.n,
      );
    assert.equal(await entries(), 1);
    ok(await t.call("DELETE", `/api/sites/${other.id}`), "delete the site");
    assert.equal(await entries(), 0);
  });

  it("a page without an entry (made before the index was) gets one at the next start", async () => {
    const id = await site.page("Dingo", "plain");
    const key = sql.raw(t.store.dialect === "postgres" ? "page_id" : "rowid");
    await sql`delete from page_search where ${key} = ${id}`.execute(t.store.db);
    assert.deepEqual(await titles("dingo"), []);
    assert.ok((await catchUpSearchIndex(t.store.db)) >= 1);
    assert.deepEqual(await titles("dingo"), ["Dingo"]);
    await catchUpSearchIndex(t.store.db);
    assert.deepEqual(await titles("dingo"), ["Dingo"], "made once");
  });
});

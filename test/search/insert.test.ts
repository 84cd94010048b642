// svc/search (docs/search.md, "The search insert"): a labelled search form sent by GET to the page
// itself; on that page, `?q=` shows the results (title links, escaped snippets with marks, dates),
// pages of ten with prev/next and the page shown marked, or a line saying nothing was found. The
// page without `q` is a static copy kept as any other; an answer to `?q=` is read each time (from
// memory or not), with no validator and no-store. Texts from the site's strings t.search.*.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ok, seoSite, startTestApp, type SeoSite } from "../seo/helpers.ts";
import type { TestApp } from "../support/app.ts";
import { rawHeader, rawRequest } from "../support/raw-http.ts";

export const SEARCH_FRAME =
  '<!DOCTYPE html><html lang="en"><head><title>Search</title></head><body><main><h1>Search</h1><!-- svc/search /--></main></body></html>';

describe("svc/search", () => {
  let t: TestApp;
  let site: SeoSite;
  let port = 0;
  const get = (path: string, headers: Record<string, string> = {}) =>
    rawRequest(port, path, { host: site.host, headers });
  before(async () => {
    t = await startTestApp();
    site = await seoSite(t);
    await site.frame("plain", '<main data-op-bind=\'{"html":"page.content"}\'></main>');
    await site.frame("search", SEARCH_FRAME);
    await site.page("Search", "search", { slug: "search" });
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    port = (t.app.server.address() as { port: number }).port;
  });
  after(() => t.close());

  it("prints a labelled search form sent to the page itself; the frame warns of no missing string", async () => {
    const frame = ok(await site.api("POST", "/frames", { slug: "search-check", html: SEARCH_FRAME }), "frame", 201);
    assert.ok(
      !frame.warnings.some((w: { code: string }) => w.code === "unknown_string"),
      JSON.stringify(frame.warnings),
    );
    const page = await get("/search/");
    assert.equal(page.status, 200);
    assert.match(page.body, /<form class="svc-search-form" role="search" method="get">/);
    assert.match(
      page.body,
      /<label for="svc-search-q">Search<\/label> <input type="search" id="svc-search-q" name="q" value=""/,
    );
    assert.doesNotMatch(page.body, /<form[^>]* action=/, "no action: the form is sent to the page itself");
    assert.doesNotMatch(page.body, /svc-search-results/, "no results without a query");
    assert.equal(rawHeader(page, "x-svc-printed"), "static");
    assert.ok(rawHeader(page, "etag"), "the page without q is kept and validated as any other");
  });

  it("shows the results of ?q= — title links, snippets escaped but for their marks, dates — read on each request", async () => {
    await site.page("Quoll <b>house</b>", "plain", { content: "<p>The quoll &lt;script&gt; sleeps by day.</p>" });
    await get("/search/"); // now in memory
    const answer = await get("/search/?q=quoll", { "if-none-match": "*" });
    assert.equal(answer.status, 200, "a validator never answers a search with 304");
    assert.equal(rawHeader(answer, "cache-control"), "no-store");
    assert.equal(rawHeader(answer, "etag"), undefined);
    assert.match(answer.body, /value="quoll"/);
    assert.match(answer.body, /<h2 id="svc-search-heading">Results for “quoll”<\/h2>/);
    assert.match(answer.body, /<p class="svc-search-count">1 result<\/p>/);
    assert.match(
      answer.body,
      new RegExp(`<li><h3><a href="${site.origin}/quoll-b-house-b/">Quoll &lt;b&gt;house&lt;/b&gt;</a></h3>`),
    );
    assert.match(
      answer.body,
      /<p>The <mark>quoll<\/mark> &lt;script&gt; sleeps by day\. <time datetime="\d{4}-\d\d-\d\dT[\d:]+Z">/,
    );
    await site.page("Quoll again", "plain", { content: "<p>Another quoll.</p>" });
    assert.match((await get("/search/?q=quoll")).body, /2 results/, "a page published since is found at once");
  });

  it("escapes the query where it is shown back", async () => {
    const answer = await get(`/search/?q=${encodeURIComponent('"><script>alert(1)</script>')}`);
    assert.equal(answer.status, 200);
    assert.doesNotMatch(answer.body, /<script>alert/);
    assert.match(answer.body, /value="&quot;&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;"/);
    assert.match(answer.body, /<p class="svc-search-none">No results found\.<\/p>/);
  });

  it("pages the results ten at a time: rel prev/next, the page shown aria-current, the list numbered on", async () => {
    for (let n = 1; n <= 23; n++) await site.page(`Bandicoot ${n}`, "plain");
    const first = await get("/search/?q=bandicoot");
    assert.equal((first.body.match(/<li>/g) ?? []).length, 10);
    assert.match(first.body, /<nav class="svc-search-pages" aria-label="Search results pages">/);
    assert.doesNotMatch(first.body, /rel="prev"/);
    assert.match(first.body, /<a href="\?q=bandicoot&amp;page=1" aria-current="page">1<\/a>/);
    assert.match(first.body, /<a rel="next" href="\?q=bandicoot&amp;page=2">Next<\/a>/);
    const second = await get("/search/?q=bandicoot&page=2");
    assert.match(second.body, /<ol class="svc-search-list" start="11">/);
    assert.match(second.body, /<a rel="prev" href="\?q=bandicoot&amp;page=1">Previous<\/a>/);
    assert.match(second.body, /aria-current="page">2<\/a>/);
    const third = await get("/search/?q=bandicoot&page=3");
    assert.equal((third.body.match(/<li>/g) ?? []).length, 3);
    assert.doesNotMatch(third.body, /rel="next"/);
  });

  it("prints the site's strings t.search.* in place of the English texts", async () => {
    ok(
      await site.api("PUT", "/strings", {
        strings: { "search.label": "Find", "search.none": "Nothing here.", "search.results": "Found for {query}" },
      }),
      "strings",
    );
    const page = await get("/search/");
    assert.match(page.body, /<label for="svc-search-q">Find<\/label>/);
    const answer = await get("/search/?q=zzzz");
    assert.match(answer.body, /<h2 id="svc-search-heading">Found for zzzz<\/h2>/);
    assert.match(answer.body, /Nothing here\./);
  });

  it("a page without svc/search answers ?q= as it would without it, from memory and validated", async () => {
    const id = await site.page("Plain page", "plain", { slug: "plain-page" });
    assert.ok(id);
    await get("/plain-page/");
    const answer = await get("/plain-page/?q=quoll");
    assert.ok(rawHeader(answer, "etag"));
    assert.doesNotMatch(answer.body, /svc-search/);
  });
});

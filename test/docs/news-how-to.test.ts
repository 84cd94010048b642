// docs/guide/how-to/news-section.md replayed as the other how-to pages are (how-to-pages.ts): its
// curl blocks in order, each answer holding the excerpt the page shows after it. Then what the
// page promises is checked once more on its own: the list newest first two to a page, the posts'
// Markdown printed as HTML, the feed, the scheduled post hidden until its date and shown, by the
// scheduler's own look at a clock past that date, on the list, in the feed and at its address;
// the tag's list; the refused write writing nothing.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { serviceContext } from "../../src/app-deps.ts";
import { publishDue } from "../../src/pages/scheduler.ts";
import { startTestApp, type Answer, type TestApp } from "../support/app.ts";
import { replayPage } from "./how-to-pages.ts";

const PAGE = "docs/guide/how-to/news-section.md";

function visit(t: TestApp, path: string): Promise<Answer> {
  return t.call("GET", path, { token: null, headers: { host: "localhost:8080" } });
}

/** The titles of the list's posts on a public page, in order. */
const listed = (html: string) => [...html.matchAll(/<h2><a href="[^"]*">([^<]*)<\/a><\/h2>/g)].map((m) => m[1]);
/** The titles of a feed's entries, in order. */
const entries = (xml: string) =>
  [...xml.matchAll(/<entry>\s*<title type="html"><!\[CDATA\[([^\]]*)\]\]><\/title>/g)].map((m) => m[1]);

const silent = { info() {}, error() {} };

describe("the news how-to", () => {
  it("news-section.md: its calls work in order and answer what the page shows; the list is paged newest first, the posts print their Markdown, the feed lists them, the scheduled post shows everywhere once its date has come", async () => {
    const t = await startTestApp();
    try {
      const done = await replayPage(t, PAGE);
      assert.ok(done.length >= 14, `only ${done.length} calls`);

      const first = await visit(t, "/news/");
      assert.deepEqual(listed(first.text), ["Award for the harbour project", "We have moved"]);
      const second = await visit(t, "/news/page/2/");
      assert.deepEqual(listed(second.text), ["Summer party", "Spring fair"], "the post published now is the oldest");
      assert.equal((await visit(t, "/news/page/3/")).status, 404);

      const moved = await visit(t, "/news/we-have-moved/");
      assert.match(moved.text, /<strong>Hafenstraße 5<\/strong>/);
      assert.match(moved.text, /<h2 id="opening-hours">Opening hours<\/h2>/);
      assert.match(moved.text, /<table>[\s\S]*<td>Monday to Friday<\/td>/);
      assert.match(moved.text, /<time datetime="2026-10-01T07:00:00Z">October 1, 2026<\/time>/);
      const award = await visit(t, "/news/award-for-the-harbour-project/");
      assert.match(award.text, /<input[^>]*type="checkbox"[^>]*checked/, "the done task");

      const feed = await visit(t, "/news/feed.xml");
      assert.equal(feed.status, 200);
      assert.deepEqual(entries(feed.text), [
        "Award for the harbour project",
        "We have moved",
        "Summer party",
        "Spring fair",
      ]);
      assert.match(
        feed.text,
        /<content type="html"><!\[CDATA\[<p>Our new office is at <strong>Hafenstraße 5<\/strong>/,
      );

      // The scheduled post: hidden until its date, then published by the scheduler's look.
      assert.equal((await visit(t, "/news/happy-new-year/")).status, 404);
      assert.ok(!(await visit(t, "/sitemap.xml")).text.includes("happy-new-year"));
      const ctx = { ...serviceContext(t.deps), clock: () => Date.parse("2031-01-01T08:00:01Z") };
      assert.equal(await publishDue(ctx, silent), 1);
      const post = await visit(t, "/news/happy-new-year/");
      assert.equal(post.status, 200);
      assert.match(post.text, /<time datetime="2031-01-01T08:00:00Z">January 1, 2031<\/time>/);
      assert.match(post.text, /All the best for <strong>2031<\/strong>!/);
      assert.deepEqual(listed((await visit(t, "/news/")).text), ["Happy new year", "Award for the harbour project"]);
      assert.equal(entries((await visit(t, "/news/feed.xml")).text)[0], "Happy new year");
      assert.equal((await t.call("GET", "/api/site/1/pages?status=future")).body.pages.length, 0);

      const press = await visit(t, "/press/");
      assert.equal(press.text.match(/<li>/g)?.length, 2, "the two press posts only");

      const late = await t.call("GET", "/api/site/1/pages/late");
      assert.equal(late.status, 404, "the refused post was not written");
    } finally {
      await t.close();
    }
  });
});

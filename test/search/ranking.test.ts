// Search ranks a bounded set of candidates (docs/search.md, "Ranking"; src/search/ranking.ts):
// the newest 1,000 matches and the newest pages whose title holds every word. A page titled with
// a word found on many newer pages is still the first result; the count stops at 1,000 and says
// there are more (`more`, and "1,000+ results" on a page printing svc/search); paging stops there.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { seoSite, startTestApp, type SeoSite } from "../seo/helpers.ts";
import type { TestApp } from "../support/app.ts";
import { reindexPages } from "../../src/search/index-sync.ts";

const NEWER = 1_500;

describe("site search over many matches", () => {
  let t: TestApp;
  let site: SeoSite;
  before(async () => {
    t = await startTestApp();
    site = await seoSite(t);
    await site.frame("plain", '<main data-op-bind=\'{"html":"page.content"}\'></main>');
    await site.frame("search", "<main><!-- svc/search /--></main>");
    await site.page("Search", "search", { slug: "search" });
    await site.page("Pricing", "plain", { content: "<p>Plans for every team.</p>" });
    const template = await site.page("Plan 0", "plain", { content: "<p>Our pricing is fair.</p>" });
    // The newer pages are copies of one written through the API (written one by one they would
    // take minutes), indexed as a write does it.
    const { id: _id, ...columns } = await t.store.db
      .selectFrom("pages")
      .selectAll()
      .where("id", "=", template)
      .executeTakeFirstOrThrow();
    const rows = Array.from({ length: NEWER }, (_, n) => ({
      ...columns,
      title: `Plan ${n + 1}`,
      slug: `plan-${n + 1}`,
      path: `plan-${n + 1}`,
      translation_group: null,
    }));
    await t.store.db.transaction().execute(async (trx) => {
      for (let at = 0; at < rows.length; at += 250)
        await trx
          .insertInto("pages")
          .values(rows.slice(at, at + 250))
          .execute();
      const ids = await trx.selectFrom("pages").select("id").where("site_id", "=", site.id).where("id", ">", template);
      await reindexPages(
        trx,
        site.id,
        (await ids.execute()).map((row) => row.id),
      );
    });
  });
  after(() => t.close());

  async function search(q: string, page = 1) {
    const answer = await site.visit(`/_search?${new URLSearchParams({ q, page: String(page) })}`);
    assert.equal(answer.status, 200, answer.text);
    return answer.body as {
      total: number;
      more: boolean;
      page: number;
      results: Array<{ title: string; url: string }>;
    };
  }

  it("finds an old page titled with a word of 1,500 newer pages' text first", async () => {
    const first = await search("pricing");
    assert.equal(first.results[0]?.title, "Pricing");
    assert.equal(first.results[0]?.url, `${site.origin}/pricing/`);
    assert.equal(first.results[1]?.title, `Plan ${NEWER}`, "then the newest");
    assert.equal((await search("prici")).results[0]?.title, "Pricing", "the last word a prefix");
  });

  it("counts up to 1,000 and says there are more; paging stops at 1,000", async () => {
    const first = await search("pricing");
    assert.equal(first.total, 1_000);
    assert.equal(first.more, true);
    const last = await search("pricing", 100);
    assert.equal(last.page, 100);
    assert.equal(last.results.length, 10);
    assert.equal((await search("pricing", 101)).page, 100, "no page past the 100th");
    const few = await search("plans");
    assert.deepEqual([few.total, few.more], [1, false]);
  });

  it("a page printing svc/search says 1,000+ results and links to 100 pages at most", async () => {
    const answer = await site.visit("/search/?q=pricing");
    assert.equal(answer.status, 200);
    assert.match(answer.text, /<p class="svc-search-count">1,000\+ results<\/p>/);
    assert.match(answer.text, /href="\?q=pricing&amp;page=100"/);
    assert.doesNotMatch(answer.text, /page=101/);
  });
});

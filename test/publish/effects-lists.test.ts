// Effect table, paged lists and feeds (docs/publishing.md; pattern in effects-helpers.ts): a page
// entering a paged list, leaving it, moving between its pages, a page tagged into a baked list of
// every page, the sitemap listing a new page of a list, and a feed after a write. Every address of
// the list is fetched twice before the write; the next request of each shows the write.
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { effects, gone, ok, served, suite } from "./effects-helpers.ts";

const item = `<li data-op-bind='{"text": "item.title"}'></li>`;
/** The titles a list prints, in order. */
const titles = (html: string) => [...html.matchAll(/<li>([^<]*)<\/li>/g)].map((m) => m[1]);
/** The titles of a feed's entries, in order. */
const entries = (xml: string) =>
  [...xml.matchAll(/<title type="html"><!\[CDATA\[([^\]]*)\]\]><\/title>/g)].map((m) => m[1]);

describe(suite("lists"), () => {
  const fx = effects();
  before(async () => {
    // On request (pages.children): the page's children, newest first, two a page.
    await fx.frame(
      "lx-index",
      `<ul><!-- svc/repeat {"source": "pages.children", "order_by": "-date", "page_size": 2} -->${item}<!-- /svc/repeat --></ul><!-- svc/pagination /-->`,
    );
    // Baked: every page tagged lx, by title, two a page.
    await fx.frame(
      "lx-tagged",
      `<ul><!-- svc/repeat {"source": "pages", "match": {"tags": ["lx"]}, "order_by": "title", "page_size": 2} -->${item}<!-- /svc/repeat --></ul>`,
    );
    await fx.frame("lx-plain", "<p>plain</p>");
  });

  /** A list page with posts dated on these days of January 2024, titled `<prefix><day>`. */
  async function list(slug: string, days: number[], extra: Record<string, unknown> = {}): Promise<Map<number, number>> {
    const id = await fx.page(slug, "lx-index", extra);
    const posts = new Map<number, number>();
    for (const day of days)
      posts.set(
        day,
        await fx.page(`${slug}-${day}`, "lx-plain", { parent: id, date: `2024-01-${String(day).padStart(2, "0")}` }),
      );
    return posts;
  }

  it("POST /pages under a page with a paged list: it enters the list, every page of the list moves, a new last page answers", async () => {
    await list("lx-enter", [1, 2, 3, 4]);
    assert.deepEqual(titles((await fx.primed("/lx-enter/")).text), ["lx-enter-4", "lx-enter-3"]);
    assert.deepEqual(titles((await fx.primed("/lx-enter/page/2/")).text), ["lx-enter-2", "lx-enter-1"]);
    gone(await fx.visit("/lx-enter/page/3/"), "no third page yet");
    const parent = ok(await fx.api("GET", "/pages/lx-enter"), "parent").page.id;
    await fx.page("lx-enter-5", "lx-plain", { parent, date: "2024-01-05" });
    assert.deepEqual(titles(served(await fx.visit("/lx-enter/"), "page 1", "on_request")), [
      "lx-enter-5",
      "lx-enter-4",
    ]);
    assert.deepEqual(titles(served(await fx.visit("/lx-enter/page/2/"), "page 2", "on_request")), [
      "lx-enter-3",
      "lx-enter-2",
    ]);
    assert.deepEqual(titles(served(await fx.visit("/lx-enter/page/3/"), "page 3", "on_request")), ["lx-enter-1"]);
  });

  it("PATCH /pages status draft: it leaves the list; the last page left empty answers 404", async () => {
    const posts = await list("lx-leave", [1, 2, 3, 4, 5]);
    for (const path of ["/lx-leave/", "/lx-leave/page/2/", "/lx-leave/page/3/"]) await fx.primed(path);
    ok(await fx.api("PATCH", `/pages/${posts.get(5)}`, { status: "draft" }), "draft");
    assert.deepEqual(titles(served(await fx.visit("/lx-leave/"), "page 1")), ["lx-leave-4", "lx-leave-3"]);
    assert.deepEqual(titles(served(await fx.visit("/lx-leave/page/2/"), "page 2")), ["lx-leave-2", "lx-leave-1"]);
    gone(await fx.visit("/lx-leave/page/3/"), "page 3", "no_list_page");
  });

  it("PATCH /pages date: the page moves between the pages of the list", async () => {
    const posts = await list("lx-move", [1, 2, 3, 4]);
    for (const path of ["/lx-move/", "/lx-move/page/2/"]) await fx.primed(path);
    ok(await fx.api("PATCH", `/pages/${posts.get(1)}`, { date: "2024-02-01" }), "new date");
    assert.deepEqual(titles(served(await fx.visit("/lx-move/"), "page 1")), ["lx-move-1", "lx-move-4"]);
    assert.deepEqual(titles(served(await fx.visit("/lx-move/page/2/"), "page 2")), ["lx-move-3", "lx-move-2"]);
  });

  it("PATCH /pages tags: a page tagged into a baked list of every page enters it, on its static first page and on the next", async () => {
    await fx.page("lx-tagged", "lx-tagged");
    for (const name of ["lx-b", "lx-d", "lx-f"]) await fx.page(name, "lx-plain", { tags: ["lx"] });
    const other = await fx.page("lx-a", "lx-plain");
    assert.deepEqual(titles(served(await fx.primed("/lx-tagged/"), "page 1", "static")), ["lx-b", "lx-d"]);
    assert.deepEqual(titles((await fx.primed("/lx-tagged/page/2/")).text), ["lx-f"]);
    ok(await fx.api("PATCH", `/pages/${other}`, { tags: ["news", "lx"] }), "tagged");
    assert.deepEqual(titles(served(await fx.visit("/lx-tagged/"), "page 1", "static")), ["lx-a", "lx-b"]);
    assert.deepEqual(titles(served(await fx.visit("/lx-tagged/page/2/"), "page 2", "on_request")), ["lx-d", "lx-f"]);
  });

  it("POST /pages into a paged list: the sitemap lists the list's new last page", async () => {
    await list("lx-map", [1, 2]);
    assert.ok(!(await fx.primed("/sitemap.xml")).text.includes("/lx-map/page/2/"));
    const parent = ok(await fx.api("GET", "/pages/lx-map"), "parent").page.id;
    await fx.page("lx-map-3", "lx-plain", { parent, date: "2024-01-03" });
    assert.ok(served(await fx.visit("/sitemap.xml"), "sitemap").includes("/lx-map/page/2/</loc>"));
  });

  it("PATCH and POST /pages of a feed's children: the next request of the feed shows the new title, content and entry", async () => {
    const posts = await list("lx-feed", [1, 2], { feed: true });
    assert.deepEqual(entries((await fx.primed("/lx-feed/feed.xml")).text), ["lx-feed-2", "lx-feed-1"]);
    ok(await fx.api("PATCH", `/pages/${posts.get(1)}`, { title: "Renamed", content: "<p>news</p>" }), "child");
    const renamed = served(await fx.visit("/lx-feed/feed.xml"), "feed");
    assert.deepEqual(entries(renamed), ["lx-feed-2", "Renamed"]);
    assert.match(renamed, /<content type="html"><!\[CDATA\[<p>news<\/p>\]\]><\/content>/);
    await fx.primed("/lx-feed/feed.xml");
    const parent = ok(await fx.api("GET", "/pages/lx-feed"), "parent").page.id;
    await fx.page("lx-feed-3", "lx-plain", { parent, date: "2024-01-03" });
    assert.deepEqual(entries(served(await fx.visit("/lx-feed/feed.xml"), "feed")), [
      "lx-feed-3",
      "lx-feed-2",
      "Renamed",
    ]);
  });
});

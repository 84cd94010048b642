// Effect table, scheduled publishing (docs/publishing.md; pattern in effects-helpers.ts): a page
// scheduled a few seconds ahead answers 404 and is in no list, menu, sidebar or sitemap; at its
// date a process's scheduler (every 300 ms here, SVC_SCHEDULE_MS) publishes it through the write
// path, and each address shows it within the wait. There is no answer to time the next request
// by, so each address is read until it shows the page (a bounded number of times). Under
// `npm run test:pg` both processes look for the page at its date: one publishes it, once (one
// `page.published` event).
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { bind, effects, gone, linkTitles, ok, served, suite, type Reply } from "./effects-helpers.ts";

const link = `<a data-op-bind='{"href": "item.url", "text": "item.title"}'></a>`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** An ISO 8601 date `ms` from now, to the second (as dates are stored). */
const fromNow = (ms: number) => `${new Date(Date.now() + ms).toISOString().slice(0, 19)}Z`;
/** The paths of the <loc>s of a sitemap. */
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);

describe(suite("scheduled"), () => {
  const fx = effects({ SVC_SCHEDULE_MS: "300" });

  /** Reads `path` until `shows` holds of the answer (at most 20 s); answers the last reading. */
  async function until(path: string, shows: (reply: Reply) => boolean): Promise<Reply> {
    let reply = await fx.visit(path);
    for (let i = 0; i < 100 && !shows(reply); i++) {
      await sleep(200);
      reply = await fx.visit(path);
    }
    return reply;
  }

  /** The `page.published` events of page `id`. */
  const publishedEvents = async (id: number) =>
    (ok(await fx.api("GET", "/events?type=page.published"), "events").events as any[]).filter(
      (event) => event.object.id === String(id),
    );

  before(async () => {
    await fx.frame("sc-plain", "<p>plain page</p>");
    await fx.frame(
      "sc-list",
      `<nav class="all"><ul><!-- svc/repeat {"source": "pages"} --><li>${link}</li><!-- /svc/repeat --></ul></nav>`,
    );
    await fx.frame("sc-menu", `<nav class="menu"><!-- svc/menu {"location": "header"} /--></nav>`);
    await fx.frame("sc-side", `<h1 ${bind("text", "page.title")}></h1><!-- svc/sidebar {"name": "news"} /-->`);
    await fx.page("sc-all", "sc-list");
    await fx.page("sc-menu-page", "sc-menu");
    await fx.page("sc-news", "sc-side", { title: "News" });
    await fx.page("sc-first", "sc-side", { title: "First post", parent: "sc-news" });
    ok(await fx.api("PUT", "/sidebars/news", { root: "sc-news" }), "generated sidebar", 201);
    ok(await fx.api("POST", "/menus", { name: "Header", location: "header", items: [] }), "menu", 201);
  });

  it("POST /pages status future: 404 and in no list, sidebar or sitemap until its date; then it answers, and the page list, the generated sidebar and the sitemap show it", async () => {
    for (const path of ["/sc-all/", "/sc-news/sc-first/", "/sitemap.xml"]) await fx.primed(path);
    const date = fromNow(3_000);
    const made = ok(
      await fx.api("POST", "/pages", {
        title: "Scheduled post",
        slug: "sc-post",
        parent: "sc-news",
        frame: "sc-side",
        status: "future",
        date,
      }),
      "POST future",
      201,
    );
    assert.equal(made.page.status, "future");
    gone(await fx.visit("/sc-news/sc-post/"), "before its date", "draft");
    assert.ok(!linkTitles(served(await fx.visit("/sc-all/"), "list")).includes("Scheduled post"));
    assert.ok(!linkTitles(served(await fx.visit("/sc-news/sc-first/"), "sidebar")).includes("Scheduled post"));
    assert.ok(!locs(served(await fx.visit("/sitemap.xml"), "sitemap")).includes("/sc-news/sc-post/"));

    served(await until("/sc-news/sc-post/", (r) => r.status === 200), "at its date");
    assert.ok(Date.now() >= Date.parse(date), "not before its date");
    const list = await until("/sc-all/", (r) => linkTitles(r.text).includes("Scheduled post"));
    assert.ok(linkTitles(served(list, "list")).includes("Scheduled post"), "the page list");
    const sidebar = await until("/sc-news/sc-first/", (r) => linkTitles(r.text).includes("Scheduled post"));
    assert.ok(linkTitles(served(sidebar, "sidebar")).includes("Scheduled post"), "the generated sidebar");
    const sitemap = await until("/sitemap.xml", (r) => locs(r.text).includes("/sc-news/sc-post/"));
    assert.ok(locs(served(sitemap, "sitemap")).includes("/sc-news/sc-post/"), "the sitemap");
    const page = ok(await fx.api("GET", `/pages/${made.page.id}`), "the record").page;
    assert.deepEqual([page.status, page.date], ["publish", date]);
    assert.equal((await publishedEvents(made.page.id)).length, 1, "published once");
  });

  it("PATCH /pages status future of a page in a menu: it leaves the menu and answers 404; at its date it is back in the menu and answers", async () => {
    const id = await fx.page("sc-again", "sc-plain");
    ok(
      await fx.api("PUT", "/menus/~header/items", {
        items: [
          { page: id, title: "Again item" },
          { url: "/elsewhere", title: "Other item" },
        ],
      }),
      "menu items",
    );
    for (const path of ["/sc-again/", "/sc-menu-page/"]) await fx.primed(path);
    const date = fromNow(3_000);
    const patched = ok(await fx.api("PATCH", `/pages/${id}`, { status: "future", date }), "PATCH future");
    assert.equal(patched.page.status, "future");
    gone(await fx.visit("/sc-again/"), "before its date", "draft");
    assert.deepEqual(linkTitles(served(await fx.visit("/sc-menu-page/"), "menu", "static")), ["Other item"]);

    served(await until("/sc-again/", (r) => r.status === 200), "at its date");
    const menu = await until("/sc-menu-page/", (r) => linkTitles(r.text).length === 2);
    assert.deepEqual(linkTitles(served(menu, "menu", "static")), ["Again item", "Other item"]);
    assert.equal((await publishedEvents(id)).length, 1, "published once, at its date (made published: created)");
  });
});

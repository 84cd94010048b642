// Effect table, site search (docs/publishing.md, the search rows; docs/search.md): every page
// write keeps the index in its own transaction, so the very next search — GET /_search and a page
// printing svc/search, answered `?q=` — finds the page as it now stands, or no longer finds it.
// The search page is fetched twice before each write (its static copy in memory); its answers
// to `?q=` are read anew each time. Under `npm run test:pg` the write goes through one process and
// the searches through the other.
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { bind, effects, ok, served, suite } from "./effects-helpers.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const fromNow = (ms: number) => `${new Date(Date.now() + ms).toISOString().slice(0, 19)}Z`;

describe(suite("search"), () => {
  const fx = effects({ SVC_SCHEDULE_MS: "300", SVC_PUBLIC_RATE_LIMIT_PER_MIN: "100000" });

  /** What GET /_search finds: `title path` per result, best first. */
  async function found(q: string, query = "", host = "localhost"): Promise<string[]> {
    const answer = ok(await fx.visit(`/_search?q=${encodeURIComponent(q)}${query}`, host), `search ${q}`);
    return (answer.results as Array<{ title: string; url: string }>).map(
      (result) => `${result.title} ${new URL(result.url).pathname}`,
    );
  }

  /** What the page printing svc/search lists for `?q=`, the same way, checking it is never kept. */
  async function listed(q: string): Promise<string[]> {
    const answer = await fx.visit(`/fe-search/?q=${encodeURIComponent(q)}`);
    const html = served(answer, `svc/search ${q}`);
    assert.equal(answer.headers["cache-control"], "no-store");
    return [...html.matchAll(/<li><h3><a href="([^"]*)">([^<]*)<\/a>/g)].map(
      (m) => `${m[2]} ${new URL(m[1]!).pathname}`,
    );
  }

  /** Both agree, and show `expected`. */
  async function shows(q: string, expected: string[], what: string): Promise<void> {
    assert.deepEqual(await found(q), expected, `${what}: /_search`);
    assert.deepEqual(await listed(q), expected, `${what}: svc/search`);
  }

  before(async () => {
    await fx.frame("fe-plain", `<main ${bind("html", "page.content")}></main>`);
    await fx.frame("fe-search", "<main><h1>Search</h1><!-- svc/search /--></main>");
    await fx.page("fe-search", "fe-search", { title: "Search" });
    await fx.primed("/fe-search/");
  });

  it("POST /pages: a published page is found at once; a draft is not", async () => {
    await shows("gecko", [], "before");
    await fx.page("fe-gecko", "fe-plain", { title: "Gecko", content: "<p>A small lizard.</p>" });
    await fx.page("fe-gecko-draft", "fe-plain", { title: "Gecko draft", status: "draft" });
    await shows("gecko", ["Gecko /fe-gecko/"], "after");
  });

  it("PATCH /pages/{ref} title and content: the new words find it, the old ones no longer do", async () => {
    const id = await fx.page("fe-iguana", "fe-plain", { title: "Iguana", content: "<p>Green and basking.</p>" });
    await shows("basking", ["Iguana /fe-iguana/"], "before");
    ok(await fx.api("PATCH", `/pages/${id}`, { title: "Monitor", content: "<p>Large and swimming.</p>" }), "PATCH");
    await shows("basking", [], "old text");
    await shows("iguana", [], "old title");
    await shows("swimming", ["Monitor /fe-iguana/"], "new text");
  });

  it("PATCH /pages/{ref} status: a draft leaves the results with its descendants, published again it is back", async () => {
    const parent = await fx.page("fe-reptiles", "fe-plain", { title: "Reptiles" });
    await fx.page("fe-skink", "fe-plain", { title: "Skink", parent });
    await shows("skink", ["Skink /fe-reptiles/fe-skink/"], "before");
    ok(await fx.api("PATCH", `/pages/${parent}`, { status: "draft" }), "draft");
    await shows("skink", [], "its parent a draft");
    ok(await fx.api("PATCH", `/pages/${parent}`, { status: "publish" }), "publish");
    await shows("skink", ["Skink /fe-reptiles/fe-skink/"], "published again");
  });

  it("PATCH /pages/{ref} parent and slug: the results link to the new addresses, descendants' too", async () => {
    const from = await fx.page("fe-from", "fe-plain", { title: "From" });
    const to = await fx.page("fe-to", "fe-plain", { title: "To" });
    const id = await fx.page("fe-tortoise", "fe-plain", { title: "Tortoise", parent: from });
    await fx.page("fe-hatchling", "fe-plain", { title: "Tortoise hatchling", parent: id });
    ok(await fx.api("PATCH", `/pages/${id}`, { parent: to }), "move");
    await shows(
      "tortoise",
      ["Tortoise /fe-to/fe-tortoise/", "Tortoise hatchling /fe-to/fe-tortoise/fe-hatchling/"],
      "moved",
    );
    ok(await fx.api("PATCH", `/pages/${to}`, { slug: "fe-elsewhere" }), "the parent's slug");
    await shows(
      "tortoise",
      ["Tortoise /fe-elsewhere/fe-tortoise/", "Tortoise hatchling /fe-elsewhere/fe-tortoise/fe-hatchling/"],
      "renamed ancestor",
    );
  });

  it("DELETE /pages/{ref} (trash): not found, with its descendants; published again, found", async () => {
    const id = await fx.page("fe-turtle", "fe-plain", { title: "Turtle" });
    await fx.page("fe-turtle-egg", "fe-plain", { title: "Turtle egg", parent: id });
    await shows("turtle", ["Turtle /fe-turtle/", "Turtle egg /fe-turtle/fe-turtle-egg/"], "before");
    ok(await fx.api("DELETE", `/pages/${id}`), "trash");
    await shows("turtle", [], "trashed");
    ok(await fx.api("PATCH", `/pages/${id}`, { status: "publish" }), "out of the trash");
    await shows("turtle", ["Turtle /fe-turtle/", "Turtle egg /fe-turtle/fe-turtle-egg/"], "back");
  });

  it("DELETE /pages/{ref}?force=true and POST /trash/pages/{id}/restore: gone, its children found at their new level; restored, all back", async () => {
    const id = await fx.page("fe-newt", "fe-plain", { title: "Newt" });
    await fx.page("fe-eft", "fe-plain", { title: "Newt eft", parent: id });
    ok(await fx.api("DELETE", `/pages/${id}?force=true`), "delete for good");
    await shows("newt", ["Newt eft /fe-eft/"], "deleted");
    const items = ok(await fx.api("GET", "/trash"), "trash").items as Array<{ kind: string; id: string; slug: string }>;
    const entry = items.find((item) => item.kind === "pages" && item.slug === "fe-newt");
    assert.ok(entry, JSON.stringify(items));
    ok(await fx.api("POST", `/trash/pages/${entry.id}/restore`), "restore");
    await shows("newt", ["Newt /fe-newt/", "Newt eft /fe-newt/fe-eft/"], "restored");
  });

  it("POST /pages/{ref}/revisions/{n}/restore: the revision's title finds it again", async () => {
    const id = await fx.page("fe-axolotl", "fe-plain", { title: "Axolotl" });
    ok(await fx.api("PATCH", `/pages/${id}`, { title: "Salamander" }), "rename");
    await shows("axolotl", [], "renamed");
    ok(await fx.api("POST", `/pages/${id}/revisions/1/restore`), "restore revision 1");
    await shows("axolotl", ["Axolotl /fe-axolotl/"], "restored");
  });

  it("PATCH /seo/pages/{ref} noindex: never found while set", async () => {
    await fx.page("fe-chameleon", "fe-plain", { title: "Chameleon" });
    ok(await fx.api("PATCH", "/seo/pages/fe-chameleon", { noindex: true }), "noindex");
    await shows("chameleon", [], "noindex");
    ok(await fx.api("PATCH", "/seo/pages/fe-chameleon", { noindex: false }), "indexed");
    await shows("chameleon", ["Chameleon /fe-chameleon/"], "indexed again");
  });

  it("DELETE /frames/{ref} and POST /trash/frames/{id}/restore: frameless pages are not found; on their frame again, found", async () => {
    await fx.frame("fe-lone", `<main ${bind("html", "page.content")}></main>`);
    await fx.page("fe-anole", "fe-lone", { title: "Anole" });
    ok(await fx.api("DELETE", "/frames/fe-lone"), "delete the frame");
    await shows("anole", [], "frameless");
    const items = ok(await fx.api("GET", "/trash"), "trash").items as Array<{ kind: string; id: string; slug: string }>;
    const entry = items.find((item) => item.kind === "frames" && item.slug === "fe-lone");
    assert.ok(entry, JSON.stringify(items));
    ok(await fx.api("POST", `/trash/frames/${entry.id}/restore`), "restore the frame");
    await shows("anole", ["Anole /fe-anole/"], "on its frame again");
  });

  it("a scheduled page (status future) is not found until its date; then the scheduler's write makes it found", async () => {
    await fx.page("fe-basilisk", "fe-plain", { title: "Basilisk", status: "future", date: fromNow(2_000) });
    await shows("basilisk", [], "before its date");
    let titles: string[] = [];
    for (let i = 0; i < 100 && titles.length === 0; i++) {
      await sleep(200);
      titles = await found("basilisk");
    }
    assert.deepEqual(titles, ["Basilisk /fe-basilisk/"]);
    assert.deepEqual(await listed("basilisk"), ["Basilisk /fe-basilisk/"]);
  });

  it("POST /pages/language and DELETE /languages/{code}: a translation is found in its language; its language deleted, not", async () => {
    const host = "fe-langs.localhost";
    const site = await fx.site("Search languages", host);
    for (const code of ["en", "de"]) ok(await fx.api("POST", "/languages", { code }, site), code, 201);
    await fx.frame("fe-plain", `<main ${bind("html", "page.content")}></main>`, site);
    const en = await fx.page("fe-lizard", "fe-plain", { title: "Lizard", lang: "en" }, site);
    ok(
      await fx.api("POST", "/pages/language", { page: en, lang: "de", title: "Eidechse", slug: "fe-eidechse" }, site),
      "translation",
      201,
    );
    assert.deepEqual(await found("eidechse", "&lang=de", host), ["Eidechse /de/fe-eidechse/"]);
    assert.deepEqual(await found("eidechse", "", host), [], "not in the default language");
    ok(await fx.api("DELETE", "/languages/de", undefined, site), "DELETE de");
    assert.deepEqual(await found("eidechse", "&lang=de", host), []);
    assert.deepEqual(await found("lizard", "", host), ["Lizard /fe-lizard/"]);
  });
});

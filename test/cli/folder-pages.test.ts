// Pages in the folder with what a post has (date, tags, feed, format) and the translations they
// name: pull writes them, a push into an empty site makes the same pages linked as translations,
// a second push sends nothing, and status sees a change on either side.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { read, serve, tempDir, write, type Served } from "./harness.ts";
import { must, newSite, svcSite } from "./folder-helpers.ts";

describe("svc and pages: dates, tags, feeds, translations", () => {
  let t: Served;
  let source: number;
  const dir = tempDir("svc-folder-pages-");
  before(async () => {
    t = await serve();
    source = (await newSite(t, "Source")).id;
    await must(t, source, "POST", "/languages", { code: "en" });
    await must(t, source, "POST", "/languages", { code: "de" });
    await must(t, source, "POST", "/frames", { slug: "layout", html: "<main><!-- svc/content /--></main>" });
    const about = await must(t, source, "POST", "/pages", {
      title: "About",
      slug: "about",
      frame: "layout",
      content: "<p>About</p>",
      date: "2024-03-05T09:30:00Z",
      tags: ["team", "company"],
      feed: true,
    });
    await must(t, source, "POST", "/pages/language", {
      page: about.page.id,
      lang: "de",
      title: "Über uns",
      slug: "ueber-uns",
    });
  });
  after(async () => {
    await t.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("pull writes each page's date, tags, feed, format and its translations by path", async () => {
    const run = await svcSite(t, source, ["pull", dir]);
    assert.equal(run.code, 0, run.stderr);
    const about = JSON.parse(read(dir, "pages/en/about.json"));
    assert.deepEqual(Object.keys(about), [
      "title",
      "status",
      "date",
      "frame",
      "menu_order",
      "tags",
      "feed",
      "content_format",
      "translations",
      "seo",
      "fields",
      "content",
    ]);
    assert.equal(about.date, "2024-03-05T09:30:00Z");
    assert.deepEqual(about.tags, ["team", "company"]);
    assert.equal(about.feed, true);
    assert.equal(about.content_format, "html");
    assert.deepEqual(about.translations, { de: "/ueber-uns" });
    assert.deepEqual(JSON.parse(read(dir, "pages/de/ueber-uns.json")).translations, { en: "/about" });
  });

  it("a push into an empty site links the translations; a second push sends nothing", async () => {
    const target = (await newSite(t, "Target")).id;
    await must(t, target, "POST", "/languages", { code: "en" });
    await must(t, target, "POST", "/languages", { code: "de" });
    // --force: a new site has settings of its own already, which the folder's replace.
    const push = await svcSite(t, target, ["push", dir, "--force"]);
    assert.equal(push.code, 0, push.stdout + push.stderr);
    const about = (await must(t, target, "GET", "/pages/%2Fabout?lang=en")).page;
    const de = (await must(t, target, "GET", "/pages/%2Fueber-uns?lang=de")).page;
    assert.deepEqual(about.translations, { de: de.id, en: about.id });
    assert.deepEqual(about.tags, ["team", "company"]);
    assert.equal(about.date, "2024-03-05T09:30:00Z");
    assert.equal(about.feed, true);
    const before = t.writes();
    const again = await svcSite(t, target, ["push", dir]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /0 writes sent/);
    assert.equal(t.writes(), before);
    const status = await svcSite(t, target, ["status", dir]);
    assert.match(status.stdout, /in sync/);
  });

  it("status sees a tag changed on the server; a tag changed here is pushed", async () => {
    await must(t, source, "PATCH", "/pages/%2Fabout?lang=en", { tags: ["team"] });
    const status = await svcSite(t, source, ["status", dir]);
    assert.match(status.stdout, /^server\s+pages\/en\/about\.json/m);
    const pulled = await svcSite(t, source, ["pull", dir]);
    assert.equal(pulled.code, 0, pulled.stderr);
    const about = JSON.parse(read(dir, "pages/en/about.json"));
    assert.deepEqual(about.tags, ["team"]);
    write(dir, "pages/en/about.json", JSON.stringify({ ...about, tags: ["team", "press"] }));
    const push = await svcSite(t, source, ["push", dir]);
    assert.equal(push.code, 0, push.stderr);
    assert.match(push.stdout, /^update\s+pages\/en\/about\.json/m);
    assert.deepEqual((await must(t, source, "GET", "/pages/%2Fabout?lang=en")).page.tags, ["team", "press"]);
  });
});

// Templating through the API (docs/markup.md): layouts as frame references (records, dry runs, cycles,
// renames, rebakes), the warnings a frame write gives with their positions, and strings per
// language (the calls, refusals, what a write rebakes, the fallback to the default language).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { TestApp } from "../support/app.ts";
import { ok, seoSite as newSite, startTestApp } from "../seo/helpers.ts";

const BASE = `<!DOCTYPE html><html><head><!-- svc/slot {"name": "head"} --><title>x</title><!-- /svc/slot --></head><body><!-- svc/slot /--></body></html>`;

describe("templating through the API", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("a layout is a frame reference: the record and the write answer (dry runs too) carry layout; frame_refs and referenced_by name it; a layout write rebakes every frame on it, transitively, and their pages", async () => {
    const site = await newSite(t);
    await site.frame("base", BASE);
    const dry = ok(
      await site.api("POST", "/frames", {
        slug: "docs",
        html: `<!-- svc/layout {"name": "base"} /--><nav>docs</nav><!-- svc/slot /-->`,
        dry_run: true,
      }),
      "dry run",
    );
    assert.equal(dry.layout, "base");
    assert.equal(dry.frame.layout, "base");
    await site.frame("docs", `<!-- svc/layout {"name": "base"} /--><nav>docs</nav><!-- svc/slot /-->`);
    await site.frame("guide", `<!-- svc/layout {"name": "docs"} /--><p>guide</p>`);
    const page = await site.page("Guide", "guide");
    const guide = ok(await site.api("GET", "/frames/guide"), "GET").frame;
    assert.equal(guide.layout, "docs");
    assert.deepEqual(guide.frame_refs, ["docs"], "its layout, as an embedded frame");
    assert.deepEqual(ok(await site.api("GET", "/frames/base"), "GET base").frame.referenced_by, ["docs"]);
    assert.equal(ok(await site.api("GET", "/frames/base"), "GET base").frame.layout, null);
    const written = ok(
      await site.api("PUT", "/frames/base", { html: BASE.replace("<body>", "<body><header>new</header>") }),
      "layout write",
    );
    assert.deepEqual(written.rebaked.frames.map((f: { slug: string }) => f.slug).sort(), ["docs", "guide"]);
    assert.ok(written.rebaked.pages.includes(page));
    assert.match((await site.visit("/guide/")).text, /<header>new<\/header><nav>docs<\/nav><p>guide<\/p>/);
  });

  it("a cycle through layouts (and embeds) is refused like a frame cycle: 400 frame_cycle, nothing written", async () => {
    const site = await newSite(t);
    await site.frame("outer", `<!-- svc/frame {"name": "inner"} /--><!-- svc/slot /-->`);
    const refused = await site.api("POST", "/frames", {
      slug: "inner",
      html: `<!-- svc/layout {"name": "outer"} /-->x`,
    });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error, "frame_cycle");
    assert.equal((await site.api("GET", "/frames/inner")).status, 404);
    const self = await site.api("POST", "/frames", {
      slug: "selfish",
      html: `<!-- svc/layout {"name": "selfish"} /-->x`,
    });
    assert.equal(self.body.error, "frame_cycle");
  });

  it("renaming a layout rewrites svc/layout references to it", async () => {
    const site = await newSite(t);
    await site.frame("base", BASE);
    await site.frame("page", `<!-- svc/layout {"ref": "base"} /-->p`);
    const renamed = ok(await site.api("PATCH", "/frames/base", { slug: "shell" }), "rename");
    assert.deepEqual(renamed.renamed.frames_updated, ["page"]);
    const page = ok(await site.api("GET", "/frames/page"), "GET").frame;
    assert.equal(page.html, `<!-- svc/layout {"name": "shell"} /-->p`);
    assert.equal(page.layout, "shell");
  });

  it("a frame write warns what prints nothing, each with line and column: unknown_insert with a suggestion, unknown_source (a missing data set named as written, a location that is none), unknown_string, unused_block, unfilled_slot at the svc/layout", async () => {
    const site = await newSite(t);
    await site.frame("base", `<head><!-- svc/slot {"name": "head"} /--></head><body><!-- svc/slot /--></body>`);
    ok(await site.api("PUT", "/strings", { strings: { "footer.text": "Hi" } }), "strings");
    ok(await site.api("PUT", "/data/known", { items: [{ a: 1 }] }), "data", 201);
    const html = [
      `<!-- svc/layout {"name": "base"} /-->`,
      `<!-- svc/menu {"location": "sidebar"} /-->`,
      `  <!-- svc/repeat {"source": "team"} --><!-- /svc/repeat --><!-- svc/repeat {"source": "known"} --><!-- /svc/repeat --><!-- svc/repeat {"source": "data.crew"} --><!-- /svc/repeat -->`,
      `<p data-op-bind='{"text": "t.footer.txt"}'></p><p data-op-bind='{"text": "t.footer.text"}'></p>`,
      `<!-- svc/block {"name": "sidebar"} -->x<!-- /svc/block --><!-- op/menus {"location": "header"} /-->`,
    ].join("\n");
    const body = ok(await site.api("POST", "/frames", { slug: "page", html, dry_run: true }), "dry run");
    const seen = body.warnings.map((w: Record<string, unknown>) => [
      w.code,
      w.line,
      w.column,
      w.name ?? w.source ?? w.key,
      w.suggestion,
    ]);
    assert.deepEqual(
      seen.sort(),
      [
        ["unfilled_slot", 1, 1, "head", undefined],
        ["unknown_insert", 5, 59, "op/menus", "op/menu"],
        ["unknown_source", 2, 1, "menu.sidebar", undefined],
        ["unknown_source", 3, 3, "team", undefined],
        ["unknown_source", 3, 120, "data.crew", undefined],
        ["unknown_string", 4, 4, "footer.txt", undefined],
        ["unused_block", 5, 1, "sidebar", undefined],
      ].sort(),
    );
  });

  it("strings: PUT replaces one language's texts and answers them; GET answers every language's (?lang one); refusals 400 bad_strings and unknown_language; nothing written on a refusal", async () => {
    const site = await newSite(t, { languages: true });
    const put = ok(
      await site.api("PUT", "/strings", { strings: { "footer.text": "Made with care", "nav.home": "Home" } }),
      "PUT en",
    );
    assert.deepEqual(
      { lang: put.lang, strings: put.strings },
      { lang: "en", strings: { "footer.text": "Made with care", "nav.home": "Home" } },
    );
    ok(await site.api("PUT", "/strings", { lang: "de", strings: { "footer.text": "Mit Sorgfalt" } }), "PUT de");
    assert.deepEqual(ok(await site.api("GET", "/strings"), "GET"), {
      success: true,
      site_id: site.id,
      default_lang: "en",
      strings: { en: { "footer.text": "Made with care", "nav.home": "Home" }, de: { "footer.text": "Mit Sorgfalt" } },
      warnings: [],
    });
    assert.deepEqual(ok(await site.api("GET", "/strings?lang=de"), "GET de").strings, {
      de: { "footer.text": "Mit Sorgfalt" },
    });
    for (const strings of [undefined, [], "x", { "bad key": "x" }, { "a..b": "x" }, { ok: 5 }]) {
      const refused = await site.api("PUT", "/strings", strings === undefined ? {} : { strings });
      assert.equal(refused.status, 400, JSON.stringify(strings));
      assert.equal(refused.body.error, "bad_strings", JSON.stringify(strings));
    }
    assert.equal((await site.api("PUT", "/strings", { lang: "fr", strings: {} })).body.error, "unknown_language");
    assert.deepEqual(ok(await site.api("GET", "/strings?lang=en"), "unchanged").strings.en, {
      "footer.text": "Made with care",
      "nav.home": "Home",
    });
  });

  it("t.<key> prints the page's language's text, else the default language's; a strings write rebakes exactly the frames reading the changed keys", async () => {
    const site = await newSite(t, { languages: true });
    ok(await site.api("PUT", "/strings", { strings: { "footer.text": "Made with care", "nav.home": "Home" } }), "en");
    ok(await site.api("PUT", "/strings", { lang: "de", strings: { "nav.home": "Start" } }), "de");
    await site.frame(
      "footer",
      `<footer data-op-bind='{"text": "t.footer.text"}'></footer><a data-op-bind='{"text": "t.nav.home"}'></a>`,
    );
    await site.frame("other", `<p data-op-bind='{"text": "t.nav.home"}'></p>`);
    const id = await site.page("About", "footer", { lang: "en" });
    ok(await site.api("POST", "/pages/language", { page: id, lang: "de", title: "Über" }), "de page", 201);
    assert.match((await site.visit("/about/")).text, /<footer>Made with care<\/footer><a>Home<\/a>/);
    assert.match(
      (await site.visit("/de/ueber/")).text,
      /<footer>Made with care<\/footer><a>Start<\/a>/,
      "German falls back to English for footer.text",
    );
    const written = ok(
      await site.api("PUT", "/strings", { strings: { "footer.text": "Handmade", "nav.home": "Home" } }),
      "en again",
    );
    assert.deepEqual(
      written.rebaked.frames.map((f: { slug: string }) => f.slug),
      ["footer"],
      "only footer.text changed in English",
    );
    assert.match((await site.visit("/de/ueber/")).text, /<footer>Handmade<\/footer>/);
  });
});

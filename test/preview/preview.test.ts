// POST /preview (docs/preview.md): the HTML a page would show with unsaved frames, stylesheets
// and page fields, over the real app, at both addresses; every refusal as the writes answer it;
// and nothing public or stored changes: static copies, page cache, frame bakes, stored rows (every
// table), the public page's bytes before and after, the stylesheet addresses.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { DomUtils, parseDocument } from "htmlparser2";
import { startTestApp, type TestApp } from "../support/app.ts";
import { addLanguage } from "../pages/helpers.ts";
import { changedTables, previewSite, storedState, visit, type Site } from "./helpers.ts";

const bundleHash = (css: string) => createHash("sha256").update(Buffer.from(css, "utf8")).digest("hex").slice(0, 16);

describe("POST /preview", () => {
  let t: TestApp;
  let n = 0;
  const site = () => previewSite(t, `preview${++n}`);
  const preview = (s: Site, body: Record<string, unknown>) => t.call("POST", s.at("/preview"), { body });
  const host = (s: Site) => `${s.domain}:8080`;

  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it("without changes answers exactly the bytes the public page answers, with site_id and no warnings", async () => {
    const s = await site();
    const shown = await visit(t, host(s), "/about/");
    assert.equal(shown.status, 200);
    for (const ref of ["about", s.pageId, String(s.pageId), "/about"]) {
      const r = await preview(s, { page: ref });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(Object.keys(r.body).sort(), ["html", "site_id", "success", "warnings"]);
      assert.equal(r.body.site_id, s.id);
      assert.equal(r.body.html, shown.body, `page ${ref}`);
      assert.deepEqual(r.body.warnings, []);
    }
    // A frame baked once and served as a static copy: the preview is the copy's bytes too.
    await t.call("POST", s.at("/frames"), {
      body: {
        slug: "plain",
        html: `<main><!--svc/frame{"name": "footer"}/--><!--svc/styles{"name": "main"}/--></main>`,
      },
    });
    await t.call("POST", s.at("/frames/plain/assign"), { body: { page: "about" } });
    const copy = await visit(t, host(s), "/about/");
    assert.equal(copy.headers["x-svc-printed"], "static");
    assert.equal((await preview(s, { page: "about" })).body.html, copy.body);
  });

  it("shows unsaved frames, stylesheets (inline) and page fields, and leaves every table, the page cache and the public bytes as they were", async () => {
    const s = await site();
    const first = await visit(t, host(s), "/about/");
    const held = await visit(t, host(s), "/about/");
    assert.equal(held.headers["x-svc-printed"], "cache");
    const link = /<link rel="stylesheet" href="(\/styles\/main\.[0-9a-f]{16}\.css)">/.exec(first.body)![1];
    const cacheBefore = t.deps.publicSite.cache.usageOf(s.id);
    const frameBefore = await t.call("GET", s.at("/frames/footer"));
    const stored = await storedState(t);

    const r = await preview(s, {
      page: "about",
      frames: { footer: "<footer>New footer</footer>" },
      styles: { main: "h1 { color: blue }" },
      page_fields: { title: "Draft title", content: "<p>Draft content</p>", tone: "loud" },
    });
    assert.equal(r.status, 200, r.text);
    const html: string = r.body.html;
    assert.match(html, /<title>Draft title<\/title>/);
    assert.match(html, /<h1>Draft title<\/h1>/);
    assert.match(html, /<div><p>Draft content<\/p><\/div>/);
    assert.match(html, /<p class="tone">loud<\/p>/);
    assert.match(html, /<footer>New footer<\/footer>/);
    // The stylesheet is printed inline, bundled (minified) as it would be served.
    assert.match(html, /<style data-svc-preview-style="main">h1\{color:#00f\}<\/style>/);
    assert.doesNotMatch(html, /<link rel="stylesheet"/);
    assert.deepEqual(r.body.warnings, []);

    assert.deepEqual(changedTables(stored, await storedState(t)), [], "no stored row changed");
    assert.deepEqual(t.deps.publicSite.cache.usageOf(s.id), cacheBefore, "the page cache holds what it held");
    const again = await visit(t, host(s), "/about/");
    assert.equal(again.body, first.body, "the public page's bytes");
    assert.equal(again.headers["x-svc-printed"], "cache", "its cached render was not flushed");
    const frameAfter = await t.call("GET", s.at("/frames/footer"));
    assert.equal(frameAfter.headers.etag, frameBefore.headers.etag);
    assert.equal(frameAfter.body.frame.html, "<footer>Old footer</footer>");
    // The served bundle still answers; the one the preview made never existed outside it.
    assert.equal((await visit(t, host(s), link)).status, 200);
    assert.equal((await visit(t, host(s), `/styles/main.${bundleHash("h1{color:#00f}")}.css`)).status, 404);
    assert.equal((await t.call("GET", s.at("/styles/main"))).body.style.css, "h1 { color: red }");

    // The site goes on as before: a real write of the frame publishes as always.
    const written = await t.call("PUT", s.at("/frames/footer"), { body: { html: "<footer>Saved footer</footer>" } });
    assert.equal(written.status, 200, written.text);
    assert.match((await visit(t, host(s), "/about/")).body, /<footer>Saved footer<\/footer>/);
  });

  it("a stylesheet cannot close its <style> early: </style in its CSS is written <\\/style", async () => {
    const s = await site();
    const r = await preview(s, {
      page: "about",
      styles: { main: `h1::after { content: "</style><script>window.x=1</script>" }` },
    });
    assert.equal(r.status, 200, r.text);
    const inline = /<style data-svc-preview-style="main">([\s\S]*?)<\/style>/.exec(r.body.html);
    assert.ok(inline, r.body.html);
    assert.match(inline[1], /<\\\/style>/);
    const doc = parseDocument(r.body.html);
    assert.equal(DomUtils.getElementsByTagName("script", doc).length, 0, "the script is the style's text, no element");
    const styles = DomUtils.getElementsByTagName("style", doc);
    assert.equal(styles.length, 1);
    assert.match(DomUtils.textContent(styles[0]), /content:"<\\\/style><script>window.x=1<\/script>"/);
  });

  it("adds frames that do not exist yet, resolves frames previewed together, and shows the page on another frame (page_fields.frame)", async () => {
    const s = await site();
    const stored = await storedState(t);
    const r = await preview(s, {
      page: "about",
      frames: { footer: `<footer>Footer <!--svc/frame{"name": "legal"}/--></footer>`, legal: "<small>Legal</small>" },
    });
    assert.equal(r.status, 200, r.text);
    assert.match(
      r.body.html,
      /<footer>Footer <!-- op\/frame \{"name": "legal"\} --><small>Legal<\/small><!-- \/op\/frame --><\/footer>/,
    );
    assert.deepEqual(r.body.warnings, [], "legal exists in the preview: no frame_ref_missing");

    const landing = await preview(s, {
      page: "about",
      frames: { landing: `<main data-op-bind='{"text": "page.title"}'></main>` },
      page_fields: { frame: "landing" },
    });
    assert.equal(landing.status, 200, landing.text);
    assert.equal(landing.body.html, "<main>About</main>");
    assert.deepEqual(changedTables(stored, await storedState(t)), []);
    assert.equal((await t.call("GET", s.at("/frames/legal"))).status, 404);
    // The slugs are free: the frame graph kept nothing of the preview.
    const made = await t.call("POST", s.at("/frames"), {
      body: { slug: "landing", html: "<main>Real landing</main>" },
    });
    assert.equal(made.status, 201, made.text);
    const unknown = await preview(s, { page: "about", page_fields: { frame: "nope" } });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error, "frame_not_found");
  });

  it("answers the analysis warnings of the changed frames as frame writes do, with line, column and the frame", async () => {
    const s = await site();
    const markup = `<footer>\n  <!--svc/nope/-->\n  <ul><!--svc/repeat{"source": "data.missing"}--><li>x</li><!--/svc/repeat--></ul>\n  <!--svc/frame{"name": "absent"}/-->\n</footer>`;
    const r = await preview(s, { page: "about", frames: { footer: markup } });
    assert.equal(r.status, 200, r.text);
    const written = await t.call("POST", s.at("/frames"), {
      body: { slug: "footer-twin", html: markup, dry_run: true },
    });
    assert.equal(written.status, 200, written.text);
    const strip = (w: any) => ({ ...w, frame: undefined, slug: w.code === "frame_ref_missing" ? w.slug : undefined });
    assert.deepEqual(
      r.body.warnings.map(strip),
      written.body.warnings.map(strip),
      "the warnings a frame write answers",
    );
    const byCode = new Map<string, any>(r.body.warnings.map((w: any) => [w.code, w]));
    assert.deepEqual(new Set(byCode.keys()), new Set(["unknown_insert", "unknown_source", "frame_ref_missing"]));
    assert.equal(byCode.get("unknown_insert").line, 2);
    assert.equal(byCode.get("unknown_insert").column, 3);
    assert.equal(byCode.get("unknown_source").line, 3);
    for (const w of r.body.warnings) assert.equal(w.frame, "footer");
    // Unknown body fields and page fields a preview does not change are warned about.
    const extra = await preview(s, { page: "about", colour: "red", page_fields: { status: "trash" } });
    assert.equal(extra.status, 200);
    assert.deepEqual(
      extra.body.warnings.map((w: any) => [w.code, w.field]),
      [
        ["unknown_field", "colour"],
        ["field_ignored", "page_fields.status"],
      ],
    );
  });

  it("page_fields: slug (free among siblings, the path follows), fields merged, seo, menu_order; a draft is shown", async () => {
    const s = await site();
    await t.call("POST", s.at("/pages"), {
      body: { title: "Contact", slug: "contact", status: "publish", frame: "page" },
    });
    const frame = `<a data-op-bind='{"href": "page.url", "text": "page.path"}'></a><i data-op-bind='{"text": "page.fields.tone"}'></i><b data-op-bind='{"text": "page.fields.mood"}'></b>`;
    const r = await preview(s, {
      page: "about",
      frames: { page: frame },
      page_fields: { slug: "Contact Us", fields: { mood: "sunny" } },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.html, `<a href="http://${s.domain}:8080/contact-us/">/contact-us</a><i>calm</i><b>sunny</b>`);
    assert.deepEqual(
      r.body.warnings.map((w: any) => [w.code, w.from, w.to]),
      [["slug_normalized", "Contact Us", "contact-us"]],
    );
    const taken = await preview(s, { page: "about", frames: { page: frame }, page_fields: { slug: "contact" } });
    assert.equal(taken.body.html, `<a href="http://${s.domain}:8080/contact-2/">/contact-2</a><i>calm</i><b></b>`);
    assert.deepEqual(
      taken.body.warnings.map((w: any) => [w.code, w.from, w.to]),
      [["slug_changed", "contact", "contact-2"]],
    );
    const cleared = await preview(s, {
      page: "about",
      frames: { page: frame },
      page_fields: { fields: null, mood: "grey" },
    });
    assert.equal(cleared.body.html, `<a href="http://${s.domain}:8080/about/">/about</a><i></i><b>grey</b>`);

    // A draft answers 404 publicly; its preview shows it.
    await t.call("PATCH", s.at("/pages/about"), { body: { status: "draft" } });
    assert.equal((await visit(t, host(s), "/about/")).status, 404);
    const draft = await preview(s, { page: "about", page_fields: { title: "Still a draft" } });
    assert.equal(draft.status, 200, draft.text);
    assert.match(draft.body.html, /<h1>Still a draft<\/h1>/);
    assert.equal((await visit(t, host(s), "/about/")).status, 404, "still a draft");

    const seo = await preview(s, {
      page: "about",
      frames: { page: `<head><!--svc/seo/--></head>` },
      page_fields: { seo: { description: "Previewed description" } },
    });
    assert.equal(seo.status, 200, seo.text);
    assert.match(seo.body.html, /<meta name="description" content="Previewed description">/);
  });

  it("lang picks the page's translation; the translation's own id shows it too; refusals as every call's lang", async () => {
    const s = await site();
    await addLanguage(t, s.id, "en", { default: true });
    await addLanguage(t, s.id, "de");
    const en = await t.call("POST", s.at("/pages"), {
      body: { title: "Team", slug: "team", lang: "en", status: "publish", frame: "page" },
    });
    assert.ok(en.status === 200 || en.status === 201, en.text);
    const de = await t.call("POST", s.at("/pages/language"), {
      body: { page: en.body.page.id, lang: "de", title: "Über uns", status: "publish" },
    });
    assert.ok(de.status === 200 || de.status === 201, de.text);
    const shown = await visit(t, host(s), de.body.page.url.replace(/^https?:\/\/[^/]+/, ""));
    assert.equal(shown.status, 200);
    for (const body of [{ page: "team", lang: "de" }, { page: de.body.page.id }, { page: "/de/ueber-uns" }]) {
      const r = await preview(s, body);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.html, shown.body);
      assert.match(r.body.html, /<h1>Über uns<\/h1>/);
    }
    const fr = await preview(s, { page: "team", lang: "fr" });
    assert.equal(fr.status, 400);
    assert.equal(fr.body.error, "unknown_language");
    const malformed = await preview(s, { page: "team", lang: 5 });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.error, "invalid_language_code");
    const none = await preview(s, { page: "about", lang: "de" });
    assert.equal(none.status, 404, "about has no German translation");
    assert.equal(none.body.error, "page_not_found");
    const plain = await site();
    const inactive = await preview(plain, { page: "about", lang: "de" });
    assert.equal(inactive.status, 409);
    assert.equal(inactive.body.error, "multilang_inactive");
  });

  it("refuses as the frame, stylesheet and page writes do, and stores nothing", async () => {
    const s = await site();
    await t.call("POST", s.at("/pages"), { body: { title: "Bare", slug: "bare", status: "publish" } });
    const trashed = await t.call("POST", s.at("/pages"), {
      body: { title: "Gone", slug: "gone", status: "publish", frame: "page" },
    });
    await t.call("DELETE", s.at("/pages/gone"));
    const shown = await visit(t, host(s), "/about/");
    const stored = await storedState(t);
    const cases: Array<[Record<string, unknown>, number, string, Record<string, unknown>?]> = [
      [{ page: "about", styles: { main: "h1 {{ }" } }, 422, "invalid_css", { line: 1, column: 5 }],
      [
        { page: "about", styles: { main: `@import "nope";` } },
        422,
        "invalid_css",
        { import: "nope", line: 1, column: 1 },
      ],
      [
        { page: "about", styles: { main: "a{}\nb { background: url(media:nothing) }" } },
        422,
        "invalid_css",
        { media: "nothing", line: 2 },
      ],
      [{ page: "about", styles: { "Bad Name": "a{}" } }, 400, "invalid_style_name"],
      [{ page: "about", frames: { footer: `<!--svc/frame{"name": "page"}/-->` } }, 400, "frame_cycle"],
      [
        { page: "about", frames: { a: `<!--svc/frame{"name": "b"}/-->`, b: `<!--svc/frame{"name": "a"}/-->` } },
        400,
        "frame_cycle",
      ],
      [{ page: "about", frames: { footer: "x".repeat(2_097_153) } }, 413, "frame_too_large", { max_bytes: 2_097_152 }],
      [
        {
          page: "about",
          frames: { footer: `<!--svc/frame{"name": "big"}/-->`.repeat(30), big: `<p>${"h".repeat(300_000)}</p>` },
        },
        422,
        "render_too_large",
        { budget: "bytes", chain: ["page", "footer", "big"] },
      ],
      [{ page: "about", frames: { footer: "" } }, 400, "frame_html_required"],
      [{ page: "about", frames: { "Not A Slug!": "<p>x</p>" } }, 400, "invalid_slug"],
      [{ page: "nope" }, 404, "page_not_found"],
      [{ page: trashed.body.page.id }, 404, "page_not_found"],
      [{}, 400, "page_required"],
      [{ page: "bare" }, 409, "page_without_frame"],
      [{ page: true }, 400, "invalid_field", { field: "page" }],
      [{ page: "about", frames: "footer" }, 400, "invalid_field", { field: "frames" }],
      [{ page: "about", frames: { footer: 5 } }, 400, "invalid_field", { field: "frames.footer" }],
      [{ page: "about", styles: ["a{}"] }, 400, "invalid_field", { field: "styles" }],
      [{ page: "about", styles: { main: null } }, 400, "invalid_field", { field: "styles.main" }],
      [{ page: "about", page_fields: "title" }, 400, "invalid_field", { field: "page_fields" }],
      [{ page: "about", page_fields: { title: 5 } }, 400, "invalid_field", { field: "title" }],
      [{ page: "about", page_fields: { content: ["x"] } }, 400, "invalid_field", { field: "content" }],
      [{ page: "about", page_fields: { fields: "x" } }, 400, "invalid_field", { field: "fields" }],
      [{ page: "about", page_fields: { menu_order: 1.5 } }, 400, "invalid_field", { field: "menu_order" }],
      [{ page: "about", page_fields: { frame: 7 } }, 400, "invalid_field", { field: "page_fields.frame" }],
      [{ page: "about", page_fields: { frame: null } }, 409, "page_without_frame"],
      [{ page: "about", lang: "de" }, 409, "multilang_inactive"],
    ];
    for (const [body, status, code, details] of cases) {
      const r = await preview(s, body);
      const label = JSON.stringify(body).slice(0, 120);
      assert.equal(r.status, status, `${label}: ${r.text.slice(0, 300)}`);
      assert.equal(r.body.success, false, label);
      assert.equal(r.body.error, code, label);
      for (const [key, value] of Object.entries(details ?? {}))
        assert.deepEqual(r.body[key], value, `${label}: ${key}`);
    }
    assert.deepEqual(changedTables(stored, await storedState(t)), []);
    assert.equal((await visit(t, host(s), "/about/")).body, shown.body);
  });

  it("answers at the legacy address too, and only to the site's administrators", async () => {
    const s = await site();
    const legacy = await t.call("POST", `/api/preview?blog_id=${s.id}`, {
      body: { page: "about", page_fields: { title: "Legacy" } },
    });
    assert.equal(legacy.status, 200, legacy.text);
    assert.match(legacy.body.html, /<h1>Legacy<\/h1>/);
    const anonymous = await t.call("POST", s.at("/preview"), { token: null, body: { page: "about" } });
    assert.equal(anonymous.status, 401);
  });

  it("while a preview renders, the public page answers what is stored", async () => {
    const s = await site();
    // 1,500² iterations: a preview render of a few hundred milliseconds, so the public page (a
    // copy in memory) is done first unless it waits for the preview.
    await t.call("PUT", s.at("/data/spin"), { body: { items: Array.from({ length: 1_500 }, (_, i) => ({ n: i })) } });
    const slow = `<!--svc/repeat{"source": "data.spin"}--><!--svc/repeat{"source": "data.spin"}-->.<!--/svc/repeat--><!--/svc/repeat-->`;
    const done: string[] = [];
    const [r, shown] = await Promise.all([
      preview(s, {
        page: "about",
        frames: { footer: `<footer>Unsaved ${slow}</footer>` },
        page_fields: { title: "Unsaved" },
      }).finally(() => done.push("preview")),
      new Promise((resolve) => setImmediate(resolve))
        .then(() => visit(t, host(s), "/about/"))
        .finally(() => done.push("public")),
    ]);
    assert.deepEqual(done, ["public", "preview"], "the public page did not wait for the preview");
    assert.equal(r.status, 200, r.text.slice(0, 300));
    assert.match(r.body.html, /Unsaved/);
    assert.equal(shown.status, 200);
    assert.doesNotMatch(shown.body, /Unsaved/);
    assert.match(shown.body, /<footer>Old footer<\/footer>/);
  });
});

// Slug rules through HTTP and the frame record (docs/frames.md, "Identity and record").
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeUser, startTestApp, type TestApp } from "../support/app.ts";
import { SLUG_HINT, SLUG_PATTERN } from "../../src/frames/slug.ts";
import { assign, createFrame, createPage, embed, FRAMES, getFrame, GMT, refused, sha256, SITE } from "./helpers.ts";

describe("frames: slug rules over HTTP", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("a slug is lower-cased on input and split into block, element and modifier", async () => {
    const body = await createFrame(t, "  Article__FAQ--Simple ", "<p>faq</p>");
    assert.deepEqual(
      { slug: body.frame.slug, block: body.frame.block, element: body.frame.element, modifier: body.frame.modifier },
      { slug: "article__faq--simple", block: "article", element: "faq", modifier: "simple" },
    );
    const plain = await createFrame(t, "Site-Header", "<header></header>");
    assert.deepEqual(
      [plain.frame.slug, plain.frame.block, plain.frame.element, plain.frame.modifier],
      ["site-header", "site-header", null, null],
    );
    const modOnly = await createFrame(t, "site-header--dark", "<header></header>");
    assert.deepEqual(
      [modOnly.frame.block, modOnly.frame.element, modOnly.frame.modifier],
      ["site-header", null, "dark"],
    );
    // Read back by the lower-cased slug and by a differently cased one.
    assert.equal((await getFrame(t, "ARTICLE__faq--simple")).id, body.frame.id);
  });

  it("a malformed slug is 400 invalid_slug carrying the pattern and a hint", async () => {
    for (const slug of ["a_b", "a---b", "-a", "a__b__c", "a--b__c", "über", "a b", "a.b"]) {
      const r = await t.call("POST", FRAMES, { body: { slug, html: "<p></p>" } });
      const body = refused(r, 400, "invalid_slug");
      assert.equal(body.pattern, SLUG_PATTERN, slug);
      assert.equal(body.hint, SLUG_HINT);
    }
  });

  it("a missing or empty slug on POST is 400 invalid_slug", async () => {
    refused(await t.call("POST", FRAMES, { body: { html: "<p></p>" } }), 400, "invalid_slug");
    refused(await t.call("POST", FRAMES, { body: { slug: "", html: "<p></p>" } }), 400, "invalid_slug");
    refused(await t.call("POST", FRAMES, { body: { slug: "   ", html: "<p></p>" } }), 400, "invalid_slug");
  });

  it("the slug `defaults` is refused as invalid_slug (reserved: /frames/defaults is the removed endpoint)", async () => {
    const body = refused(
      await t.call("POST", FRAMES, { body: { slug: "Defaults", html: "<p></p>" } }),
      400,
      "invalid_slug",
    );
    assert.equal(body.reserved, true);
    assert.equal(body.pattern, SLUG_PATTERN);
  });
});

describe("frames: the frame record", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("carries every field of the spec's table with the documented types", async () => {
    const html = `<nav><!-- svc/menu {"location": "header"} /--></nav><h1 data-op-bind='{"text": "site.name"}'>x</h1>`;
    const created = await createFrame(t, "header", html);
    const f = await getFrame(t, "header");
    assert.match(f.id, /^[0-9a-f]{16}$/);
    assert.equal(f.id, created.frame.id);
    assert.equal(f.slug, "header");
    assert.equal(f.block, "header");
    assert.equal(f.element, null);
    assert.equal(f.modifier, null);
    assert.equal(f.bytes, Buffer.byteLength(html, "utf8"));
    assert.equal(f.sha256, sha256(html));
    assert.deepEqual(f.inserts, { "svc/menu": 1 });
    assert.deepEqual(f.sources, ["menu.header", "site"]);
    assert.deepEqual(f.frame_refs, []);
    assert.equal(f.binds, 1);
    assert.match(f.created_at_gmt, GMT);
    assert.match(f.updated_at_gmt, GMT);
    assert.equal(f.updated_by, 1);
    assert.equal(f.option, `svc_frame_${f.id}`);
    assert.deepEqual(f.pages, []);
    assert.equal(f.renders_on_request, false);
    assert.equal(f.html, html);
    assert.deepEqual(f.referenced_by, []);
    // The POST answer's record is the same record without html, referenced_by and (no pages yet) pages.
    const { html: _h, referenced_by: _r, pages: _p, ...withoutExtras } = f;
    assert.deepEqual(created.frame, withoutExtras);
  });

  it("times are GMT: the record's times are within the request's wall-clock window in UTC", async () => {
    const before = new Date(Date.now() - 1000).toISOString().slice(0, 19).replace("T", " ");
    const f = (await createFrame(t, "timed", "<p></p>")).frame;
    const after = new Date(Date.now() + 1000).toISOString().slice(0, 19).replace("T", " ");
    assert.ok(before <= f.created_at_gmt && f.created_at_gmt <= after, `${before} <= ${f.created_at_gmt} <= ${after}`);
    assert.equal(f.updated_at_gmt, f.created_at_gmt);
  });

  it("markup is stored and returned byte for byte: any UTF-8, CRLF, a BOM, odd white space, control characters", async () => {
    const samples = {
      "bytes-bom": "\uFEFF<!DOCTYPE html>\r\n<html>\r\n<body>\r\n</body>\r\n</html>\r\n",
      "bytes-unicode": "<p>Grüße, 日本語, emoji 🎉, RTL עברית, combining é</p>\u2028\u00a0",
      "bytes-whitespace": " \t\n\r\n\v\f<p>  a  </p>\t\t\n\n   ",
      "bytes-entities": "<p>&amp; &lt;tag&gt; &#x1F600; &nbsp; \\ \" ' `</p><!-- a comment -->",
      "bytes-controls": "a\u0001b\u001fc\u007fd\u0085e",
      "bytes-broken": '<div <p class=\'x"><!-- svc/frame {"name": /--><![CDATA[ x ]]></',
    };
    for (const [slug, html] of Object.entries(samples)) {
      const created = await createFrame(t, slug, html);
      assert.equal(created.frame.bytes, Buffer.byteLength(html, "utf8"), slug);
      assert.equal(created.frame.sha256, sha256(html), slug);
      const back = await t.call("GET", `${FRAMES}/${slug}`);
      assert.equal(back.body.frame.html, html, slug);
      assert.equal(back.body.frame.sha256, sha256(html), slug);
      assert.equal(back.body.frame.bytes, Buffer.byteLength(html, "utf8"), slug);
      // The list with include_html returns the same bytes.
      const listed = await t.call("GET", FRAMES, { query: { q: slug, include_html: "1" } });
      assert.equal(listed.body.frames.find((f: any) => f.slug === slug).html, html, slug);
    }
  });

  it("markup holding U+0000 is refused as invalid_field (no store keeps it as text), and nothing is written", async () => {
    const r = await t.call("POST", FRAMES, { body: { slug: "with-nul", html: "a\u0000b" } });
    assert.equal(r.status, 400);
    assert.equal(r.body.code ?? r.body.error, "invalid_field");
    refused(await t.call("GET", `${FRAMES}/with-nul`), 404, "frame_not_found");
  });

  it("markup with a lone UTF-16 surrogate is refused (it has no UTF-8 form, so it could not be stored byte for byte)", async () => {
    const r = await t.call("POST", FRAMES, {
      payload: JSON.stringify({ slug: "lone" }).replace("}", ',"html":"x\\ud800y"}'),
    });
    const body = refused(r, 400, "invalid_field");
    assert.equal(body.field, "html");
    assert.equal(body.at, 1);
    refused(await t.call("GET", `${FRAMES}/lone`), 404, "frame_not_found");
    // A proper pair (an emoji written as escapes) is fine.
    const ok = await t.call("POST", FRAMES, { payload: '{"slug":"pair","html":"x\\ud83c\\udf89y"}' });
    assert.equal(ok.status, 201);
    assert.equal((await getFrame(t, "pair")).html, "x🎉y");
  });

  it("`pages` appears in list items only when pages stand on the frame, and always on GET of one", async () => {
    await createFrame(t, "used", "<main>used</main>");
    await createFrame(t, "unused", "<main>unused</main>");
    const p1 = await createPage(t, { title: "Used one" });
    const p2 = await createPage(t, { title: "Used two" });
    await assign(t, "used", p2.id);
    await assign(t, "used", p1.id);
    const list = await t.call("GET", FRAMES);
    const used = list.body.frames.find((f: any) => f.slug === "used");
    const unused = list.body.frames.find((f: any) => f.slug === "unused");
    assert.deepEqual(used.pages, [p1.id, p2.id]);
    assert.equal("pages" in unused, false);
    assert.deepEqual((await getFrame(t, "unused")).pages, []);
    assert.deepEqual((await getFrame(t, "used")).pages, [p1.id, p2.id]);
  });

  it("`referenced_by` on GET of one lists the frames that embed it (by slug, by id, through svc/partial)", async () => {
    const target = await createFrame(t, "target", "<p>t</p>");
    await createFrame(t, "by-slug", embed("target"));
    await createFrame(t, "by-id", embed(target.frame.id, "id"));
    await createFrame(t, "by-partial", `<!-- svc/partial {"ref": "TARGET", "with": {"a": 1}} /-->`);
    await createFrame(t, "outer", embed("by-slug"));
    const f = await getFrame(t, target.frame.id);
    assert.deepEqual(f.referenced_by, ["by-id", "by-partial", "by-slug"]);
    assert.equal("referenced_by" in (await t.call("GET", FRAMES)).body.frames[0], false);
  });

  it("updated_by is the user who last wrote the frame", async () => {
    const editor = await makeUser(t, "frame-writer");
    await t.call("PUT", `${SITE}/users/${editor.id}`, { body: { role: "administrator" } });
    const created = await createFrame(t, "authored", "<p>1</p>");
    assert.equal(created.frame.updated_by, 1);
    const put = await t.call("PUT", `${FRAMES}/authored`, { token: editor.token, body: { html: "<p>2</p>" } });
    assert.equal(put.status, 200);
    assert.equal(put.body.frame.updated_by, editor.id);
    assert.equal((await getFrame(t, "authored")).updated_by, editor.id);
    const renamed = await t.call("PATCH", `${FRAMES}/authored`, { body: { slug: "authored-2" } });
    assert.equal(renamed.body.frame.updated_by, 1);
  });
});

// GET /frames (filters, constants, order) and GET /frames/{ref} (docs/frames.md).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../support/app.ts";
import { SLUG_PATTERN } from "../../src/frames/slug.ts";
import { createFrame, FRAMES, refused } from "./helpers.ts";

describe("frames: GET list and GET one", () => {
  let t: TestApp;
  const ids: Record<string, string> = {};
  before(async () => {
    t = await startTestApp();
    for (const slug of [
      "article__faq",
      "article",
      "article--wide",
      "article__faq--simple",
      "articles",
      "footer",
      "site-header",
      "a-rticle",
    ]) {
      ids[slug] = (await createFrame(t, slug, `<p>${slug}</p>`)).frame.id;
    }
  });
  after(() => t.close());

  it("the list carries the constant fields and every frame, sorted by slug in code-unit order", async () => {
    const r = await t.call("GET", FRAMES);
    assert.equal(r.status, 200);
    assert.equal(r.body.success, true);
    assert.equal(r.body.site_id, 1);
    assert.equal(r.body.home_url, "http://localhost:8080/");
    assert.equal(r.body.registry_option, "svc_frames");
    assert.equal(r.body.page_meta, "_svc_frame");
    assert.equal(r.body.slug_pattern, SLUG_PATTERN);
    assert.equal(r.body.total, 8);
    assert.deepEqual(
      r.body.frames.map((f: any) => f.slug),
      [
        "a-rticle",
        "article",
        "article--wide",
        "article__faq",
        "article__faq--simple",
        "articles",
        "footer",
        "site-header",
      ],
    );
    for (const f of r.body.frames) assert.equal("html" in f, false);
  });

  it("`block` keeps the frames of that block only (article, article--wide, article__faq, article__faq--simple)", async () => {
    const r = await t.call("GET", FRAMES, { query: { block: "article" } });
    assert.deepEqual(
      r.body.frames.map((f: any) => f.slug),
      ["article", "article--wide", "article__faq", "article__faq--simple"],
    );
    assert.equal(r.body.total, 4);
    assert.deepEqual((await t.call("GET", FRAMES, { query: { block: "Article" } })).body.total, 4);
    assert.equal((await t.call("GET", FRAMES, { query: { block: "nope" } })).body.total, 0);
  });

  it("`q` is a case-insensitive substring of the slug", async () => {
    const r = await t.call("GET", FRAMES, { query: { q: "FAQ" } });
    assert.deepEqual(
      r.body.frames.map((f: any) => f.slug),
      ["article__faq", "article__faq--simple"],
    );
    assert.deepEqual(
      (await t.call("GET", FRAMES, { query: { q: "e-h" } })).body.frames.map((f: any) => f.slug),
      ["site-header"],
    );
    assert.deepEqual(
      (await t.call("GET", FRAMES, { query: { q: "--" } })).body.frames.map((f: any) => f.slug),
      ["article--wide", "article__faq--simple"],
    );
    const both = await t.call("GET", FRAMES, { query: { block: "article", q: "wide" } });
    assert.deepEqual(
      both.body.frames.map((f: any) => f.slug),
      ["article--wide"],
    );
  });

  it("include_html=1 adds each frame's markup", async () => {
    const r = await t.call("GET", FRAMES, { query: { include_html: "1", block: "footer" } });
    assert.equal(r.body.frames[0].html, "<p>footer</p>");
    const without = await t.call("GET", FRAMES, { query: { include_html: "0", block: "footer" } });
    assert.equal("html" in without.body.frames[0], false);
  });

  it("a `type` query parameter is ignored with warning type_ignored", async () => {
    const r = await t.call("GET", FRAMES, { query: { type: "page" } });
    assert.equal(r.status, 200);
    assert.equal(r.body.total, 8);
    assert.deepEqual(
      r.body.warnings.map((w: any) => w.code),
      ["type_ignored"],
    );
  });

  it("the legacy address lists the same frames", async () => {
    const legacy = await t.call("GET", "/api/frames", { query: { block: "article" } });
    const scoped = await t.call("GET", FRAMES, { query: { block: "article" } });
    assert.equal(legacy.status, 200);
    assert.deepEqual(legacy.body.frames, scoped.body.frames);
    assert.equal(legacy.headers["x-svc-blog-source"], "default");
  });

  it("GET of one frame works by id and by slug, with html, referenced_by and pages", async () => {
    const byId = await t.call("GET", `${FRAMES}/${ids.article__faq}`);
    const bySlug = await t.call("GET", `${FRAMES}/article__faq`);
    assert.equal(byId.status, 200);
    assert.deepEqual(byId.body.frame, bySlug.body.frame);
    assert.equal(byId.body.frame.html, "<p>article__faq</p>");
    assert.deepEqual(byId.body.frame.referenced_by, []);
    assert.deepEqual(byId.body.frame.pages, []);
    const listed = (await t.call("GET", FRAMES)).body.frames.find((f: any) => f.slug === "article__faq");
    const { html: _h, referenced_by: _r, pages: _p, ...rest } = byId.body.frame;
    assert.deepEqual(rest, listed);
  });

  it("an unknown ref is 404 frame_not_found (slug or id-shaped)", async () => {
    refused(await t.call("GET", `${FRAMES}/no-such-frame`), 404, "frame_not_found");
    refused(await t.call("GET", `${FRAMES}/0123456789abcdef`), 404, "frame_not_found");
    refused(await t.call("GET", `${FRAMES}/%25`), 404, "frame_not_found");
    refused(await t.call("GET", "/api/frames/no-such-frame"), 404, "frame_not_found");
  });

  it("a blank ref (only white space) is 400 frame_ref_required on every frame route", async () => {
    refused(await t.call("GET", `${FRAMES}/%20`), 400, "frame_ref_required");
    refused(await t.call("GET", `${FRAMES}/%20%09`), 400, "frame_ref_required");
    refused(await t.call("PUT", `${FRAMES}/%20`, { body: { html: "<p></p>" } }), 400, "frame_ref_required");
    refused(await t.call("PATCH", `${FRAMES}/%20`, { body: { slug: "x" } }), 400, "frame_ref_required");
    refused(await t.call("DELETE", `${FRAMES}/%20`), 400, "frame_ref_required");
    refused(await t.call("POST", `${FRAMES}/%20/assign`, { body: { page: 1 } }), 400, "frame_ref_required");
  });

  it("a frame of another site is not found on this site", async () => {
    const other = await t.call("POST", "/api/sites", { body: { name: "Other", domain: "other.localhost" } });
    const siteId = other.body.site.id;
    const foreign = await createFrame(t, "foreign", "<p>f</p>", {}, `/api/site/${siteId}`);
    refused(await t.call("GET", `${FRAMES}/${foreign.frame.id}`), 404, "frame_not_found");
    refused(await t.call("GET", `${FRAMES}/foreign`), 404, "frame_not_found");
    assert.equal((await t.call("GET", `/api/site/${siteId}/frames/foreign`)).status, 200);
    // The same slug may exist on both sites.
    assert.equal((await t.call("POST", FRAMES, { body: { slug: "foreign", html: "<p>mine</p>" } })).status, 201);
    assert.equal(
      (await t.call("GET", "/api/frames/foreign", { query: { blog_id: String(siteId) } })).body.frame.html,
      "<p>f</p>",
    );
  });
});

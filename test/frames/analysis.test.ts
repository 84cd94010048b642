// The markup analysis as the write answers report it (docs/markup.md, "Analysis").
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../support/app.ts";
import { codes, createFrame, embed, FRAMES, getFrame } from "./helpers.ts";

describe("frames: analysis in the write answers", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("inserts are keyed by the full insert name and counted; inserts_total sums them; svc/repeat counts once per block", async () => {
    const html = [
      `<!-- svc/menu {"location": "header"} /-->`,
      `<!-- op/menu {"location": "footer_1"} /-->`,
      `<!-- svc/menu {"location": "footer_2", "depth": 1} /-->`,
      `<!-- op/lang-switcher /-->`,
      `<!-- svc/repeat {"source": "pages"} --><li data-op-bind='{"text": "item.title"}'></li><!-- /svc/repeat -->`,
      `<!-- svc/gallery {"x": 1} /-->`,
    ].join("\n");
    const body = await createFrame(t, "counts", html);
    assert.deepEqual(body.inserts, {
      "op/lang-switcher": 1,
      "op/menu": 1,
      "svc/gallery": 1,
      "svc/menu": 2,
      "svc/repeat": 1,
    });
    assert.equal(body.inserts_total, 6);
    assert.deepEqual(body.frame.inserts, body.inserts);
  });

  it("sources are the sorted unique data sources the markup reads", async () => {
    const html = [
      `<h1 data-op-bind='{"text": "site.name", "title": "settings.tagline"}'></h1>`,
      `<!-- svc/menu {"location": "header"} /-->`,
      `<!-- svc/repeat {"source": "team"} --><i data-op-bind='{"text": "item.name"}'></i><!-- /svc/repeat -->`,
      `<b data-op-bind='{"text": "data.prices.0.amount"}'></b>`,
      `<!-- svc/repeat {"source": "pages"} --><!-- /svc/repeat -->`,
    ].join("");
    const body = await createFrame(t, "sourced", html);
    assert.deepEqual(body.sources, ["data.prices", "data.team", "menu.header", "pages", "settings", "site"]);
    assert.equal(body.renders_on_request, false);
    assert.equal("live_reasons" in body, false);
  });

  it("frame_refs lists embedded slugs; references by id are turned into slugs; svc/partial counts", async () => {
    const a = await createFrame(t, "ref-a", "<p>a</p>");
    await createFrame(t, "ref-b", "<p>b</p>");
    const html = `${embed(a.frame.id, "id")}<!-- svc/partial {"name": "REF-B", "with": {"k": "v"}} /-->${embed("ref-a", "ref")}${embed("ref-missing", "frame")}`;
    const body = await createFrame(t, "refs", html);
    assert.deepEqual(body.frame_refs, ["ref-a", "ref-b", "ref-missing"]);
    assert.deepEqual(body.frame.frame_refs, ["ref-a", "ref-b", "ref-missing"]);
    assert.deepEqual(body.frame_refs_missing, ["ref-missing"]);
    assert.ok(codes(body.warnings).includes("frame_ref_missing"));
    assert.deepEqual((await getFrame(t, "refs")).frame_refs, ["ref-a", "ref-b", "ref-missing"]);
  });

  it("binds counts elements with data-op-bind", async () => {
    const html = `<a data-op-bind='{"href": "site.url", "text": "site.name"}'></a><span data-op-bind='{"text": "site.tagline"}'></span><p>no</p>`;
    assert.equal((await createFrame(t, "binds", html)).binds, 2);
  });

  it("renders_on_request with live_reasons for page tokens, page-context repeats and the language switcher", async () => {
    const html = [
      `<h1 data-op-bind='{"text": "page.title"}'></h1>`,
      `<!-- svc/repeat {"source": "pages.children"} --><!-- /svc/repeat -->`,
      `<!-- svc/repeat {"source": "breadcrumbs"} --><!-- /svc/repeat -->`,
      `<!-- op/lang-switcher /-->`,
    ].join("");
    const body = await createFrame(t, "live", html);
    assert.equal(body.renders_on_request, true);
    assert.deepEqual(body.live_reasons, [
      "bind page.title",
      "repeat pages.children",
      "repeat breadcrumbs",
      "insert op/lang-switcher",
    ]);
    assert.equal(body.frame.renders_on_request, true);
  });

  it("renders_on_request is transitive: a frame embedding a live frame names it as `frame <slug>`, through any depth", async () => {
    await createFrame(t, "deep-live", `<p data-op-bind='{"text": "page.url"}'></p>`);
    const middle = await createFrame(t, "deep-middle", embed("deep-live"));
    assert.deepEqual([middle.renders_on_request, middle.live_reasons], [true, ["frame deep-live"]]);
    const top = await createFrame(t, "deep-top", `<p data-op-bind='{"text": "site.name"}'></p>${embed("deep-middle")}`);
    assert.deepEqual([top.renders_on_request, top.live_reasons], [true, ["frame deep-middle"]]);
    assert.equal((await getFrame(t, "deep-top")).renders_on_request, true);
    // The list says the same.
    const list = await t.call("GET", FRAMES, { query: { block: "deep-top" } });
    assert.equal(list.body.frames[0].renders_on_request, true);
  });

  it("a frame that waited for a live frame becomes live when that frame appears", async () => {
    const waiting = await createFrame(t, "waits-for-live", embed("arrives-live"));
    assert.equal(waiting.renders_on_request, false);
    await createFrame(t, "arrives-live", `<p data-op-bind='{"text": "page.title"}'></p>`);
    assert.equal((await getFrame(t, "waits-for-live")).renders_on_request, true);
  });

  it("has_doctype and has_body report the document shape", async () => {
    const full = await createFrame(t, "doc-full", "<!DOCTYPE html>\n<html><head></head><body><p>x</p></body></html>");
    assert.deepEqual([full.has_doctype, full.has_body], [true, true]);
    const bodyOnly = await createFrame(t, "doc-body", "<body><p>x</p></body>");
    assert.deepEqual([bodyOnly.has_doctype, bodyOnly.has_body], [false, true]);
    const fragment = await createFrame(t, "doc-fragment", "<p>x</p>");
    assert.deepEqual([fragment.has_doctype, fragment.has_body], [false, false]);
  });

  it("warnings bad_insert_params (unparseable JSON) and bind_double_quoted, each with its offset", async () => {
    const html = `<p>x</p><!-- svc/menu {location: header} /--><i data-op-bind="{"text": "site.name"}">y</i>`;
    const body = await createFrame(t, "warned", html);
    const bad = body.warnings.find((w: any) => w.code === "bad_insert_params");
    const quoted = body.warnings.find((w: any) => w.code === "bind_double_quoted");
    assert.ok(bad, JSON.stringify(body.warnings));
    assert.ok(quoted, JSON.stringify(body.warnings));
    assert.equal(bad.at, html.indexOf("<!-- svc/menu"));
    assert.equal(typeof quoted.at, "number");
    assert.ok(quoted.at >= html.indexOf("<i "));
    // A bad insert prints nothing: it still counts as an insert occurrence.
    assert.deepEqual(body.inserts, { "svc/menu": 1 });
  });

  it("a token with no value is listed in bake.response.unresolved", async () => {
    const html = `<p data-op-bind='{"text": "settings.no_such_key"}'>x</p><b data-op-bind='{"text": "data.nothing.0.title"}'></b><i data-op-bind='{"text": "site.name"}'></i>`;
    const body = await createFrame(t, "unresolved", html);
    assert.equal(body.bake.status, "ok");
    assert.equal(body.bake.response.baked, true);
    assert.deepEqual([...body.bake.response.unresolved].sort(), ["data.nothing.0.title", "settings.no_such_key"]);
  });

  it("bake.response carries the spec's fields for a baked frame", async () => {
    const body = await createFrame(t, "bake-fields", `<p data-op-bind='{"text": "site.name"}'></p>`);
    const r = body.bake.response;
    for (const key of [
      "baked",
      "frame_id",
      "bytes",
      "source_bytes",
      "baked_option",
      "renders_on_request",
      "lang",
      "default_lang",
      "blocks",
      "inserts",
      "unknown_inserts",
      "binds",
      "bind_tags",
      "repeats",
      "frames",
      "unresolved",
      "warnings",
      "published",
      "pages",
    ]) {
      assert.ok(key in r, key);
    }
    assert.equal(r.frame_id, body.frame.id);
    assert.equal(r.baked_option, `svc_frame_${body.frame.id}_baked`);
    assert.equal(r.source_bytes, body.frame.bytes);
    assert.equal(r.renders_on_request, false);
    assert.deepEqual(r.published, { published: 0, pages: [] });
  });

  it("a frame that renders on request is not baked: bake.status ok with response.baked false and its live reasons", async () => {
    const body = await createFrame(t, "not-baked", `<p data-op-bind='{"text": "page.title"}'></p>`);
    assert.equal(body.bake.status, "ok");
    assert.equal(body.bake.response.baked, false);
    assert.equal(body.bake.response.renders_on_request, true);
    assert.deepEqual(body.bake.response.live_reasons, ["bind page.title"]);
  });
});

// compileFrame: the analysis report (docs/markup.md, "Analysis") and properties of the program.
import { test } from "node:test";
import assert from "node:assert/strict";
import { compileFrame, renderFrame } from "../../src/markup/index.ts";
import { fixtureContext } from "./fixture-context.ts";

test("inserts are keyed by full name, sorted; svc/repeat counts once per block; unknown inserts are listed sorted unique", () => {
  const a = compileFrame(
    `<!-- svc/zeta /--><!-- op/menu {"location":"footer_1"} /--><!-- svc/repeat {"source":"a"} --><!-- svc/zeta /--><!-- /svc/repeat --><!-- op/alpha /-->`,
  ).analysis;
  assert.deepEqual(Object.keys(a.inserts), ["op/alpha", "op/menu", "svc/repeat", "svc/zeta"]);
  assert.deepEqual(a.inserts, { "op/alpha": 1, "op/menu": 1, "svc/repeat": 1, "svc/zeta": 2 });
  assert.equal(a.inserts_total, 5);
  assert.deepEqual(a.unknown_inserts, ["op/alpha", "svc/zeta"]);
  assert.equal(a.repeats, 1);
});

test("frame_refs lists svc/frame and svc/partial inserts in document order with their reference keys as strings", () => {
  const html = `<!-- svc/partial {"with":{"name":"no"},"id":42,"name":"card"} /--><!-- svc/frame {"slug":"hdr","ref":null} /-->`;
  assert.deepEqual(compileFrame(html).analysis.frame_refs, [
    {
      insert: "svc/partial",
      at: 0,
      keys: [
        ["id", "42"],
        ["name", "card"],
      ],
    },
    { insert: "svc/frame", at: html.indexOf("<!-- svc/frame"), keys: [["slug", "hdr"]] },
  ]);
});

test("sources are the sorted unique direct reads: token namespaces, repeat sources (bare name -> data.x), menu locations, languages", () => {
  const a = compileFrame(
    `<b data-op-bind='{"text":"data.team.0.name","title":"settings.x","class":"site.name"}'></b>` +
      `<!-- svc/repeat {"source":"products"} --><!-- /svc/repeat --><!-- svc/repeat {"source":"data.team"} --><!-- /svc/repeat -->` +
      `<!-- svc/repeat {"source":"item.children"} --><!-- /svc/repeat -->` +
      `<!-- svc/menu {"location":"footer_2"} /--><!-- op/lang-switcher /--><!-- svc/frame {"name":"x"} /-->`,
  ).analysis;
  assert.deepEqual(a.sources, ["data.products", "data.team", "languages", "menu.footer_2", "settings", "site"]);
  assert.deepEqual(a.live_reasons, ["insert op/lang-switcher"]);
});

test("live_reasons names each page token once, and page-dependent repeats and the language switcher", () => {
  const a = compileFrame(
    `<i data-op-bind='{"text":"page.title"}'></i><i data-op-bind='{"title":"page.title","text":"page.fields.a"}'></i>` +
      `<!-- svc/repeat {"source":"breadcrumbs"} --><!-- /svc/repeat --><!-- op/lang-switcher /--><!-- op/lang-switcher /-->`,
  ).analysis;
  assert.deepEqual(a.live_reasons, [
    "bind page.title",
    "bind page.fields.a",
    "repeat breadcrumbs",
    "insert op/lang-switcher",
  ]);
});

test("binds counts data-op-bind attributes, bind_tags and tokens are sorted unique", () => {
  const a = compileFrame(
    `<SPAN data-op-bind='{"text":"site.name"}'></SPAN><a data-op-bind='{"href":"site.url"}'></a><span data-op-bind='{"text":"site.name"}'></span>`,
  ).analysis;
  assert.equal(a.binds, 3);
  assert.deepEqual(a.bind_tags, ["a", "span"]);
  assert.deepEqual(a.tokens, ["site.name", "site.url"]);
});

test("has_doctype and has_body reflect the markup", () => {
  assert.deepEqual(
    [
      compileFrame("<!doctype html><html><body></body></html>").analysis,
      compileFrame("<div>fragment</div>").analysis,
    ].map((a) => [a.has_doctype, a.has_body]),
    [
      [true, true],
      [false, false],
    ],
  );
});

test("warnings carry a code, a message and the UTF-16 offset of what they are about", () => {
  const html = `😀é<!-- svc/menu {bad} /-->`;
  assert.deepEqual(
    compileFrame(html).analysis.warnings.map((w) => [w.code, w.at, typeof w.message]),
    [["bad_insert_params", 3, "string"]],
  );
});

test("a second data-op-bind on one element is dropped with duplicate_bind", () => {
  const c = compileFrame(`<p data-op-bind='{"text":"site.name"}' data-op-bind='{"text":"site.url"}'>x</p>`);
  assert.deepEqual(
    c.analysis.warnings.map((w) => w.code),
    ["duplicate_bind"],
  );
  assert.equal(renderFrame(c, fixtureContext({ values: { "site.name": "N", "site.url": "U" } })).html, "<p>N</p>");
});

test("the program of plain markup is one static range of the original string", () => {
  const html = "<p>plain</p>\r\n";
  assert.deepEqual(compileFrame(html).program.ops, [{ t: "static", s: 0, e: html.length }]);
});

test("svg content is foreign: its <title> and <style> children are parsed as markup", () => {
  const c = compileFrame(
    `<svg><title data-op-bind='{"text":"site.name"}'>x</title><style><!-- svc/menu {"location":"header"} /--></style></svg>`,
  );
  assert.equal(c.analysis.binds, 1);
  assert.equal(c.analysis.inserts_total, 1);
});

test("render asks the context once per token and never for item.* or vars.*", () => {
  const ctx = fixtureContext({ values: { "site.name": "S" }, items: { "data.t": [{ n: 1 }, { n: 2 }] } });
  renderFrame(
    compileFrame(
      `<!-- svc/repeat {"source":"t"} --><b data-op-bind='{"text":"site.name","title":"item.n","class":"vars.c"}'></b><!-- /svc/repeat -->`,
    ),
    ctx,
  );
  assert.deepEqual(ctx.calls, ["items data.t", "value site.name"]);
});

test("render statistics count what was written: binds per element written, blocks per marker pair", () => {
  const r = renderFrame(
    compileFrame(
      `<!-- svc/repeat {"source":"t"} --><b data-op-bind='{"text":"item.n"}'></b><!-- svc/x /--><!-- /svc/repeat -->`,
    ),
    fixtureContext({ items: { "data.t": [{ n: 1 }, { n: 2 }, { n: 3 }] } }),
  );
  assert.deepEqual(
    [r.binds, r.bind_tags, r.repeats, r.blocks, r.inserts, r.unknown_inserts],
    [3, ["b"], 1, 1, 4, ["svc/x"]],
  );
});

import { test } from "node:test";
import assert from "node:assert/strict";
import { compileFrame, renderFrame } from "../../src/markup/index.ts";
import { bigFrame } from "../fixtures/big-frame.ts";

test("a 2 MB frame with 10,000 binds and 1,000 inserts is analysed completely in one pass", () => {
  const html = bigFrame();
  assert.ok(Buffer.byteLength(html) <= 2 * 1024 * 1024);
  const compiled = compileFrame(html);
  assert.equal(compiled.analysis.binds, 10000);
  assert.equal(compiled.analysis.inserts_total, 1000);
  assert.equal(compiled.html, html);
  const rendered = renderFrame(compiled, {
    value: () => undefined,
    items: () => [],
    menu: () => [],
    languageLinks: () => [],
    frame: () => undefined,
    media: () => undefined,
    style: () => undefined,
    seo: () => undefined,
    sidebar: () => undefined,
    pager: () => undefined,
    headings: () => [],
    current: () => null,
  });
  assert.ok(!rendered.html.includes("data-op-bind"), "every bind attribute is dropped from the output");
});

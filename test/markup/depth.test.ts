// Depth bounds of the markup compiler (docs/security.md, "Parsers that refuse, not crash"): JSON
// inside markup nests at most MAX_JSON_DEPTH levels, repeat blocks at most MAX_BLOCK_DEPTH, so the
// renderer's recursion is bounded by construction and no deep value ever sits in a program.
// nestedDeeperThan is the one linear scan that measures JSON depth, for these and for request
// bodies (app.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { compileFrame, renderFrame } from "../../src/markup/index.ts";
import { MAX_BLOCK_DEPTH } from "../../src/markup/compile-inserts.ts";
import { MAX_JSON_DEPTH, nestedDeeperThan } from "../../src/markup/json-scan.ts";
import type { Op } from "../../src/markup/program.ts";
import { fixtureContext } from "./fixture-context.ts";

const codes = (warnings: ReadonlyArray<{ code: string }>) => warnings.map((w) => w.code);
const arrays = (n: number, inner = "") => "[".repeat(n) + inner + "]".repeat(n);
const objects = (n: number) => `${'{"a":'.repeat(n - 1)}{}${"}".repeat(n - 1)}`;
/** `n` repeat blocks inside one another, each over a source of one item. */
const repeats = (n: number, inner = "x") =>
  '<!-- svc/repeat {"source":"one"} -->'.repeat(n) + inner + "<!-- /svc/repeat -->".repeat(n);
const ONE = { items: { "data.one": [{ n: 1 }] } };

/** Depth of a parsed JSON value: the top-level value is level 1, each object or array inside one more. */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== "object") return 0;
  let deepest = 0;
  for (const child of Object.values(value)) deepest = Math.max(deepest, depthOf(child));
  return deepest + 1;
}

/** Blocks nested in a program, deepest path. */
function blockDepth(ops: readonly Op[]): number {
  let deepest = 0;
  for (const op of ops) if (op.t === "repeat") deepest = Math.max(deepest, 1 + blockDepth(op.body));
  return deepest;
}

test("nestedDeeperThan: 64 levels are not deeper than 64, 65 are; objects and arrays count alike", () => {
  assert.equal(MAX_JSON_DEPTH, 64);
  assert.equal(nestedDeeperThan(arrays(64), 64), false);
  assert.equal(nestedDeeperThan(arrays(65), 64), true);
  assert.equal(nestedDeeperThan(objects(64), 64), false);
  assert.equal(nestedDeeperThan(objects(65), 64), true);
  assert.equal(nestedDeeperThan(`{"a":[1,{"b":[]}],"c":{}}`, 4), false);
  assert.equal(nestedDeeperThan(`{"a":[1,{"b":[]}],"c":{}}`, 3), true);
  assert.equal(nestedDeeperThan("42", 0), false);
});

test("nestedDeeperThan: brackets inside strings do not count, escaped quotes do not end a string", () => {
  assert.equal(nestedDeeperThan(JSON.stringify({ s: "[".repeat(1000) }), 1), false);
  assert.equal(nestedDeeperThan(JSON.stringify({ s: '\\"[[[[' + "\\" }), 1), false);
  assert.equal(nestedDeeperThan(`{"s":"\\\\"}${arrays(3)}`, 2), true); // the string ends at the quote after an escaped backslash
  assert.equal(nestedDeeperThan(`["\\"]"]`, 1), false);
  // Unterminated: not JSON; the parser after it refuses the text.
  assert.equal(nestedDeeperThan(`["[[[`, 1), false);
});

test("nestedDeeperThan agrees with the depth of the parsed value (random JSON)", () => {
  const text = fc.oneof(
    fc.jsonValue({ maxDepth: 8 }).map((v) => JSON.stringify(v)),
    fc
      .string({ unit: fc.constantFrom("[", "]", "{", "}", '"', "\\", ",", ":", "a", "1"), maxLength: 40 })
      .filter((s) => {
        try {
          JSON.parse(s);
          return true;
        } catch {
          return false;
        }
      }),
  );
  fc.assert(
    fc.property(text, fc.nat(10), (json, max) => {
      assert.equal(nestedDeeperThan(json, max), depthOf(JSON.parse(json)) > max, json);
    }),
    { numRuns: 300 },
  );
});

test("nestedDeeperThan is one linear pass: 12 MiB of escapes or brackets take milliseconds, deep text stops early", () => {
  const escapes = JSON.stringify({ s: '\\"'.repeat(2 * 1024 * 1024) });
  const flat = arrays(64, `${"1,".repeat(3 * 1024 * 1024)}1`);
  const started = performance.now();
  assert.equal(nestedDeeperThan(escapes, 64), false);
  assert.equal(nestedDeeperThan(flat, 64), false);
  assert.equal(nestedDeeperThan("[".repeat(12 * 1024 * 1024), 64), true);
  assert.ok(performance.now() - started < 1000);
});

test(`repeat blocks nest ${MAX_BLOCK_DEPTH} deep; the block opened inside the 64th prints nothing (repeat_too_deep), once`, () => {
  assert.equal(MAX_BLOCK_DEPTH, 64);
  const ok = compileFrame(repeats(64));
  assert.deepEqual(codes(ok.analysis.warnings), []);
  assert.equal(blockDepth(ok.program.ops), 64);
  assert.equal(renderFrame(ok, fixtureContext(ONE)).html.replace(/<!-- \/?op\/repeat[^>]*-->/g, ""), "x");

  const html = repeats(65);
  const over = compileFrame(html);
  assert.deepEqual(codes(over.analysis.warnings), ["repeat_too_deep"]);
  assert.equal(over.analysis.warnings[0]!.at, html.indexOf("<!--", 64 * 36));
  assert.equal(over.analysis.repeats, 65);
  assert.equal(blockDepth(over.program.ops), 65);
  const out = renderFrame(over, fixtureContext(ONE)).html;
  assert.equal(out.match(/<!-- op\/repeat/g)!.length, 64, "the 65th block prints nothing, markers included");
  assert.ok(!out.includes("x"));
});

test("2,000 nested repeat blocks compile to a program 65 blocks deep and render without overflowing the stack", () => {
  const html = `<p data-op-bind='{"text":"item.n"}'></p>${repeats(2000, '<i data-op-bind=\'{"text":"item.n"}\'></i>')}`;
  const compiled = compileFrame(html);
  assert.deepEqual(codes(compiled.analysis.warnings), ["repeat_too_deep"]);
  assert.equal(
    blockDepth(compiled.program.ops),
    65,
    "repeats inside the too-deep block are text of its body, not blocks",
  );
  const out = renderFrame(compiled, fixtureContext(ONE));
  assert.equal(out.repeats, 64);
});

test("a too-deep block that is never closed is printed as written, like any unclosed block", () => {
  const html = `${'<!-- svc/repeat {"source":"one"} -->'.repeat(70)}y<!-- /svc/repeat -->`;
  const compiled = compileFrame(html);
  const warned = codes(compiled.analysis.warnings);
  assert.equal(warned.filter((code) => code === "repeat_too_deep").length, 1);
  assert.equal(
    warned.filter((code) => code === "unclosed_repeat").length,
    65,
    "the 65 blocks opened; the close is text of the too-deep one",
  );
  assert.equal(renderFrame(compiled, fixtureContext(ONE)).html, html);
});

test("insert parameters nested deeper than 64 levels are never parsed: insert_params_too_deep, the insert prints nothing", () => {
  const ctx = () => fixtureContext({ ...ONE, frames: { x: "X" } });
  const at64 = compileFrame(`<!-- svc/frame {"name":"x","a":${arrays(63)}} /-->`);
  assert.deepEqual(codes(at64.analysis.warnings), []);
  assert.match(renderFrame(at64, ctx()).html, /X/);

  for (const html of [
    `<!-- svc/frame {"name":"x","a":${arrays(64)}} /-->`,
    `<!-- svc/frame {"name":"x","a":${arrays(100_000)}} /-->`,
    `<!-- svc/partial {"name":"x","with":${objects(64)}} /-->`,
    `<!-- svc/menu {"location":"header","class":${arrays(64, '"c"')}} /-->`,
  ]) {
    const compiled = compileFrame(html);
    assert.deepEqual(codes(compiled.analysis.warnings), ["insert_params_too_deep"], html.slice(0, 40));
    assert.deepEqual(compiled.analysis.frame_refs, []);
    assert.equal(renderFrame(compiled, ctx()).html, "");
  }

  const block = compileFrame(`<!-- svc/repeat {"source":"one","match":${objects(64)}} -->x<!-- /svc/repeat -->`);
  assert.deepEqual(codes(block.analysis.warnings), ["insert_params_too_deep"]);
  assert.equal(renderFrame(block, ctx()).html, "");
});

test("a bind nested deeper than 64 levels is dropped (bind_too_deep); the element stays", () => {
  const at64 = compileFrame(`<p data-op-bind='{"text":"site.name","x":${arrays(63)}}'>a</p>`);
  assert.deepEqual(codes(at64.analysis.warnings), ["bad_bind"]); // x is not a token string, but the bind is read
  const compiled = compileFrame(`<p data-op-bind='{"text":"site.name","x":${arrays(64)}}' class="c">a</p>`);
  assert.deepEqual(codes(compiled.analysis.warnings), ["bind_too_deep"]);
  assert.equal(renderFrame(compiled, fixtureContext({ values: { "site.name": "S" } })).html, '<p class="c">a</p>');
});

test("100,000 nested elements compile and render as written (the compiler keeps open elements in a list)", () => {
  const html = `${"<div>".repeat(100_000)}<b data-op-bind='{"text":"site.name"}'>a</b>${"</div>".repeat(100_000)}`;
  const compiled = compileFrame(html);
  assert.deepEqual(codes(compiled.analysis.warnings), []);
  const out = renderFrame(compiled, fixtureContext({ values: { "site.name": "S" } })).html;
  assert.equal(out, `${"<div>".repeat(100_000)}<b>S</b>${"</div>".repeat(100_000)}`);
});

test("the deepest program the compiler lets through renders: 17 frames embedded in one another, 64 blocks each", () => {
  // 16 embedded frames (MAX_FRAME_DEPTH) under the top one, each 64 repeat blocks deep with a
  // bound element at every level and a deep menu at the bottom: the renderer's deepest recursion.
  const frames: Record<string, string> = {};
  const level = `<!-- svc/repeat {"source":"one"} --><b data-op-bind='{"text":"item.n"}'></b>`;
  for (let i = 0; i < 20; i++) {
    frames[`f${i}`] =
      level.repeat(64) +
      `<!-- svc/partial {"name":"f${i + 1}"} /--><!-- svc/menu {"location":"m"} /-->` +
      "<!-- /svc/repeat -->".repeat(64);
  }
  let menu: any[] = [];
  for (let i = 0; i < 100; i++) menu = [{ title: "t", url: "/", valid: true, children: menu }];
  const ctx = fixtureContext({ ...ONE, frames, menus: { m: menu } });
  const out = renderFrame(compileFrame(frames.f0!), ctx, { slug: "f0" });
  assert.equal(out.frames.length, 16);
  assert.deepEqual(codes(out.warnings), ["frame_cycle"]);
});

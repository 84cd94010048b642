import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { asMatchString, matches, matchItems, valueAt } from "../../src/markup/match.ts";
import { compileFrame, renderFrame } from "../../src/markup/index.ts";
import { fixtureContext } from "./fixture-context.ts";

describe("match: values compare as strings", () => {
  it('"3" equals 3, "3 " does not, true equals "true"', () => {
    assert.equal(matches({ n: 3 }, { n: "3" }), true);
    assert.equal(matches({ n: "3" }, { n: 3 }), true);
    assert.equal(matches({ n: "3 " }, { n: 3 }), false);
    assert.equal(matches({ n: 3 }, { n: "3 " }), false);
    assert.equal(matches({ ok: true }, { ok: "true" }), true);
    assert.equal(matches({ n: 3.5 }, { n: "3.50" }), false);
  });

  it("paths reach nested values and array elements; a key with a dot is found first", () => {
    const item = { fields: { category: "news", tags: ["a", "b"] }, "a.b": 1 };
    assert.equal(valueAt(item, "fields.category"), "news");
    assert.equal(valueAt(item, "fields.tags.1"), "b");
    assert.equal(valueAt(item, "a.b"), 1);
    assert.equal(valueAt(item, "fields.missing.deeper"), undefined);
    assert.equal(matches(item, { "fields.category": "news", "a.b": "1" }), true);
  });

  it("an array value matches when one element does; an expected array means any of its values; null means absent", () => {
    assert.equal(matches({ tags: ["x", "y"] }, { tags: "y" }), true);
    assert.equal(matches({ tags: ["x", "y"] }, { tags: "z" }), false);
    assert.equal(matches({ kind: "b" }, { kind: ["a", "b"] }), true);
    assert.equal(matches({}, { gone: null }), true);
    assert.equal(matches({ gone: 0 }, { gone: null }), false);
    assert.equal(matches({}, { missing: "undefined" }), false);
  });

  it("matchItems keeps order and, with no match, every item", () => {
    const items = [{ id: 1 }, { id: "2" }, { id: 1 }];
    assert.deepEqual(matchItems(items, { id: "1" }), [{ id: 1 }, { id: 1 }]);
    assert.deepEqual(matchItems(items, undefined), items);
    assert.deepEqual(matchItems(items, {}), items);
  });

  it("property: a number matches exactly its own String() form, and any string matches only itself", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true }), (x) => {
        assert.equal(matches({ v: x }, { v: String(x) }), true);
        assert.equal(matches({ v: x }, { v: `${String(x)} ` }), false);
      }),
    );
    fc.assert(fc.property(fc.string(), fc.string(), (a, b) => assert.equal(matches({ v: a }, { v: b }), a === b)));
    fc.assert(fc.property(fc.jsonValue(), (v) => assert.doesNotThrow(() => asMatchString(v))));
  });
});

// svc/repeat's `match` and POST /data/resolve had two implementations with different
// rules (a list of values refused by the repeat, null read as the text "null", list fields never
// matched). The renderer now uses the resolver's.
describe("svc/repeat match uses the resolver's rules", () => {
  const items = [
    { n: 1, category: "news", tags: ["a", "b"] },
    { n: 2, category: "events", tags: ["c"] },
    { n: 3, category: "other", gone: null },
    { n: 4, category: "news", "a.b": "dotted" },
  ];
  const printed = (match: unknown) => {
    const markup = `<!-- svc/repeat {"source": "data.rows", "match": ${JSON.stringify(match)}} --><i data-op-bind='{"text": "item.n"}'></i><!-- /svc/repeat -->`;
    const compiled = compileFrame(markup);
    assert.deepEqual(
      compiled.analysis.warnings.map((w) => w.code),
      [],
      JSON.stringify(match),
    );
    return [
      ...renderFrame(compiled, fixtureContext({ items: { "data.rows": items } })).html.matchAll(/<i>(\d)<\/i>/g),
    ].map((m) => Number(m[1]));
  };

  it("prints exactly the items POST /data/resolve keeps, for lists, null, list fields and dotted keys", () => {
    for (const match of [
      { category: ["news", "events"] },
      { gone: null },
      { tags: "c" },
      { "a.b": "dotted" },
      { n: "2" },
      { category: "news", n: [1, 3] },
    ]) {
      assert.deepEqual(
        printed(match),
        matchItems(items, match).map((item) => item.n),
        JSON.stringify(match),
      );
    }
  });

  it("a match value that is an object, or an empty list, makes the block invalid (warning), as before", () => {
    for (const match of [{ category: { x: 1 } }, { category: [] }, { category: [{ x: 1 }] }]) {
      const markup = `<!-- svc/repeat {"source": "data.rows", "match": ${JSON.stringify(match)}} -->x<!-- /svc/repeat -->`;
      assert.ok(compileFrame(markup).analysis.warnings.length > 0, JSON.stringify(match));
    }
  });
});

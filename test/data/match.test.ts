import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { asMatchString, matches, matchItems, valueAt } from "../../src/data/match.ts";

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
    fc.assert(fc.property(fc.double({ noNaN: true }), (x) => {
      assert.equal(matches({ v: x }, { v: String(x) }), true);
      assert.equal(matches({ v: x }, { v: `${String(x)} ` }), false);
    }));
    fc.assert(fc.property(fc.string(), fc.string(), (a, b) => assert.equal(matches({ v: a }, { v: b }), a === b)));
    fc.assert(fc.property(fc.jsonValue(), (v) => assert.doesNotThrow(() => asMatchString(v))));
  });
});

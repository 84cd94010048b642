// Stored JSON read through schemas (src/store/json-column.ts): a well-formed column gives its value,
// one that is not JSON or fails its schema gives the fallback its reader states (or CorruptJson,
// naming the column and never the value), and each column's reader keeps its stated fallback.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { Type } from "@sinclair/typebox";
import { AnyObject, CorruptJson, jsonColumn } from "../../src/store/json-column.ts";
import { fieldsOf } from "../../src/pages/record.ts";
import { NO_SEO, seoOf } from "../../src/pages/seo.ts";
import { homePageOf, notFoundPageOf } from "../../src/site/settings.ts";
import { parseTexts } from "../../src/media/texts.ts";
import { storedItems } from "../../src/sidebars/tree.ts";
import { storedAnalysis, storedAnalysisOr } from "../../src/frames/record.ts";
import { DATASET_ITEMS } from "../../src/data/items-column.ts";
import { parseMessage } from "../../src/publish/invalidation-messages.ts";

const TEXTS = jsonColumn("test.texts", Type.Record(Type.String(), Type.String()));

describe("a JSON column read through its schema", () => {
  it("a well-formed column gives its value, typed", () => {
    assert.deepEqual(TEXTS.read('{"en":"Sea","de":"Meer"}'), { en: "Sea", de: "Meer" });
    assert.deepEqual(TEXTS.readOr('{"en":"Sea"}', "fallback"), { en: "Sea" });
  });

  it("a column that fails its schema, or is not JSON, gives the stated fallback", () => {
    for (const text of ['{"en":5}', "[]", "null", '"Sea"', "", "{not json", '{"en":"Sea"'])
      assert.equal(TEXTS.readOr(text, "fallback"), "fallback", text);
  });

  it("read throws CorruptJson naming the column and where it fails, never the value", () => {
    const secret = "s3cret-value";
    assert.throws(
      () => TEXTS.read(JSON.stringify({ en: 5, note: [secret] })),
      (error: unknown) =>
        error instanceof CorruptJson &&
        error.column === "test.texts" &&
        /\/en|\/note/.test(error.message) &&
        !error.message.includes(secret),
    );
    assert.throws(
      () => TEXTS.read(`{${secret}`),
      (error: unknown) =>
        error instanceof CorruptJson && /not JSON/.test(error.message) && !error.message.includes(secret),
    );
  });

  it("AnyObject takes any object and no array, null or scalar", () => {
    const column = jsonColumn("test.object", AnyObject);
    assert.deepEqual(column.readOr('{"a":[1,{"b":null}]}', null), { a: [1, { b: null }] });
    for (const text of ["[]", "null", "1", '"x"', "true"]) assert.equal(column.readOr(text, null), null, text);
  });

  it("property: any text reads or falls back, never throws; a value of the schema reads back equal", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
        const value = TEXTS.readOr(text, undefined);
        if (value !== undefined) assert.deepEqual(value, JSON.parse(text));
      }),
    );
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.string(), { noNullPrototype: true }), (texts) => {
        assert.deepEqual(TEXTS.read(JSON.stringify(texts)), texts);
      }),
    );
  });
});

describe("each stored column's reader keeps its stated fallback", () => {
  it("pages.fields_json: an object, else no fields", () => {
    assert.deepEqual(fieldsOf({ fields_json: '{"price":3}' }), { price: 3 });
    for (const fields_json of ["[1]", "null", "{bad"]) assert.deepEqual(fieldsOf({ fields_json }), {}, fields_json);
  });

  it("pages.seo_json: each field read alone, the defaults when the column does not read", () => {
    assert.deepEqual(seoOf({ seo_json: '{"title":"T","noindex":true,"description":5}' }), {
      ...NO_SEO,
      title: "T",
      noindex: true,
    });
    for (const seo_json of ["[]", '"T"', "{bad"]) assert.deepEqual(seoOf({ seo_json }), NO_SEO, seo_json);
  });

  it("site_settings page settings: an id or a slug, else none", () => {
    assert.equal(homePageOf({ home_page_json: "7" }), 7);
    assert.equal(notFoundPageOf({ not_found_page_json: '"missing"' }), "missing");
    for (const json of [null, "{}", "[7]", "{bad"])
      assert.equal(homePageOf({ home_page_json: json }), null, String(json));
  });

  it("media texts: a text per language, else none", () => {
    assert.deepEqual(parseTexts('{"en":"Sea"}'), { en: "Sea" });
    for (const json of ['{"en":1}', "[]", "not json"]) assert.deepEqual(parseTexts(json), {}, json);
  });

  it("sidebar_trees.items_json: stored items, else an empty tree", () => {
    const items = [
      { id: 1, kind: "section", label: "Guide", open: true, items: [{ id: 2, kind: "page", page: 5, label: null }] },
    ];
    assert.deepEqual(storedItems({ items_json: JSON.stringify(items) }), items);
    for (const items_json of ['[{"id":1,"kind":"page"}]', '[{"id":1,"kind":"gone","label":null}]', "{}", "{bad"])
      assert.deepEqual(storedItems({ items_json }), [], items_json);
  });

  it("datasets.items_json: an array of objects", () => {
    assert.deepEqual(DATASET_ITEMS.readOr('[{"name":"Ada"}]', []), [{ name: "Ada" }]);
    for (const json of ["[1]", "{}", "{bad"]) assert.deepEqual(DATASET_ITEMS.readOr(json, []), [], json);
    assert.throws(() => DATASET_ITEMS.read("[1]"), CorruptJson);
  });

  it("frames.analysis_json: read strictly, or with a stated fallback", () => {
    const stored = {
      analysis: { inserts: {}, sources: ["pages"], frame_refs: [], binds: 0, live_reasons: [], tokens: [] },
      ref_values: [],
    };
    assert.deepEqual(storedAnalysis({ analysis_json: JSON.stringify(stored) }), stored);
    assert.throws(() => storedAnalysis({ analysis_json: '{"analysis":{}}' }), CorruptJson);
    assert.equal(storedAnalysisOr({ analysis_json: "{bad" }, null), null);
  });

  it("invalidation payloads: an envelope of origin and flushes, else no message", () => {
    assert.deepEqual(parseMessage('{"origin":"a","flushes":[{"kind":"all"}]}'), {
      origin: "a",
      flushes: [{ kind: "all" }],
    });
    for (const payload of ['{"origin":1,"flushes":[]}', '{"origin":"a"}', "[]", "{bad"])
      assert.equal(parseMessage(payload), null, payload);
  });
});

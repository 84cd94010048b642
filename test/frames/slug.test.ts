import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { isValidSlug, normalizeSlug, splitSlug, suggestSlug, SLUG_PATTERN } from "../../src/frames/slug.ts";

const word = fc.stringMatching(/^[a-z0-9]+(-[a-z0-9]+){0,2}$/);
const slugParts = fc.record({
  block: word,
  element: fc.option(word, { nil: null }),
  modifier: fc.option(word, { nil: null }),
});
const join = (p: { block: string; element: string | null; modifier: string | null }) =>
  p.block + (p.element !== null ? `__${p.element}` : "") + (p.modifier !== null ? `--${p.modifier}` : "");

describe("frame slug rules", () => {
  it("the pattern is the spec's, to the letter", () => {
    assert.equal(
      SLUG_PATTERN,
      "^[a-z0-9]+(?:-[a-z0-9]+)*(?:__[a-z0-9]+(?:-[a-z0-9]+)*)?(?:--[a-z0-9]+(?:-[a-z0-9]+)*)?$",
    );
  });

  it("every block__element--modifier built from valid words is valid and splits back into its parts", () => {
    fc.assert(
      fc.property(slugParts, (parts) => {
        const slug = join(parts);
        assert.ok(isValidSlug(slug), slug);
        assert.deepEqual(splitSlug(slug), { ...parts });
      }),
    );
  });

  it("known examples split as the spec shows", () => {
    assert.deepEqual(splitSlug("article"), { block: "article", element: null, modifier: null });
    assert.deepEqual(splitSlug("article__faq"), { block: "article", element: "faq", modifier: null });
    assert.deepEqual(splitSlug("article__faq--simple"), { block: "article", element: "faq", modifier: "simple" });
    assert.deepEqual(splitSlug("site-header--dark"), { block: "site-header", element: null, modifier: "dark" });
  });

  it("malformed slugs are refused", () => {
    for (const bad of [
      "",
      "-a",
      "a-",
      "a--",
      "a__",
      "a___b",
      "a__b__c",
      "a--b--c",
      "a--b__c",
      "A",
      "a b",
      "a_b",
      "a---b",
      "ä",
      "a.b",
    ]) {
      assert.equal(isValidSlug(bad), false, JSON.stringify(bad));
    }
  });

  it("valid slugs contain only [a-z0-9_-] and never start or end with a separator", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (s) => {
        if (!isValidSlug(s)) return;
        assert.match(s, /^[a-z0-9][a-z0-9_-]*[a-z0-9]$|^[a-z0-9]$/);
      }),
    );
  });

  it("input is lower-cased: an upper-case form of a valid slug normalizes to it", () => {
    fc.assert(
      fc.property(slugParts, (parts) => assert.equal(normalizeSlug(` ${join(parts).toUpperCase()} `), join(parts))),
    );
  });

  it("a suggestion, when offered, is always valid, and a valid slug suggests itself", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (s) => {
        const suggestion = suggestSlug(s);
        if (suggestion !== null) assert.ok(isValidSlug(suggestion), `${JSON.stringify(s)} -> ${suggestion}`);
      }),
    );
    fc.assert(fc.property(slugParts, (parts) => assert.equal(suggestSlug(join(parts)), join(parts))));
    assert.equal(suggestSlug("Article FAQ__Top Item--Dark Mode"), "article-faq__top-item--dark-mode");
  });
});

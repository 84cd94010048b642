import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { FALLBACK_SLUG, firstFreeSlug, isPageSlug, MAX_PAGE_SLUG, PAGE_SLUG_PATTERN, slugFromTitle, slugify, withSuffix } from "../../src/pages/slug.ts";

const SLUG = new RegExp(PAGE_SLUG_PATTERN);
const anyText = fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: "grapheme", maxLength: 300 }), fc.string({ unit: "binary", maxLength: 300 }), fc.stringMatching(/^[A-Za-zÀ-ÿ0-9 ,.!?&'-]{0,260}$/));
const slug = fc.stringMatching(/^[a-z0-9]{1,12}(-[a-z0-9]{1,12}){0,3}$/);

describe("page slug rules", () => {
  it("slugify never throws, and its output matches the slug pattern (at most 200 characters) or is empty", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const out = slugify(text);
        assert.ok(out === "" || (SLUG.test(out) && out.length <= MAX_PAGE_SLUG), JSON.stringify([text, out]));
      }),
      { numRuns: 2000 },
    );
  });

  it("slugify is idempotent: a slug slugifies to itself", () => {
    fc.assert(fc.property(anyText, (text) => assert.equal(slugify(slugify(text)), slugify(text))), { numRuns: 2000 });
    fc.assert(fc.property(slug, (s) => assert.equal(slugify(s), s)));
  });

  it("titles become readable slugs: accents dropped, punctuation and spaces one dash, lower case", () => {
    assert.equal(slugify("About Us"), "about-us");
    assert.equal(slugify("  Hello,  World!  "), "hello-world");
    assert.equal(slugify("Über uns – Straße"), "uber-uns-strasse");
    assert.equal(slugify("Crème brûlée & Co."), "creme-brulee-co");
    assert.equal(slugify("İstanbul"), "istanbul");
    assert.equal(slugify("!!!"), "");
    assert.equal(slugFromTitle("Привет"), FALLBACK_SLUG);
    assert.equal(slugify("a".repeat(250)).length, 200);
    assert.equal(slugify(`${"a".repeat(199)}-b`), "a".repeat(199));
  });

  it("a taken slug gets -2, then -3, …: the first free one, never a taken one", () => {
    assert.equal(firstFreeSlug("about", new Set()), "about");
    assert.equal(firstFreeSlug("about", new Set(["about"])), "about-2");
    assert.equal(firstFreeSlug("about", new Set(["about", "about-2"])), "about-3");
    assert.equal(firstFreeSlug("about", new Set(["about", "about-3"])), "about-2");
    fc.assert(
      fc.property(slug, fc.integer({ min: 0, max: 30 }), (base, taken) => {
        const set = new Set([base, ...Array.from({ length: taken }, (_, i) => withSuffix(base, i + 2))]);
        const free = firstFreeSlug(base, set);
        assert.ok(!set.has(free));
        assert.equal(free, withSuffix(base, taken + 2));
        assert.ok(isPageSlug(free), free);
      }),
    );
  });

  it("a suffixed slug stays within 200 characters and stays a slug, whatever the base", () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 2, max: 100_000 }), (text, n) => {
        const base = slugFromTitle(text);
        const out = withSuffix(base, n);
        assert.ok(isPageSlug(out), JSON.stringify([base, n, out]));
        assert.ok(out.endsWith(`-${n}`));
      }),
    );
  });
});

// Properties of the rules media names, types and texts follow (src/media/names.ts, sniff.ts,
// texts.ts): slugs from any file name, unique suffixes, file names from any input, claimed types,
// SVG told from other text, texts by language.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { ServiceError } from "../../src/errors.ts";
import { firstFreeSlug, withSuffix } from "../../src/pages/slug.ts";
import { filenameFrom, isMediaSlug, MAX_FILENAME, mediaSlugFrom, slugFromFilename } from "../../src/media/names.ts";
import { claimedType, sniff } from "../../src/media/sniff.ts";
import { applyTexts, textChangesFrom } from "../../src/media/texts.ts";
import type { LanguageState } from "../../src/site/languages.ts";

const anyName = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc.string({ unit: "grapheme", maxLength: 80 }),
  fc.constantFrom(
    "holiday-photo.png",
    "2024.png",
    ".png",
    "a.b.c.jpg",
    "ÉTÉ.JPG",
    "日本.png",
    "../../etc/passwd",
    "C:\\x\\y.gif",
  ),
);

test("a file name always gives a media slug: lower-case words joined by single dashes, never digits alone, at most 200 characters", () => {
  fc.assert(
    fc.property(anyName, (name) => {
      const slug = slugFromFilename(name);
      assert.ok(isMediaSlug(slug), `${JSON.stringify(name)} → ${JSON.stringify(slug)}`);
      assert.equal(slug, slug.toLowerCase());
      assert.equal(slugFromFilename(`${slug}.png`), slug, "a slug's own file name gives it back");
    }),
    { numRuns: 2000 },
  );
  assert.equal(slugFromFilename("holiday-photo.png"), "holiday-photo");
  assert.equal(slugFromFilename("Holiday Photo.JPEG"), "holiday-photo");
  assert.equal(slugFromFilename("2024.png"), "file-2024");
  assert.equal(slugFromFilename("日本.png"), "file");
});

test("suffixes make a slug unique: the first free of base, base-2, base-3, …, each still a media slug", () => {
  fc.assert(
    fc.property(anyName, fc.nat({ max: 12 }), (name, taken) => {
      const base = slugFromFilename(name);
      const used = new Set<string>();
      for (let i = 0; i <= taken; i++) {
        const next = firstFreeSlug(base, used);
        assert.ok(!used.has(next) && isMediaSlug(next));
        assert.equal(next, withSuffix(base, i + 1), "base, then base-2, base-3, …");
        used.add(next);
      }
      assert.equal(used.size, taken + 1);
    }),
  );
});

// A PATCH slug that is not a string is refused by the route schema (test/media/edit.test.ts).
test("a PATCH slug is the slug lower-cased and trimmed, or 400 invalid_slug; digits alone never pass", () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string({ maxLength: 40 }),
        fc.stringMatching(/^[A-Za-z0-9]{1,8}(-[a-z0-9]{1,8}){0,3}$/),
        fc.integer().map(String),
      ),
      (value) => {
        try {
          const slug = mediaSlugFrom(value);
          assert.ok(slug === value.trim().toLowerCase() && isMediaSlug(slug));
        } catch (error) {
          assert.ok(error instanceof ServiceError && error.code === "invalid_slug", String(error));
        }
      },
    ),
  );
  assert.throws(
    () => mediaSlugFrom("123"),
    (e: ServiceError) => e.code === "invalid_slug",
  );
});

test("a file name from any input is its last path segment without control characters, or 400 invalid_field; never a path", () => {
  fc.assert(
    fc.property(fc.oneof(anyName, fc.anything()), (value) => {
      try {
        const name = filenameFrom(value);
        assert.ok(
          name.length > 0 && name.length <= MAX_FILENAME && !/[/\\\p{Cc}]/u.test(name) && name !== "." && name !== "..",
        );
      } catch (error) {
        assert.ok(error instanceof ServiceError && error.code === "invalid_field", String(error));
      }
    }),
    { numRuns: 2000 },
  );
  assert.equal(filenameFrom("a/b\\c.png"), "c.png");
});

test("a claimed Content-Type is its lower-case essence, aliases resolved; none and application/octet-stream claim nothing", () => {
  fc.assert(
    fc.property(fc.string(), fc.string(), (type, params) => {
      const claimed = claimedType(`${type};${params}`);
      assert.ok(claimed === null || (claimed === claimed.trim().toLowerCase() && !claimed.includes(";")));
    }),
  );
  assert.equal(claimedType(undefined), null);
  assert.equal(claimedType(" Application/Octet-Stream ; x=1"), null);
  assert.equal(claimedType("IMAGE/JPG"), "image/jpeg");
  assert.equal(claimedType("image/png; charset=binary"), "image/png");
  assert.equal(claimedType("constructor"), "constructor", "no name of Object's prototype is taken for an alias");
});

test("SVG is text whose first element is an <svg> root; any other text is not, whatever it holds", async () => {
  const svgs = [
    '<svg xmlns="http://www.w3.org/2000/svg"/>',
    '\ufeff<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd">\n<!-- c --><svg width="10" height="5"></svg>',
    '<svg:svg xmlns:svg="http://www.w3.org/2000/svg"></svg:svg>',
  ];
  for (const svg of svgs) assert.equal((await sniff(Buffer.from(svg))).mime, "image/svg+xml", svg);
  await fc.assert(
    fc.asyncProperty(fc.string({ maxLength: 200 }), async (text) => {
      const found = await sniff(Buffer.from(text));
      // Text of no known root is never taken for SVG unless it starts (after blanks) with its root.
      if (found.mime === "image/svg+xml")
        assert.match(text, /^\s*(<\?[\s\S]*?\?>\s*|<!--[\s\S]*?-->\s*|<![^>]*>\s*)*<([A-Za-z_][\w.-]*:)?svg[\s/>]/);
    }),
    { numRuns: 500 },
  );
  for (const other of ["<html><svg/></html>", "hello <svg/>", "<![CDATA[x]]><svg/>", '{"svg": 1}', "<svg\u0000/>"]) {
    assert.notEqual((await sniff(Buffer.from(other))).mime, "image/svg+xml", other);
  }
});

test("texts by language: a string is the default language's, null or \"\" removes one, null alone removes all; other languages must be the site's", () => {
  const state: LanguageState = { active: true, defaultLang: "en", codes: ["en", "fr"], rows: [] };
  assert.deepEqual(applyTexts({ fr: "Mer" }, textChangesFrom("Sea", "alt", state)), { fr: "Mer", en: "Sea" });
  assert.deepEqual(applyTexts({ fr: "Mer", en: "Sea" }, textChangesFrom({ fr: "", en: null }, "alt", state)), {});
  assert.deepEqual(applyTexts({ fr: "Mer" }, textChangesFrom(null, "alt", state)), {});
  assert.deepEqual(applyTexts({ fr: "Mer" }, textChangesFrom({ FR: "La mer" }, "alt", state)), { fr: "La mer" });
  assert.throws(
    () => textChangesFrom({ de: "Meer" }, "alt", state),
    (e: ServiceError) => e.code === "unknown_language" && e.details.field === "alt.de",
  );
  const without: LanguageState = { active: false, defaultLang: null, codes: [], rows: [] };
  assert.deepEqual(applyTexts({}, textChangesFrom("Sea", "alt", without)), { "": "Sea" });
  assert.throws(
    () => textChangesFrom({ en: "Sea" }, "alt", without),
    (e: ServiceError) => e.code === "multilang_inactive",
  );
  fc.assert(
    fc.property(fc.anything(), (value) => {
      try {
        const texts = applyTexts({}, textChangesFrom(value, "title", state));
        for (const [lang, text] of Object.entries(texts))
          assert.ok(["en", "fr"].includes(lang) && typeof text === "string" && text !== "");
      } catch (error) {
        assert.ok(error instanceof ServiceError, String(error));
      }
    }),
  );
});

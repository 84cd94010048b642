import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  FALLBACK_SLUG,
  firstFreeSlug,
  isPageSlug,
  MAX_PAGE_SLUG,
  PAGE_SLUG_PATTERN,
  slugFromTitle,
  slugify,
  withSuffix,
} from "../../src/pages/slug.ts";

const SLUG = new RegExp(PAGE_SLUG_PATTERN);
const anyText = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc.string({ unit: "grapheme", maxLength: 300 }),
  fc.string({ unit: "binary", maxLength: 300 }),
  fc.stringMatching(/^[A-Za-zÀ-ÿ0-9 ,.!?&'-]{0,260}$/),
);
const slug = fc.stringMatching(/^[a-z0-9]{1,12}(-[a-z0-9]{1,12}){0,3}$/);
/** Text in the scripts and letters the language tables know, mixed with anything. */
const tableText = fc.string({
  unit: fc.oneof(
    fc.constantFrom(..."ÄäÖöÜüßẞÆæØøÅåĐđŀĿ·‧'’ʼ -.", "l·l", "L·L", "ου", "ΑΥ", "αϋ", "γγ"),
    fc.integer({ min: 0x370, max: 0x52f }).map((c) => String.fromCodePoint(c)),
    fc.string({ minLength: 1, maxLength: 1 }),
  ),
  maxLength: 300,
});
const KNOWN_LANGS = [
  "de",
  "de-at",
  "de_CH",
  "DE",
  "da",
  "nb",
  "nn",
  "no",
  "ca",
  "sr",
  "bs",
  "uk",
  "be",
  "bg",
  "mk",
  "ru",
  "el",
  "en",
  "hr",
  "zh",
  "",
  "__proto__",
  "constructor",
];
/** Any language code: those with tables, their variants, and any string at all. */
const anyLang = fc.oneof(
  fc.constantFrom(...KNOWN_LANGS),
  fc.string({ maxLength: 12 }),
  fc.constant(null),
  fc.constant(undefined),
);
const anyInput = fc.oneof(anyText, tableText);

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
    fc.assert(
      fc.property(anyText, (text) => assert.equal(slugify(slugify(text)), slugify(text))),
      { numRuns: 2000 },
    );
    fc.assert(fc.property(slug, (s) => assert.equal(slugify(s), s)));
  });

  it("in any language (any code, null, none): never throws, a slug or empty, idempotent in that language and in any other", () => {
    fc.assert(
      fc.property(anyInput, anyLang, anyLang, (text, lang, other) => {
        const out = slugify(text, lang);
        assert.ok(out === "" || (SLUG.test(out) && out.length <= MAX_PAGE_SLUG), JSON.stringify([text, lang, out]));
        assert.equal(slugify(out, lang), out, JSON.stringify([text, lang]));
        assert.equal(slugify(out, other), out, JSON.stringify([text, lang, other]));
        assert.ok(isPageSlug(slugFromTitle(text, lang)));
      }),
      { numRuns: 3000 },
    );
    fc.assert(fc.property(slug, anyLang, (s, lang) => assert.equal(slugify(s, lang), s)));
  });

  it('a language without a table, no language, and "" give the general rule; so does the default', () => {
    fc.assert(
      fc.property(
        anyInput,
        fc.constantFrom("en", "fr", "hr", "zh", "pt-br", "", "xx-yy", "__proto__", "constructor", null, undefined),
        (text, lang) => {
          assert.equal(slugify(text, lang), slugify(text));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("German (de, de-xx): ä ae, ö oe, ü ue, ß ss, capitals too", () => {
    assert.equal(slugify("Über uns", "de"), "ueber-uns");
    assert.equal(slugify("Straße", "de"), "strasse");
    assert.equal(slugify("Größe Ärger", "de"), "groesse-aerger");
    assert.equal(slugFromTitle("Über uns", "de"), "ueber-uns");
    assert.equal(slugify("ÄRGER ÖL ÜBER GROẞ", "de-at"), "aerger-oel-ueber-gross");
    assert.equal(slugify("Grüße", "de_CH"), "gruesse");
    assert.equal(slugify("U\u0308ber", "de"), "ueber", "a decomposed ü is the same letter");
    assert.equal(slugify("Crème brûlée", "de"), "creme-brulee", "other accents are dropped as in the general rule");
    assert.equal(slugify("Über uns", "en"), "uber-uns");
    assert.equal(slugify("Über uns", ""), "uber-uns");
    assert.equal(slugify("Über uns", null), "uber-uns");
  });

  it("Danish and Norwegian (da, nb, nn, no): æ ae, ø oe, å aa", () => {
    for (const lang of ["da", "nb", "nn", "no"])
      assert.equal(slugify("Smørrebrød på Ærø", lang), "smoerrebroed-paa-aeroe", lang);
    assert.equal(slugify("Blåbærsyltetøy", "nb"), "blaabaersyltetoey");
    assert.equal(slugify("Smørrebrød på Ærø"), "smorrebrod-pa-aero");
  });

  it("Catalan (ca): l·l is ll; elsewhere the point is a break", () => {
    assert.equal(slugify("Col·lecció", "ca"), "colleccio");
    assert.equal(slugify("COL·LECCIÓ i Ŀlibre", "ca"), "colleccio-i-llibre");
    assert.equal(slugify("Col·lecció", "es"), "col-leccio");
    assert.equal(slugify("a·b", "ca"), "a-b");
  });

  it("Serbian and Bosnian (sr, bs): đ dj, and Cyrillic as the Latin alphabet's letters, so both scripts give one slug", () => {
    assert.equal(slugify("Đorđe Đoković", "sr"), "djordje-djokovic");
    assert.equal(slugify("Ђорђе Ђоковић", "sr"), "djordje-djokovic");
    assert.equal(
      slugify("Šta je Žaba, Čačak, Ćirilica, Džep, Hleb", "sr-latn"),
      slugify("Шта је Жаба, Чачак, Ћирилица, Џеп, Хлеб", "sr"),
    );
    assert.equal(slugify("Šta je Žaba", "bs"), "sta-je-zaba");
    assert.equal(slugify("Đorđe", "hr"), "dorde", "no table: the general rule");
  });

  it("Cyrillic in every language (Russian letters as the common table), with the differences of uk, be, bg, mk", () => {
    assert.equal(slugify("Привет, мир!"), "privet-mir");
    assert.equal(slugFromTitle("Привет", "en"), "privet");
    assert.equal(
      slugify("Съезд Щука Ёлка Хлеб Цирк Юла Яма Объём", "ru"),
      "sezd-shchuka-yolka-khleb-tsirk-yula-yama-obyom",
    );
    assert.equal(slugify("ЖЁЛТЫЙ ЧАЙ", "ru"), "zhyoltyy-chay");
    assert.equal(slugify("Україна Київ Єва Гора", "uk"), "ukrayina-kyyiv-yeva-hora");
    assert.equal(slugify("Україна Київ Єва Гора", "en"), "ukrayina-kiyiv-yeva-gora");
    assert.equal(slugify("м'ясо м’ясо", "uk"), "myaso-myaso", "the apostrophe inside a Ukrainian word is not a break");
    assert.equal(slugify("м'ясо", "ru"), "m-yaso");
    assert.equal(slugify("Галава", "be"), "halava");
    assert.equal(slugify("Щастие Ъгъл Хляб Сьомга", "bg"), "shtastie-agal-hlyab-syomga");
    assert.equal(slugify("Ѓорѓи Ќерка Ѕвезда Хаос Џеб", "mk"), "gjorgji-kjerka-dzvezda-haos-dzeb");
    assert.equal(slugify("Ѐ ѝ", "bg"), "e-i", "letters with a grave accent keep their base letter");
  });

  it("Greek in every language (ELOT 743 without diacritics)", () => {
    assert.equal(slugify("Ελληνικά"), "ellinika");
    assert.equal(
      slugify("Αυγό Ευρώπη Ουρανός Αγγλία Θάλασσα Ψυχή", "el"),
      "avgo-evropi-ouranos-anglia-thalassa-psychi",
    );
    assert.equal(slugify("ΟΔΟΣ ΣΟΦΙΑΣ", "en"), "odos-sofias");
    assert.equal(slugify("Αϋπνία Άυλος"), "aypnia-aylos", "a diaeresis or an accent on the first vowel breaks a pair");
    assert.equal(slugify("Ἀθῆναι"), "athinai", "polytonic letters fall back to their base letter");
  });

  it('scripts without a table still give nothing, so titles fall back to "page"', () => {
    assert.equal(slugify("你好", "zh"), "");
    assert.equal(slugFromTitle("你好", "zh"), FALLBACK_SLUG);
    assert.equal(slugFromTitle("!!!", "de"), FALLBACK_SLUG);
  });

  it("titles become readable slugs: accents dropped, punctuation and spaces one dash, lower case", () => {
    assert.equal(slugify("About Us"), "about-us");
    assert.equal(slugify("  Hello,  World!  "), "hello-world");
    assert.equal(slugify("Über uns – Straße"), "uber-uns-strasse");
    assert.equal(slugify("Crème brûlée & Co."), "creme-brulee-co");
    assert.equal(slugify("İstanbul"), "istanbul");
    assert.equal(slugify("!!!"), "");
    assert.equal(slugFromTitle("日本語"), FALLBACK_SLUG);
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

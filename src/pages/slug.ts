// Page slugs: lower-case words of letters and digits joined by single dashes, at most 200
// characters. A slug comes from `slug`, else from the title transliterated by the page's
// language (German `Über uns` → `ueber-uns`); a slug taken under the same parent in the same
// language gets `-2`, `-3`, … (docs/content-model.md, "Slugs"). Pure functions.

export const PAGE_SLUG_PATTERN = "^[a-z0-9]+(?:-[a-z0-9]+)*$";
const PAGE_SLUG = new RegExp(PAGE_SLUG_PATTERN);

export const MAX_PAGE_SLUG = 200;

/** The slug a title gives when nothing of it survives slugify (e.g. only punctuation or a script without a table, such as Chinese). */
export const FALLBACK_SLUG = "page";

export function isPageSlug(value: string): boolean {
  return value.length > 0 && value.length <= MAX_PAGE_SLUG && PAGE_SLUG.test(value);
}

// Letters NFKD does not decompose into a base letter plus marks.
const FOLD: Record<string, string> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  đ: "d",
  ð: "d",
  ł: "l",
  þ: "th",
  ı: "i",
  ħ: "h",
  ŧ: "t",
  ĸ: "k",
  ŋ: "n",
};
const FOLDED_LETTER = new RegExp(`[${Object.keys(FOLD).join("")}]`, "g");

type Table = Readonly<Record<string, string>>;

/**
 * Cyrillic for every language (Russian letters as BGN/PCGN without diacritics, plus the
 * Ukrainian, Belarusian, Serbian and Macedonian letters). Keys are lower case; capitals match too.
 */
const CYRILLIC: Table = {
  а: "a",
  б: "b",
  в: "v",
  г: "g",
  д: "d",
  е: "e",
  ё: "yo",
  ж: "zh",
  з: "z",
  и: "i",
  й: "y",
  к: "k",
  л: "l",
  м: "m",
  н: "n",
  о: "o",
  п: "p",
  р: "r",
  с: "s",
  т: "t",
  у: "u",
  ф: "f",
  х: "kh",
  ц: "ts",
  ч: "ch",
  ш: "sh",
  щ: "shch",
  ъ: "",
  ы: "y",
  ь: "",
  э: "e",
  ю: "yu",
  я: "ya",
  є: "ye",
  і: "i",
  ї: "yi",
  ґ: "g",
  ў: "u",
  ђ: "dj",
  ј: "j",
  љ: "lj",
  њ: "nj",
  ћ: "c",
  џ: "dz",
  ѓ: "gj",
  ќ: "kj",
  ѕ: "dz",
};

/** Greek for every language (ELOT 743 without diacritics: `ου` ou, `αυ` av, `γγ` ng; `αϋ` is a + y). */
const GREEK: Table = {
  ου: "ou",
  ού: "ou",
  αυ: "av",
  αύ: "av",
  ευ: "ev",
  εύ: "ev",
  ηυ: "iv",
  ηύ: "iv",
  γγ: "ng",
  γξ: "nx",
  γχ: "nch",
  α: "a",
  ά: "a",
  β: "v",
  γ: "g",
  δ: "d",
  ε: "e",
  έ: "e",
  ζ: "z",
  η: "i",
  ή: "i",
  θ: "th",
  ι: "i",
  ί: "i",
  ϊ: "i",
  ΐ: "i",
  κ: "k",
  λ: "l",
  μ: "m",
  ν: "n",
  ξ: "x",
  ο: "o",
  ό: "o",
  π: "p",
  ρ: "r",
  σ: "s",
  ς: "s",
  τ: "t",
  υ: "y",
  ύ: "y",
  ϋ: "y",
  ΰ: "y",
  φ: "f",
  χ: "ch",
  ψ: "ps",
  ω: "o",
  ώ: "o",
};

/** Letters of Cyrillic-script languages where they differ from the common table. */
const UKRAINIAN: Table = { г: "h", и: "y", і: "i", ї: "yi", є: "ye", й: "y" };
const BELARUSIAN: Table = { г: "h" };
const BULGARIAN: Table = { х: "h", щ: "sht", ъ: "a", ь: "y" };
/** Serbian and Bosnian: Cyrillic as the Latin alphabet's letters, folded (ж ž → z), and đ → dj. */
const SERBIAN: Table = { ђ: "dj", đ: "dj", ж: "z", ћ: "c", ц: "c", ч: "c", џ: "dz", ш: "s", х: "h" };
const MACEDONIAN: Table = { х: "h", ц: "c", џ: "dz" };
/** As WordPress's `remove_accents()` with a German locale. */
const GERMAN: Table = { ä: "ae", ö: "oe", ü: "ue", ß: "ss" };
/** Danish and Norwegian, as WordPress with `da_DK`. */
const DANISH: Table = { æ: "ae", ø: "oe", å: "aa" };
/** Catalan's punt volat (`col·lecció`; `ŀl` is the same after NFKC), as WordPress with `ca`. */
const CATALAN: Table = { l·l: "ll", "l‧l": "ll" };

/** An apostrophe inside a Ukrainian or Belarusian word (`м'ясо` → `myaso`) is not a break. */
const CYRILLIC_APOSTROPHE = /(?<=\p{Script=Cyrillic})['’ʼ](?=\p{Script=Cyrillic})/gu;

interface Rule {
  pattern: RegExp;
  table: Table;
  apostrophes: boolean;
}

function rule(own: Table = {}, apostrophes = false): Rule {
  const table: Table = { ...CYRILLIC, ...GREEK, ...own };
  const keys = Object.keys(table).sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  const pattern = new RegExp(keys.map((key) => key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "giu");
  return { pattern, table, apostrophes };
}

const GENERAL = rule();

/** Rules by a language code's first part (`de`, `de-at` and `de_CH` are German). */
const RULES: ReadonlyMap<string, Rule> = (() => {
  const danish = rule(DANISH);
  const serbian = rule(SERBIAN);
  return new Map([
    ["de", rule(GERMAN)],
    ["da", danish],
    ["nb", danish],
    ["nn", danish],
    ["no", danish],
    ["ca", rule(CATALAN)],
    ["sr", serbian],
    ["bs", serbian],
    ["uk", rule(UKRAINIAN, true)],
    ["be", rule(BELARUSIAN, true)],
    ["bg", rule(BULGARIAN)],
    ["mk", rule(MACEDONIAN)],
  ]);
})();

/** The rule of a page's language; the general rule for none ("" or null) or one without a table. */
function ruleOf(lang: unknown): Rule {
  if (typeof lang !== "string" || lang === "") return GENERAL;
  return RULES.get(lang.trim().toLowerCase().split(/[-_]/, 1)[0]) ?? GENERAL;
}

/** Replaces the letters (and letter groups, longest first) of a rule's table, capitals too. */
function transliterate(text: string, { pattern, table }: Rule): string {
  return text.replace(pattern, (match) => table[match.toLowerCase()] ?? match);
}

/** Cuts a slug to `max` characters without leaving a dash at its end. */
function cut(slug: string, max: number): string {
  return slug.length <= max ? slug : slug.slice(0, max).replace(/-+$/, "");
}

/**
 * Any text to a slug in a language: the language's letters first (`lang` `de`: ä → ae), then
 * Cyrillic and Greek letters to Latin, accents dropped, lower-cased, every run of other
 * characters one dash, no dash at either end, cut to 200 characters. "" when nothing is left.
 * `lang` null, "" or without a table gives the general rule. Never throws; idempotent (in any
 * language); its output always matches PAGE_SLUG_PATTERN or is "".
 */
export function slugify(input: string, lang?: string | null): string {
  const rule = ruleOf(lang);
  let text = input.normalize("NFKC");
  if (rule.apostrophes) text = text.replace(CYRILLIC_APOSTROPHE, "");
  // Twice: composed letters whose marks matter (ä, й, ϋ) first; base letters left by NFKD (ѐ → е) after.
  const folded = transliterate(
    transliterate(text, rule)
      .normalize("NFKD")
      .replace(/\p{M}+/gu, ""),
    rule,
  )
    .toLowerCase()
    .replace(FOLDED_LETTER, (c) => FOLD[c] ?? c);
  return cut(folded.replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, ""), MAX_PAGE_SLUG);
}

/** The slug a title gives in the page's language: slugify, or FALLBACK_SLUG when that is empty. */
export function slugFromTitle(title: string, lang?: string | null): string {
  return slugify(title, lang) || FALLBACK_SLUG;
}

/** `base` with suffix n (n ≥ 2), the base cut so the whole stays within 200 characters. */
export function withSuffix(base: string, n: number): string {
  if (n < 2) return base;
  const suffix = `-${n}`;
  return `${cut(base, MAX_PAGE_SLUG - suffix.length)}${suffix}`;
}

/** `base` if it is free, else the first of `base-2`, `base-3`, … that is. */
export function firstFreeSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = withSuffix(base, n);
    if (!taken.has(candidate)) return candidate;
  }
}

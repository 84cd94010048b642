// Page slugs: lower-case words of letters and digits joined by single dashes, at most 200
// characters. A slug comes from `slug`, else from the title (spec rule 4); a slug taken under
// the same parent in the same language gets `-2`, `-3`, … (CONTRACT §5). Pure functions.

export const PAGE_SLUG_PATTERN = "^[a-z0-9]+(?:-[a-z0-9]+)*$";
const PAGE_SLUG = new RegExp(PAGE_SLUG_PATTERN);

export const MAX_PAGE_SLUG = 200;

/** The slug a title gives when nothing of it survives slugify (e.g. only punctuation or a non-Latin script). */
export const FALLBACK_SLUG = "page";

export function isPageSlug(value: string): boolean {
  return value.length > 0 && value.length <= MAX_PAGE_SLUG && PAGE_SLUG.test(value);
}

// Letters NFKD does not decompose into a base letter plus marks.
const FOLD: Record<string, string> = {
  ß: "ss", æ: "ae", œ: "oe", ø: "o", đ: "d", ð: "d", ł: "l", þ: "th", ı: "i", ħ: "h", ŧ: "t", ĸ: "k", ŋ: "n",
};

/** Cuts a slug to `max` characters without leaving a dash at its end. */
function cut(slug: string, max: number): string {
  return slug.length <= max ? slug : slug.slice(0, max).replace(/-+$/, "");
}

/**
 * Any text to a slug: accents dropped, lower-cased, every run of other characters one dash,
 * no dash at either end, cut to 200 characters. "" when nothing is left. Never throws;
 * idempotent; its output always matches PAGE_SLUG_PATTERN or is "".
 */
export function slugify(input: string): string {
  const folded = input
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[ßæœøđðłþıħŧĸŋ]/g, (c) => FOLD[c] ?? c);
  return cut(folded.replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, ""), MAX_PAGE_SLUG);
}

/** The slug a title gives: slugify, or FALLBACK_SLUG when that is empty. */
export function slugFromTitle(title: string): string {
  return slugify(title) || FALLBACK_SLUG;
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

// A media file's names: its file name (as given, made safe to store and to put in an address)
// and its slug (unique per site, lower-case, from the file name: `holiday-photo.png` →
// `holiday-photo`, then `holiday-photo-2`). Slugs follow the page slug rules (pages/slug.ts), with
// one more: a slug is never all digits, since a reference of digits names a file by id.
import { fail } from "../errors.ts";
import { slugify, isPageSlug, PAGE_SLUG_PATTERN, MAX_PAGE_SLUG } from "../pages/slug.ts";
import { fileStem } from "./addresses.ts";

export const MAX_FILENAME = 200;
/** The slug of a file whose name gives nothing to slugify (`.png`, `—.jpg`, a non-Latin name). */
export const FALLBACK_MEDIA_SLUG = "file";
export const MEDIA_SLUG_PATTERN = PAGE_SLUG_PATTERN;

const DIGITS = /^[0-9]+$/;

/**
 * A file name from input: the last segment of a path (`C:\photos\a.png` → `a.png`), without
 * control characters, trimmed, in NFC; 400 invalid_field when nothing is left or it is too long.
 */
export function filenameFrom(value: unknown, field = "filename"): string {
  const text = typeof value === "string" ? value : "";
  const name = text
    .split(/[/\\]/)
    .pop()!
    .replace(/\p{Cc}/gu, "")
    .normalize("NFC")
    .trim();
  if (name === "" || name === "." || name === "..") {
    throw fail(
      "invalid_field",
      { field, reason: value === undefined || value === null ? "missing" : "empty" },
      `A file needs a name: ${field}, e.g. holiday-photo.png.`,
    );
  }
  if (name.length > MAX_FILENAME)
    throw fail(
      "invalid_field",
      { field, max_length: MAX_FILENAME },
      `${field} is longer than ${MAX_FILENAME} characters.`,
    );
  return name;
}

/** What a slug reference reads as: lower-cased, trimmed. */
export function normalizeMediaSlug(value: string): string {
  return value.trim().toLowerCase();
}

export function isMediaSlug(slug: string): boolean {
  return isPageSlug(slug) && !DIGITS.test(slug);
}

/** The slug a file name gives before it is made unique: its stem slugified; digits only get `file-` before them. */
export function slugFromFilename(filename: string): string {
  const base = slugify(fileStem(filename)) || FALLBACK_MEDIA_SLUG;
  return DIGITS.test(base) ? `${FALLBACK_MEDIA_SLUG}-${base}`.slice(0, MAX_PAGE_SLUG) : base;
}

/** A slug given in a PATCH: lower-cased and trimmed, else 400 invalid_slug. */
export function mediaSlugFrom(value: string): string {
  const slug = normalizeMediaSlug(value);
  if (!isMediaSlug(slug)) {
    throw fail(
      "invalid_slug",
      {
        field: "slug",
        slug: value,
        pattern: MEDIA_SLUG_PATTERN,
        max_length: MAX_PAGE_SLUG,
        suggestion: slugFromFilename(value),
      },
      "A media slug is lower-case letters and digits in words joined by single dashes, not digits alone, at most 200 characters.",
    );
  }
  return slug;
}

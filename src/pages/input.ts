// Reading a page write's body (docs/content-model.md, "Pages"): types, limits, the slug rule,
// ignored inputs.
// Services get here whatever arrived; every wrong type or size is a 400 naming the field.
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import { PAGE_STATUSES, type PageStatus } from "./queries.ts";
import { isPageSlug, MAX_PAGE_SLUG, PAGE_SLUG_PATTERN, slugify } from "./slug.ts";

export const MAX_TITLE = 1000;
/** Page content is HTML of at most 2 MiB of UTF-8, like a frame's markup. */
export const MAX_CONTENT_BYTES = 2_097_152;
/** `fields` as JSON text. */
export const MAX_FIELDS_BYTES = 262_144;

export const PATCH_KEYS = [
  "title",
  "slug",
  "url",
  "parent",
  "status",
  "lang",
  "content",
  "content_format",
  "fields",
  "frame",
  "seo",
  "menu_order",
  "date",
  "tags",
  "feed",
  "create_missing_parents",
] as const;
/** POST /pages takes an `id` besides what a PATCH takes. */
export const PUBLISH_KEYS = ["id", ...PATCH_KEYS] as const;

const SLUG_HINT = "Lower-case letters and digits, words joined by single dashes (about-us); at most 200 characters.";

function wrongType(field: string, expected: string): never {
  throw fail("invalid_field", { field, expected }, `${field} must be ${expected}.`);
}

function tooLong(field: string, max: number, unit: "characters" | "bytes" = "characters"): never {
  throw fail(
    "invalid_field",
    { field, [unit === "bytes" ? "max_bytes" : "max_length"]: max },
    `${field} is longer than ${max} ${unit}.`,
  );
}

/** Warnings for `template` (ignored) and every other key the call does not know. */
export function inputWarnings(body: Record<string, unknown>, known: readonly string[]): Warning[] {
  const out: Warning[] = [];
  for (const key of Object.keys(body)) {
    if (key === "template")
      out.push(
        warning(
          "template_ignored",
          "Pages have no template on a v2 site; a page names its frame (`frame`). `template` was ignored.",
          { field: key },
        ),
      );
    else if (!known.includes(key))
      out.push(warning("unknown_field", `Field "${key}" is not known here and was ignored.`, { field: key }));
  }
  return out;
}

/** A title: a string of at most 1,000 characters, trimmed; undefined when absent. */
export function titleFrom(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") wrongType("title", "a string");
  if (value.length > MAX_TITLE) tooLong("title", MAX_TITLE);
  return value.trim();
}

export interface SlugInput {
  given: string;
  slug: string;
}

/**
 * An explicit slug: at most 200 characters; made a slug by the same rule as titles (so
 * `About Us` is `about-us`, reported as `slug_normalized`); nothing left is 400 invalid_slug.
 */
export function slugFrom(value: unknown, warnings: Warning[]): SlugInput | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") wrongType("slug", "a string");
  const given = value.trim();
  if (given.length > MAX_PAGE_SLUG) tooLong("slug", MAX_PAGE_SLUG);
  const slug = slugify(given);
  if (!isPageSlug(slug))
    throw fail(
      "invalid_slug",
      { slug: value, pattern: PAGE_SLUG_PATTERN, hint: SLUG_HINT },
      "The slug is empty or has no letters or digits.",
    );
  if (slug !== given.toLowerCase())
    warnings.push(
      warning("slug_normalized", `The slug "${given}" was written as "${slug}".`, { from: given, to: slug }),
    );
  return { given, slug };
}

export function statusFrom(value: unknown): PageStatus | undefined {
  if (value === undefined || value === null) return undefined;
  const status = typeof value === "string" ? value.trim().toLowerCase() : value;
  if (typeof status !== "string" || !(PAGE_STATUSES as readonly string[]).includes(status)) {
    throw fail(
      "invalid_field",
      { field: "status", allowed: PAGE_STATUSES, status: value },
      `status must be one of ${PAGE_STATUSES.join(", ")}.`,
    );
  }
  return status as PageStatus;
}

export function contentFrom(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (value === null) return "";
  if (typeof value !== "string") wrongType("content", "a string of HTML or Markdown");
  if (value.length > MAX_CONTENT_BYTES || Buffer.byteLength(value, "utf8") > MAX_CONTENT_BYTES)
    tooLong("content", MAX_CONTENT_BYTES, "bytes");
  return value;
}

/** What a page's `content` is written in (docs/content-model.md, "Markdown"). */
export const CONTENT_FORMATS = ["html", "markdown"] as const;
export type ContentFormat = (typeof CONTENT_FORMATS)[number];

/** `content_format`: `html` or `markdown`; null is `html`, the default; undefined when absent. */
export function contentFormatFrom(value: unknown): ContentFormat | undefined {
  if (value === undefined) return undefined;
  if (value === null) return "html";
  if (typeof value !== "string" || !(CONTENT_FORMATS as readonly string[]).includes(value))
    throw fail(
      "invalid_field",
      { field: "content_format", allowed: CONTENT_FORMATS },
      `content_format must be one of ${CONTENT_FORMATS.join(", ")}.`,
    );
  return value as ContentFormat;
}

export function fieldsFrom(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  if (value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) wrongType("fields", "an object");
  if (Buffer.byteLength(JSON.stringify(value), "utf8") > MAX_FIELDS_BYTES) tooLong("fields", MAX_FIELDS_BYTES, "bytes");
  return value as Record<string, unknown>;
}

/**
 * `fields` of a PATCH merge into the stored ones; a key set to null is removed. Keys are data,
 * `__proto__` too: defined, not assigned (an assignment would set the object's prototype and the
 * field would vanish from what is stored).
 */
export function mergeFields(stored: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  if (Buffer.byteLength(JSON.stringify(out), "utf8") > MAX_FIELDS_BYTES) tooLong("fields", MAX_FIELDS_BYTES, "bytes");
  return out;
}

/** `menu_order` (docs/sidebars.md): a whole number (negative ones too); null is 0; undefined when absent. */
export function menuOrderFrom(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (value === null) return 0;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || Math.abs(value) > 1_000_000_000)
    wrongType("menu_order", "a whole number between -1,000,000,000 and 1,000,000,000");
  return value;
}

export function booleanFrom(value: unknown, field: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean") wrongType(field, "true or false");
  return value;
}

/** A page id: a positive integer or a string of digits. */
export function pageIdFrom(value: unknown, field = "id"): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const n =
    typeof value === "number"
      ? value
      : typeof value === "string" && /^\s*\d{1,15}\s*$/.test(value)
        ? Number(value)
        : NaN;
  if (!Number.isSafeInteger(n) || n <= 0) wrongType(field, "a page id (a positive integer)");
  return n;
}

/** A `url` or path string; undefined when absent. */
export function urlFrom(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") wrongType("url", "a string (the page's path)");
  if (value.length > 4000) tooLong("url", 4000);
  return value;
}

/** A page reference (`parent`, `page`): an id or a string; 0, "0", "" and "/" mean "none" when allowed. */
export function refFrom(value: unknown, field: string): number | string | undefined {
  if (value === undefined) return undefined;
  if (value === null) return 0;
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value) || value < 0) wrongType(field, "a page id, slug or path");
    return value;
  }
  if (typeof value !== "string") wrongType(field, "a page id, slug or path");
  if (value.length > 4000) tooLong(field, 4000);
  const trimmed = value.trim();
  if (trimmed === "" || trimmed === "0" || trimmed === "/") return 0;
  return trimmed;
}

// A page's own SEO fields (docs/seo.md): `title` (the SEO title the site's template is
// applied to), `description`, `canonical` (a site path or an absolute http(s) URL), `noindex`
// and `og_image` (a media reference). Stored with the page (`pages.seo_json`), per translation,
// written by `seo` in POST and PATCH /pages and by PATCH /seo/pages/{ref}. A field left null uses
// the default: the page's title, the site's description, the page's own address, the site's image.
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import type { Db } from "../store/database.ts";
import { AnyObject, jsonColumn } from "../store/json-column.ts";
import type { PageRow } from "./queries.ts";

export interface PageSeo {
  title: string | null;
  description: string | null;
  canonical: string | null;
  noindex: boolean;
  og_image: string | null;
}

export const SEO_KEYS = ["title", "description", "canonical", "noindex", "og_image"] as const;
const MAX_SEO_TITLE = 300;
const MAX_DESCRIPTION = 1000;
const MAX_CANONICAL = 2000;
const MAX_MEDIA_REF = 200;

export const NO_SEO: PageSeo = Object.freeze({
  title: null,
  description: null,
  canonical: null,
  noindex: false,
  og_image: null,
});

const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);

/**
 * The SEO fields as stored (`seo_json`): an object whose fields are read one by one, so a field of
 * the wrong type falls back to its default alone.
 */
export const PAGE_SEO = jsonColumn("pages.seo_json", AnyObject);

/** The SEO fields stored with a page (defaults for whatever is missing or unreadable). */
export function seoOf(row: Pick<PageRow, "seo_json">): PageSeo {
  const stored: Record<string, unknown> = PAGE_SEO.readOr(row.seo_json, {});
  return {
    title: text(stored.title),
    description: text(stored.description),
    canonical: text(stored.canonical),
    noindex: stored.noindex === true,
    og_image: text(stored.og_image),
  };
}

function invalid(field: string, expected: string): never {
  throw fail("invalid_field", { field: `seo.${field}`, expected }, `seo.${field} must be ${expected}.`);
}

function textField(value: unknown, field: string, max: number): string | null {
  if (value === null) return null;
  if (typeof value !== "string") invalid(field, "a string or null");
  if (value.length > max)
    throw fail(
      "invalid_field",
      { field: `seo.${field}`, max_length: max },
      `seo.${field} is longer than ${max} characters.`,
    );
  return value.trim() === "" ? null : value.trim();
}

/**
 * A canonical address as stored: a site path (`/about/`; a path without its trailing slash gets
 * one) or an absolute http(s) URL, kept as written. Anything else is refused.
 */
export function canonicalFrom(value: unknown, field = "seo.canonical"): string | null {
  if (value === null) return null;
  const expected = "a site path starting with / or an absolute http(s) URL, or null";
  if (typeof value !== "string") throw fail("invalid_field", { field, expected }, `${field} must be ${expected}.`);
  const given = value.trim();
  if (given === "") return null;
  if (given.length > MAX_CANONICAL || /[\s<>"\\]/.test(given))
    throw fail("invalid_field", { field, expected }, `${field} must be ${expected}.`);
  if (given.startsWith("/") && !given.startsWith("//")) return given;
  try {
    const url = new URL(given);
    if ((url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "") return given;
  } catch {
    // not a URL
  }
  throw fail("invalid_field", { field, expected }, `${field} must be ${expected}.`);
}

/** A media reference as stored: an id (a positive integer, kept as its text) or a slug. */
export function mediaRefFrom(value: unknown, field: string): string | null {
  if (value === null) return null;
  if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return String(value);
  if (typeof value !== "string")
    throw fail(
      "invalid_field",
      { field, expected: "a media id or slug, or null" },
      `${field} must be a media id or slug, or null.`,
    );
  const ref = value.trim();
  if (ref.length > MAX_MEDIA_REF)
    throw fail(
      "invalid_field",
      { field, max_length: MAX_MEDIA_REF },
      `${field} is longer than ${MAX_MEDIA_REF} characters.`,
    );
  return ref === "" ? null : ref;
}

/** Refuses a media reference that names no file of the site: 404 media_not_found naming the field. */
export async function requireMedia(db: Db, siteId: number, ref: string | null, field: string): Promise<void> {
  if (ref === null) return;
  if (!(await mediaNamed(db, siteId, ref))) throw fail("media_not_found", { ref, field });
}

/** Whether a file of the site has this id or slug (read here: the media feature stands above pages). */
export async function mediaNamed(db: Db, siteId: number, ref: string): Promise<boolean> {
  const byId = /^[1-9]\d{0,14}$/.test(ref) ? Number(ref) : null;
  let query = db.selectFrom("media").select("id").where("site_id", "=", siteId);
  query =
    byId === null
      ? query.where("slug", "=", ref)
      : query.where((eb) => eb.or([eb("id", "=", byId), eb("slug", "=", ref)]));
  return (await query.executeTakeFirst()) !== undefined;
}

/**
 * The `seo` object of a write: any of its keys (null resets one to its default); `seo: null`
 * resets them all. Unknown keys are ignored with a warning. Undefined when absent.
 */
export function seoPatchFrom(value: unknown, warnings: Warning[]): Partial<PageSeo> | undefined {
  if (value === undefined) return undefined;
  if (value === null) return { ...NO_SEO };
  if (typeof value !== "object" || Array.isArray(value))
    throw fail("invalid_field", { field: "seo", expected: "an object" }, "seo must be an object.");
  const input = value as Record<string, unknown>;
  const patch: Partial<PageSeo> = {};
  for (const key of Object.keys(input)) {
    if (!(SEO_KEYS as readonly string[]).includes(key))
      warnings.push(
        warning("unknown_field", `Field "seo.${key}" is not known here and was ignored.`, { field: `seo.${key}` }),
      );
  }
  if (Object.hasOwn(input, "title")) patch.title = textField(input.title, "title", MAX_SEO_TITLE);
  if (Object.hasOwn(input, "description"))
    patch.description = textField(input.description, "description", MAX_DESCRIPTION);
  if (Object.hasOwn(input, "canonical")) patch.canonical = canonicalFrom(input.canonical);
  if (Object.hasOwn(input, "noindex")) {
    if (input.noindex !== null && typeof input.noindex !== "boolean") invalid("noindex", "true or false");
    patch.noindex = input.noindex === true;
  }
  if (Object.hasOwn(input, "og_image")) patch.og_image = mediaRefFrom(input.og_image, "seo.og_image");
  return patch;
}

/** The stored JSON of a page's SEO after a patch: only the fields that differ from the defaults. */
export function seoJsonAfter(stored: PageSeo, patch: Partial<PageSeo>): string {
  const merged = { ...stored, ...patch };
  const kept: Record<string, unknown> = {};
  for (const key of SEO_KEYS) if (merged[key] !== NO_SEO[key]) kept[key] = merged[key];
  return JSON.stringify(kept);
}

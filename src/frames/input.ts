// Reading a frame write's body (docs/frames.md, "Writes"): the markup and its aliases,
// the slug, the flags, and the ignored inputs that are reported as warnings.
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import { isValidSlug, normalizeSlug, SLUG_HINT, SLUG_PATTERN, suggestSlug } from "./slug.ts";

/** 2 MB of UTF-8 markup: 2,097,152 bytes, answered as `max_bytes` with frame_too_large. */
export const MAX_FRAME_BYTES = 2_097_152;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const HTML_KEYS = ["html", "markup", "content"] as const;
const FLAG_KEYS = ["dry_run", "bake"] as const;
const IGNORED: Record<string, [string, string]> = {
  type: ["type_ignored", "Frames have no type; `type` was ignored."],
  default: ["default_ignored", "Frames have no default flag; `default` was ignored."],
  is_default: ["default_ignored", "Frames have no default flag; `is_default` was ignored."],
  name: ["name_ignored", "Frames have no name; `name` was ignored (the slug names a frame)."],
};

export interface FrameFlags {
  dryRun: boolean;
  bake: boolean;
}

function flag(body: Record<string, unknown>, key: string, fallback: boolean): boolean {
  const value = body[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "boolean")
    throw fail("invalid_field", { field: key, expected: "boolean" }, `${key} must be true or false.`);
  return value;
}

export function flagsOf(body: Record<string, unknown>): FrameFlags {
  return { dryRun: flag(body, "dry_run", false), bake: flag(body, "bake", true) };
}

export function refuseUrl(body: Record<string, unknown>): void {
  if (body.url !== undefined) throw fail("frame_url_not_supported");
}

/**
 * Slugs no frame may take: every method on `/frames/defaults` answers 410 gone (the removed
 * endpoint), so a frame with that slug could never be addressed by its slug.
 */
export const RESERVED_SLUGS: readonly string[] = ["defaults"];

/** A slug from input, lower-cased; 400 invalid_slug with pattern and hint when malformed, missing or reserved. */
export function slugFrom(value: unknown): string {
  const slug = typeof value === "string" ? normalizeSlug(value) : "";
  if (RESERVED_SLUGS.includes(slug)) {
    throw fail(
      "invalid_slug",
      { slug: value, pattern: SLUG_PATTERN, hint: SLUG_HINT, reserved: true },
      `"${slug}" is reserved: /frames/${slug} is a removed endpoint, so no frame could be reached under it. Choose another slug.`,
    );
  }
  if (!isValidSlug(slug)) {
    throw fail("invalid_slug", {
      slug: value ?? null,
      pattern: SLUG_PATTERN,
      hint: SLUG_HINT,
      ...(typeof value === "string" && suggestSlug(value) ? { suggestion: suggestSlug(value) } : {}),
    });
  }
  return slug;
}

/** The markup under `html`, `markup` or `content`; its size is checked before anything parses it. */
export function markupFrom(body: Record<string, unknown>): string {
  const key = HTML_KEYS.find((k) => body[k] !== undefined && body[k] !== null);
  const html = key === undefined ? undefined : body[key];
  if (html === undefined || html === "") throw fail("frame_html_required");
  if (typeof html !== "string")
    throw fail("invalid_field", { field: key, expected: "string" }, `${key} must be a string of markup.`);
  if (html.length > MAX_FRAME_BYTES || Buffer.byteLength(html, "utf8") > MAX_FRAME_BYTES) {
    throw fail("frame_too_large", { max_bytes: MAX_FRAME_BYTES, bytes: Buffer.byteLength(html, "utf8") });
  }
  // A lone surrogate (`"\ud800"` in JSON) has no UTF-8 form: storing it would change the bytes.
  const lone = LONE_SURROGATE.exec(html);
  if (lone)
    throw fail(
      "invalid_field",
      { field: key, at: lone.index, expected: "UTF-8 text" },
      `${key} holds a lone UTF-16 surrogate at offset ${lone.index}: markup must be valid Unicode text.`,
    );
  return html;
}

/** Warnings for ignored inputs (type, default, is_default, name) and unknown keys. */
export function ignoredInputWarnings(body: Record<string, unknown>, known: readonly string[]): Warning[] {
  const out: Warning[] = [];
  const seen = new Set<string>();
  for (const key of Object.keys(body)) {
    const ignored = IGNORED[key];
    if (ignored) {
      if (!seen.has(ignored[0])) out.push(warning(ignored[0], ignored[1], { field: key }));
      seen.add(ignored[0]);
    } else if (!known.includes(key)) {
      out.push(warning("unknown_field", `Field "${key}" is not known here and was ignored.`, { field: key }));
    }
  }
  return out;
}

export const WRITE_KEYS = ["slug", ...HTML_KEYS, ...FLAG_KEYS, "url"] as const;

/** 409 slug_taken naming the occupant (its `id`), whose markup PUT replaces. */
export function slugTaken(id: string | null, slug: string) {
  return fail("slug_taken", { id, slug }, "Another frame already has this slug; replace its markup with PUT.");
}

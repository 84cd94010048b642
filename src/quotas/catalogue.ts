// The per-site quotas (docs/security.md, "Quotas"): what each counts, its default and its unit. A
// write that would raise a use past its quota is refused with quota_exceeded: 409 for a count, 413
// for bytes (src/http/errors.ts asks `isByteQuota`). The limits a super-administrator sets are read
// and written by limits.ts; the use by usage.ts.
//
// `media_bytes` counts the bytes of a site's media files: migration 0060 adds its
// counter to `site_usage` (no media existed before it), `recountUsage` sums the rows, and the
// media feature calls `requireRoom(trx, siteId, { media_bytes: ±size })` in the transaction of an
// upload, a replacement (new size − old) and a delete. Two rows naming one blob (the same bytes
// uploaded twice) count twice: each is the site's file, whoever else stores the same bytes.
//
// Every byte a site causes is counted. `stored_bytes` counts each revision and each
// trash entry besides the live content (revisions/ moves it in the write's transaction; bytes.ts
// says what a row weighs). `published_bytes` counts what the publish engine keeps of a site: its
// static copies and its frame bakes. They are derived, so passing that quota refuses no write: an
// output that does not fit is not kept and its page renders on request (output/kept-output.ts,
// `takeRoom`). Variants of media count in `media_bytes` the same way (`takeRoom`). It counts the
// stylesheet bundles served too (styles/copies.ts), which nothing can stand in for: a stylesheet
// write whose bundles do not fit is refused, and a bundle made outside a write is charged.
import { fail } from "../errors.ts";

export const GiB = 1024 * 1024 * 1024;

/** The default of `media_bytes`. */
export const MEDIA_BYTES_DEFAULT = 5 * GiB;

/** The default of `published_bytes`. */
export const PUBLISHED_BYTES_DEFAULT = 5 * GiB;

export interface Quota {
  unit: "count" | "bytes";
  default: number;
  /** What the use counts, for the documentation (OpenAPI). */
  counts: string;
}

export const QUOTAS = {
  pages: {
    unit: "count",
    default: 50_000,
    counts: "every page: drafts, trash, translations and stubs; a page deleted for good frees its place",
  },
  frames: { unit: "count", default: 5_000, counts: "frames" },
  data_items: { unit: "count", default: 100_000, counts: "items of every data set and language variant" },
  stored_bytes: {
    unit: "bytes",
    default: GiB,
    counts:
      "UTF-8 bytes of frame markup, page titles, content, fields and tags (as stored JSON), data-set items as JSON, stylesheets as uploaded and texts, of every revision kept of them, and of the trash",
  },
  media_bytes: {
    unit: "bytes",
    default: MEDIA_BYTES_DEFAULT,
    counts: "bytes of the site's media files, each file counted in full, and of their variants",
  },
  published_bytes: {
    unit: "bytes",
    default: PUBLISHED_BYTES_DEFAULT,
    counts:
      "bytes of the static copies of the site's pages, of its frame bakes and of its stylesheet bundles (CSS, brotli and gzip; a replaced one kept a day); past it, outputs are not kept and their pages render on request, and a stylesheet write that would store a bundle is refused",
  },
  form_submissions: {
    unit: "count",
    default: 100_000,
    counts:
      "form submissions kept (docs/forms.md); past it, a visitor's submission is refused and nothing is stored; a deleted or expired one frees its place",
  },
} as const satisfies Record<string, Quota>;

export type QuotaKey = keyof typeof QUOTAS;

/** In the order answers list them and refusals check them. */
export const QUOTA_KEYS = Object.keys(QUOTAS) as QuotaKey[];

/** A value for every quota (limits, or use). */
export type QuotaValues = Record<QuotaKey, number>;

export function isQuotaKey(key: unknown): key is QuotaKey {
  return typeof key === "string" && Object.hasOwn(QUOTAS, key);
}

/** A byte quota answers 413 when a write would pass it, a count 409. */
export function isByteQuota(key: unknown): boolean {
  return isQuotaKey(key) && QUOTAS[key].unit === "bytes";
}

export function defaultQuotas(): QuotaValues {
  return Object.fromEntries(QUOTA_KEYS.map((key) => [key, QUOTAS[key].default])) as QuotaValues;
}

/** What PATCH /quotas sets: a whole number, or null for the default. */
export type QuotaChanges = Partial<Record<QuotaKey, number | null>>;

/**
 * The changes of a PATCH body, its values typed by the route schema (a whole number >= 0 sets a
 * quota, null restores the default; network/quota-routes.ts): a key that is not a quota is 400
 * invalid_quota naming it.
 */
export function quotaChangesFrom(body: QuotaChanges): QuotaChanges {
  const changes: QuotaChanges = {};
  for (const key of Object.keys(body)) {
    if (!isQuotaKey(key)) {
      throw fail(
        "invalid_quota",
        { quota: key, quotas: QUOTA_KEYS },
        `"${key}" is not a quota. The quotas are ${QUOTA_KEYS.join(", ")}.`,
      );
    }
    changes[key] = body[key];
  }
  if (Object.keys(changes).length === 0)
    throw fail("nothing_to_update", { allowed: QUOTA_KEYS }, `Name at least one quota: ${QUOTA_KEYS.join(", ")}.`);
  return changes;
}

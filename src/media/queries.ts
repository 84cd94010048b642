// Reads of the media table. A reference is an id (digits) or a slug; every read is within one
// site, so another site's id or slug finds nothing (404 media_not_found, nothing learned).
import { sql } from "kysely";
import { fail } from "../errors.ts";
import type { Db } from "../store/database.ts";
import type { MediaTable } from "../store/schema.ts";
import type { Selectable } from "kysely";
import { listWindow, type ListWindow, type Windowed } from "../store/lists.ts";
import { normalizeMediaSlug } from "./names.ts";
import type { MediaKind } from "./sniff.ts";
import { fileUrl, variantsOf } from "./addresses.ts";
import { parseTexts } from "./texts.ts";

export type MediaRow = Selectable<MediaTable>;

const ID = /^[1-9][0-9]{0,15}$/;

/** The row a reference names on a site, or undefined. */
export async function findMedia(db: Db, siteId: number, ref: string): Promise<MediaRow | undefined> {
  const query = db.selectFrom("media").selectAll().where("site_id", "=", siteId);
  const trimmed = ref.trim();
  return (
    ID.test(trimmed) ? query.where("id", "=", Number(trimmed)) : query.where("slug", "=", normalizeMediaSlug(trimmed))
  ).executeTakeFirst();
}

/** The row a reference names, else 404 media_not_found. */
export async function requireMedia(db: Db, siteId: number, ref: string): Promise<MediaRow> {
  const row = await findMedia(db, siteId, ref);
  if (!row) throw fail("media_not_found", { ref }, `No media file "${ref}" on this site.`);
  return row;
}

export interface MediaFilters {
  kind: MediaKind | null;
  /** Lower-cased words looked for in the file name, alts and titles. */
  search: string | null;
}

/** `text` for a LIKE pattern that matches it literally. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** One page of a site's files, newest first. */
export async function listMediaRows(
  db: Db,
  siteId: number,
  filters: MediaFilters,
  window: ListWindow,
): Promise<Windowed<MediaRow>> {
  let query = db.selectFrom("media").selectAll().where("site_id", "=", siteId);
  if (filters.kind !== null) query = query.where("kind", "=", filters.kind);
  if (filters.search !== null)
    query = query.where(sql<boolean>`search_text like ${`%${likeLiteral(filters.search)}%`} escape '\\'`);
  return listWindow(query.orderBy("id", "desc"), window);
}

/** The slugs of a site that `base` or `base-<n>` could collide with. */
export async function slugsLike(db: Db, siteId: number, base: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom("media")
    .select("slug")
    .where("site_id", "=", siteId)
    .where((eb) => eb.or([eb("slug", "=", base), eb("slug", "like", `${likeLiteral(base)}-%`)]))
    .execute();
  return new Set(rows.map((row) => row.slug));
}

/** Whether any row of any site names the blob. */
export async function blobIsNamed(db: Db, sha256: string): Promise<boolean> {
  return (
    (await db.selectFrom("media").select("id").where("sha256", "=", sha256).limit(1).executeTakeFirst()) !== undefined
  );
}

/** A media file as renders read it. */
export interface MediaForRender {
  id: number;
  slug: string;
  url: string;
  mime: string;
  /** `{"<lang>": "…"}`; "" is the site without languages. */
  alt: Readonly<Record<string, string>>;
  width: number | null;
  height: number | null;
  /** Narrower copies of a raster image, narrowest first. */
  variants: ReadonlyArray<{ url: string; width: number }>;
}

/** A ref that reads as an id: digits without a leading zero, within the id column's range. */
function idOf(ref: string): number | undefined {
  if (!/^[1-9]\d{0,9}$/.test(ref)) return undefined;
  const id = Number(ref);
  return id <= 2_147_483_647 ? id : undefined;
}

/**
 * The site's media files named by `refs` (an id as text, or a slug), in one query, keyed by each
 * ref that names one, as renders print them (tokens `media.<ref>.*`, svc/image); a ref naming
 * nothing, or a file of another site, is absent.
 */
export async function mediaByRefs(
  db: Db,
  siteId: number,
  refs: readonly string[],
): Promise<Map<string, MediaForRender>> {
  const found = new Map<string, MediaForRender>();
  const ids = [...new Set(refs.map(idOf).filter((id) => id !== undefined))];
  const slugs = [...new Set(refs)];
  if (slugs.length === 0) return found;
  const rows = await db
    .selectFrom("media")
    .select(["id", "slug", "filename", "mime", "sha256", "width", "height", "alt_json"])
    .where("site_id", "=", siteId)
    .where((eb) => (ids.length > 0 ? eb.or([eb("id", "in", ids), eb("slug", "in", slugs)]) : eb("slug", "in", slugs)))
    .execute();
  const byId = new Map<number, MediaForRender>();
  const bySlug = new Map<string, MediaForRender>();
  for (const row of rows) {
    const file: MediaForRender = {
      id: row.id,
      slug: row.slug,
      url: fileUrl(row),
      mime: row.mime,
      alt: parseTexts(row.alt_json),
      width: row.width,
      height: row.height,
      variants: variantsOf(row).map(({ url, width }) => ({ url, width })),
    };
    byId.set(row.id, file);
    bySlug.set(row.slug, file);
  }
  // An id wins over a slug that reads as the same digits.
  for (const ref of refs) {
    const id = idOf(ref);
    const file = (id !== undefined ? byId.get(id) : undefined) ?? bySlug.get(ref);
    if (file) found.set(ref, file);
  }
  return found;
}

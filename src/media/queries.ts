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

export type MediaRow = Selectable<MediaTable>;

const ID = /^[1-9][0-9]{0,15}$/;

/** The row a reference names on a site, or undefined. */
export async function findMedia(db: Db, siteId: number, ref: string): Promise<MediaRow | undefined> {
  const query = db.selectFrom("media").selectAll().where("site_id", "=", siteId);
  const trimmed = ref.trim();
  return (ID.test(trimmed) ? query.where("id", "=", Number(trimmed)) : query.where("slug", "=", normalizeMediaSlug(trimmed))).executeTakeFirst();
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
export async function listMediaRows(db: Db, siteId: number, filters: MediaFilters, window: ListWindow): Promise<Windowed<MediaRow>> {
  let query = db.selectFrom("media").selectAll().where("site_id", "=", siteId);
  if (filters.kind !== null) query = query.where("kind", "=", filters.kind);
  if (filters.search !== null) query = query.where(sql<boolean>`search_text like ${`%${likeLiteral(filters.search)}%`} escape '\\'`);
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
  return (await db.selectFrom("media").select("id").where("sha256", "=", sha256).limit(1).executeTakeFirst()) !== undefined;
}

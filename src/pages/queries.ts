// Page rows of one site. Plain functions taking the database or a transaction.
import type { Db } from "../store/database.ts";
import type { PageRow } from "../store/schema.ts";
import type { PageLite } from "../effects/page-tree.ts";
import { siteIdValue } from "../store/by-id.ts";

export type { PageLite, PageRow };
/** `future`: scheduled, shown nowhere until its date, then published (pages/scheduler.ts). */
export type PageStatus = "publish" | "future" | "draft" | "trash";
export const PAGE_STATUSES: readonly PageStatus[] = ["publish", "future", "draft", "trash"];

/** The columns of a light page row (PageLite). */
export const LITE = [
  "id",
  "parent_id",
  "status",
  "lang",
  "slug",
  "path",
  "title",
  "translation_group",
  "frame_id",
  "feed",
] as const;

export function pageById(db: Db, siteId: number, id: number): Promise<PageRow | undefined> {
  return db.selectFrom("pages").selectAll().where("site_id", "=", siteId).where("id", "=", id).executeTakeFirst();
}

export function pagesByIds(db: Db, siteId: number, ids: readonly number[]): Promise<PageRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("pages")
    .selectAll()
    .where(siteIdValue, "=", siteId)
    .where("id", "in", [...ids])
    .execute();
}

/** The page that holds `slug` under `parentId` in `lang` ('' for none), trashed ones included. */
export function pageAt(
  db: Db,
  siteId: number,
  parentId: number,
  lang: string,
  slug: string,
): Promise<PageRow | undefined> {
  return db
    .selectFrom("pages")
    .selectAll()
    .where("site_id", "=", siteId)
    .where("parent_id", "=", parentId)
    .where("lang", "=", lang)
    .where("slug", "=", slug)
    .executeTakeFirst();
}

/** Slugs held under a parent in a language (trashed pages keep theirs), optionally but one page's. */
export async function slugsUnder(
  db: Db,
  siteId: number,
  parentId: number,
  lang: string,
  exceptId?: number,
): Promise<Set<string>> {
  let query = db
    .selectFrom("pages")
    .select(["slug"])
    .where("site_id", "=", siteId)
    .where("parent_id", "=", parentId)
    .where("lang", "=", lang);
  if (exceptId !== undefined) query = query.where("id", "!=", exceptId);
  return new Set((await query.execute()).map((row) => row.slug));
}

export interface PageFilter {
  /** Only this language ('' for pages without one); undefined: every language. */
  lang?: string;
  /** Only these statuses; undefined: every status. */
  statuses?: readonly string[];
  parentId?: number;
  slug?: string;
  path?: string;
  /** Leave trashed pages out (for slug and path lookups). */
  withoutTrash?: boolean;
}

export function findPages(db: Db, siteId: number, filter: PageFilter = {}): Promise<PageRow[]> {
  let query = db.selectFrom("pages").selectAll().where("site_id", "=", siteId);
  if (filter.lang !== undefined) query = query.where("lang", "=", filter.lang);
  if (filter.statuses !== undefined) query = query.where("status", "in", [...filter.statuses]);
  if (filter.parentId !== undefined) query = query.where("parent_id", "=", filter.parentId);
  if (filter.slug !== undefined) query = query.where("slug", "=", filter.slug);
  if (filter.path !== undefined) query = query.where("path", "=", filter.path);
  if (filter.withoutTrash) query = query.where("status", "!=", "trash");
  return query.orderBy("path").orderBy("lang").orderBy("id").execute();
}

/** Every page of the site in its light form: one query for visibility and tree walks. */
export function liteRowsOf(db: Db, siteId: number): Promise<PageLite[]> {
  return db.selectFrom("pages").select(LITE).where("site_id", "=", siteId).execute();
}

/**
 * Light rows of these pages and of every ancestor, read level by level (one query per level,
 * however large the site): a PageTree over them answers `visible` for each of the pages.
 */
export async function withAncestors(
  db: Db,
  siteId: number,
  ids: Iterable<number>,
  known: Iterable<PageLite> = [],
): Promise<PageLite[]> {
  const rows = new Map<number, PageLite>();
  for (const row of known) rows.set(row.id, row);
  const asked = new Set<number>(rows.keys());
  let next = [...new Set(ids)];
  for (let guard = 0; guard < 256; guard++) {
    next = next.filter((id) => id > 0 && !asked.has(id));
    if (next.length === 0) {
      // Then the parents of what is held, until every chain reaches the top (or a missing row).
      next = [...new Set([...rows.values()].map((row) => row.parent_id))].filter((id) => id > 0 && !asked.has(id));
      if (next.length === 0) break;
    }
    for (const id of next) asked.add(id);
    for (const row of await db
      .selectFrom("pages")
      .select(LITE)
      .where(siteIdValue, "=", siteId)
      .where("id", "in", next)
      .execute())
      rows.set(row.id, row);
    next = [];
  }
  return [...rows.values()];
}

/** Members of translation groups (light rows). */
export function groupMembers(db: Db, siteId: number, groups: readonly number[]): Promise<PageLite[]> {
  if (groups.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("pages")
    .select(LITE)
    .where("site_id", "=", siteId)
    .where("translation_group", "in", [...groups])
    .execute();
}

/** Every descendant of a page, level by level (light rows); cycles in stored data cannot loop. */
export async function descendantsOf(db: Db, siteId: number, id: number): Promise<PageLite[]> {
  const out: PageLite[] = [];
  const seen = new Set<number>([id]);
  let level = [id];
  while (level.length > 0) {
    const rows = await db
      .selectFrom("pages")
      .select(LITE)
      .where("site_id", "=", siteId)
      .where("parent_id", "in", level)
      .orderBy("id")
      .execute();
    level = [];
    for (const row of rows) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      out.push(row);
      level.push(row.id);
    }
  }
  return out;
}

/** A page's ancestors, nearest first (light rows). */
export async function ancestorsOf(
  db: Db,
  siteId: number,
  page: Pick<PageLite, "id" | "parent_id">,
): Promise<PageLite[]> {
  const out: PageLite[] = [];
  const seen = new Set<number>([page.id]);
  let parentId = page.parent_id;
  while (parentId !== 0 && !seen.has(parentId)) {
    seen.add(parentId);
    const parent = await db
      .selectFrom("pages")
      .select(LITE)
      .where("site_id", "=", siteId)
      .where("id", "=", parentId)
      .executeTakeFirst();
    if (!parent) break;
    out.push(parent);
    parentId = parent.parent_id;
  }
  return out;
}

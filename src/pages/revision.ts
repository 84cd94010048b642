// A page's state as its revisions keep it (docs/revisions.md): each translation is an object of its
// own, kept by its id. Its content is the page's JSON, pretty-printed one field per line with
// sorted keys (revisions.ts prettyJson); the same fields decide the summary (`["title"]`,
// `["content"]`).
// The frame is kept by id, so a rename of the frame is no change of the page; the path is left
// out (it follows the slugs above it), so a move of a parent is no change of its descendants.
import { prettyJson, recordRevision, type Snapshot } from "../revisions/revisions.ts";
import type { Db } from "../store/database.ts";
import type { PageRow } from "../store/schema.ts";
import { revisedBy } from "../write/pipeline.ts";
import { PAGE_FIELDS } from "./record.ts";
import { PAGE_SEO } from "./seo.ts";
import { isoDate, PAGE_TAGS } from "./post-fields.ts";

type Kept = Pick<
  PageRow,
  | "parent_id"
  | "lang"
  | "slug"
  | "title"
  | "status"
  | "content"
  | "content_format"
  | "content_trust"
  | "fields_json"
  | "frame_id"
  | "translation_group"
  | "seo_json"
  | "menu_order"
  | "date_gmt"
  | "tags_json"
  | "feed"
>;

export function pageSnapshot(row: Kept): Snapshot {
  const fields = {
    parent: row.parent_id,
    lang: row.lang === "" ? null : row.lang,
    slug: row.slug,
    title: row.title,
    status: row.status,
    content: row.content,
    // A Markdown page keeps its format and whose source it is (how its raw HTML prints); an HTML
    // page's state stays as it was before pages had a format.
    ...(row.content_format === "markdown"
      ? { content_format: "markdown", content_trust: row.content_trust === "raw" ? "raw" : "sanitized" }
      : {}),
    // A stored value that is not what its column holds is kept as its text.
    fields: PAGE_FIELDS.readOr(row.fields_json, row.fields_json),
    frame_id: row.frame_id,
    translation_group: row.translation_group,
    seo: PAGE_SEO.readOr(row.seo_json, row.seo_json),
    menu_order: row.menu_order,
    date: isoDate(row.date_gmt),
    tags: PAGE_TAGS.readOr(row.tags_json, row.tags_json),
    feed: row.feed === 1,
  };
  return { content: prettyJson(fields), fields };
}

const COLUMNS = [
  "id",
  "parent_id",
  "lang",
  "slug",
  "title",
  "status",
  "content",
  "content_format",
  "content_trust",
  "fields_json",
  "frame_id",
  "translation_group",
  "seo_json",
  "menu_order",
  "date_gmt",
  "tags_json",
  "feed",
] as const;

/** Records a revision of each of these pages whose state changed (inside the writing transaction). */
export async function revisePages(trx: Db, siteId: number, ids: Iterable<number>, now: string): Promise<void> {
  const wanted = [...new Set(ids)];
  for (let at = 0; at < wanted.length; at += 500) {
    const rows = await trx
      .selectFrom("pages")
      .select(COLUMNS)
      .where("site_id", "=", siteId)
      .where("id", "in", wanted.slice(at, at + 500))
      .orderBy("id")
      .execute();
    for (const row of rows) await recordRevision(trx, siteId, "pages", String(row.id), pageSnapshot(row), now);
  }
}

// Every page a write lists in what it wrote gets its revision from the write pipeline.
revisedBy("page", (trx, siteId, ids, now) => revisePages(trx, siteId, ids.map(Number), now));

// The page record (docs/content-model.md, "The record"), and the page item the data sources return.
import type { PublicFront } from "../config.ts";
import { formatOf } from "./content.ts";
import type { SiteRow } from "../site/sites.ts";
import type { Db } from "../store/database.ts";
import { AnyObject, jsonColumn } from "../store/json-column.ts";
import { linkUrl, pageUrl, siteAddressing, type SiteAddressing } from "../site/addresses.ts";
import { frameFactsOf, frameSlugOf, staticCopiesOf, type FrameFacts, type StaticCopyFacts } from "./frame-facts.ts";
import { groupMembers, withAncestors, type PageRow } from "./queries.ts";
import { PageTree } from "./tree.ts";
import { seoOf, type PageSeo } from "./seo.ts";
import { isoDate, tagsOf } from "./post-fields.ts";

export interface Printed {
  how: "static" | "on_request" | "none";
  reason: string;
}

export interface StaticState {
  published: boolean;
  url: string | null;
  bytes: number | null;
  written_at_gmt: string | null;
  /** Why there is no static copy; null when there is one. */
  reason: string | null;
}

export interface PageRecord {
  id: number;
  title: string;
  slug: string;
  path: string;
  url: string;
  status: string;
  parent: number;
  lang: string | null;
  translations: Record<string, number>;
  frame: string | null;
  content: string;
  /** What `content` is written in: `html` or `markdown` (its source). */
  content_format: "html" | "markdown";
  fields: Record<string, unknown>;
  /** The page's own SEO fields (docs/seo.md); null ones use the defaults. */
  seo: PageSeo;
  /** The order among siblings in generated sidebars (docs/sidebars.md). */
  menu_order: number;
  /** The publication date (ISO 8601, UTC); null until set or first published. */
  date: string | null;
  tags: string[];
  /** Whether it publishes an Atom feed of its list at `<url>feed.xml`. */
  feed: boolean;
  visible: boolean;
  static: StaticState;
  printed: Printed;
  created_at_gmt: string;
  updated_at_gmt: string;
}

/** What data sources return for a page (`pages`, `pages.children`, `breadcrumbs`); svc/repeat's `order_by` reads `date`, `modified`, `title`, `menu_order`. */
export interface PageItem {
  id: number;
  title: string;
  slug: string;
  path: string;
  url: string;
  lang: string | null;
  parent: number;
  fields: Record<string, unknown>;
  /** The publication date (ISO 8601); null until set or first published. */
  date: string | null;
  /** The last write (ISO 8601). */
  modified: string;
  menu_order: number;
  tags: string[];
}

/** A page's own fields as stored (`fields_json`): an object of any JSON values. */
export const PAGE_FIELDS = jsonColumn("pages.fields_json", AnyObject);

/** The page's fields; none when the stored value is not an object (renders and reads print the rest of the page). */
export function fieldsOf(row: Pick<PageRow, "fields_json">): Record<string, unknown> {
  return PAGE_FIELDS.readOr(row.fields_json, {});
}

/**
 * How the public address answers now (docs/content-model.md, "The record"): not at all in trash,
 * scheduled (`future`), in draft, under an unpublished parent, without a frame or with its frame
 * deleted; per request when the frame depends on the page; else from the static copy (per request
 * until one is written).
 */
export function printedOf(
  status: string,
  visible: boolean,
  frameId: string | null,
  frame: FrameFacts | undefined,
  copy: StaticCopyFacts | undefined,
): Printed {
  if (status === "trash") return { how: "none", reason: "trash" };
  if (status === "future") return { how: "none", reason: "future" };
  if (status !== "publish") return { how: "none", reason: "draft" };
  if (!visible) return { how: "none", reason: "parent_unpublished" };
  if (frameId === null) return { how: "none", reason: "no_frame" };
  if (!frame) return { how: "none", reason: "frame_deleted" };
  if (frame.rendersOnRequest) return { how: "on_request", reason: "frame_renders_on_request" };
  if (copy) return { how: "static", reason: "static_copy" };
  return { how: "on_request", reason: "static_copy_missing" };
}

function staticOf(printed: Printed, copy: StaticCopyFacts | undefined, origin: string): StaticState {
  if (copy && printed.how === "static") {
    return {
      published: true,
      url: `${origin}${copy.address}`,
      bytes: copy.bytes,
      written_at_gmt: copy.written_at_gmt,
      reason: null,
    };
  }
  return { published: false, url: null, bytes: null, written_at_gmt: null, reason: printed.reason };
}

/** Everything records of some pages need, loaded once for all of them. */
export interface RecordContext {
  addressing: SiteAddressing;
  tree: PageTree;
  frames: Map<string, FrameFacts>;
  statics: Map<number, StaticCopyFacts>;
  /** translation group → {lang: id} */
  groups: Map<number, Record<string, number>>;
}

export async function recordContext(
  db: Db,
  site: SiteRow,
  front: PublicFront,
  rows: readonly PageRow[],
  addressing?: SiteAddressing,
): Promise<RecordContext> {
  const groupIds = [...new Set(rows.map((row) => row.translation_group).filter((g): g is number => g !== null))];
  const [resolvedAddressing, lite, frames, statics, members] = await Promise.all([
    addressing ?? siteAddressing(db, site, front),
    withAncestors(
      db,
      site.id,
      rows.map((row) => row.id),
    ),
    frameFactsOf(db, site.id, new Set(rows.map((row) => row.frame_id).filter((f): f is string => f !== null))),
    staticCopiesOf(
      db,
      site.id,
      rows.map((row) => row.id),
    ),
    groupMembers(db, site.id, groupIds),
  ]);
  const groups = new Map<number, Record<string, number>>();
  for (const member of [...members].sort((a, b) => a.id - b.id)) {
    if (member.translation_group === null || member.lang === "") continue;
    const map = groups.get(member.translation_group) ?? {};
    if (map[member.lang] === undefined) map[member.lang] = member.id;
    groups.set(member.translation_group, map);
  }
  return { addressing: resolvedAddressing, tree: new PageTree(lite), frames, statics, groups };
}

/** `{lang: id}` of the page's translations, itself included; {} for a page without a language. */
export function translationsOf(
  row: Pick<PageRow, "id" | "lang" | "translation_group">,
  groups: ReadonlyMap<number, Record<string, number>>,
): Record<string, number> {
  if (row.lang === "") return {};
  const group = row.translation_group === null ? undefined : groups.get(row.translation_group);
  const out: Record<string, number> = { ...(group ?? {}) };
  out[row.lang] = row.id;
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export function pageRecord(row: PageRow, rc: RecordContext): PageRecord {
  const visible = rc.tree.visible(row.id);
  const frame = row.frame_id === null ? undefined : rc.frames.get(row.frame_id);
  const copy = rc.statics.get(row.id);
  const printed = printedOf(row.status, visible, row.frame_id, frame, copy);
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    path: row.path,
    url: pageUrl(rc.addressing, row.lang, row.path),
    status: row.status,
    parent: row.parent_id,
    lang: row.lang === "" ? null : row.lang,
    translations: translationsOf(row, rc.groups),
    frame: frameSlugOf(row.frame_id, rc.frames),
    content: row.content,
    content_format: formatOf(row),
    fields: fieldsOf(row),
    seo: seoOf(row),
    menu_order: row.menu_order,
    date: isoDate(row.date_gmt),
    tags: tagsOf(row),
    feed: row.feed === 1,
    visible,
    static: staticOf(printed, copy, rc.addressing.origin),
    printed,
    created_at_gmt: row.created_at_gmt,
    updated_at_gmt: row.updated_at_gmt,
  };
}

export async function pageRecords(
  db: Db,
  site: SiteRow,
  front: PublicFront,
  rows: readonly PageRow[],
): Promise<PageRecord[]> {
  if (rows.length === 0) return [];
  const rc = await recordContext(db, site, front, rows);
  return rows.map((row) => pageRecord(row, rc));
}

/** A page as data sources list it (`pages`, `pages.children`, `breadcrumbs`); `url` is where links point (site/addresses.ts linkUrl). */
export function pageItem(row: PageRow, addressing: SiteAddressing): PageItem {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    path: row.path,
    url: linkUrl(addressing, row.lang, row.path),
    lang: row.lang === "" ? null : row.lang,
    parent: row.parent_id,
    fields: fieldsOf(row),
    date: isoDate(row.date_gmt),
    modified: isoDate(row.updated_at_gmt)!,
    menu_order: row.menu_order,
    tags: tagsOf(row),
  };
}

// The lists pages show, read without a render (docs/markup.md, "Lists"): a page's list is the first
// paged svc/repeat of its frame (outside other repeats), whose pages answer at `<address>page/<n>/`;
// a feed shows the first list of its frame that sorts or pages pages. Both are read from the frame's
// stored analysis (`lists`), their items through the one resolver and cut by the renderer's own rules
// (markup/list-window.ts), so the public site's 404s, the sitemap, svc/pagination and the feeds
// agree with what the page prints.
import { ServiceError } from "../errors.ts";
import type { FrameNode } from "../effects/dependency-index.ts";
import { listed, pageCount, parseOrderBy, type ListEntry, type ListSpec } from "../markup/index.ts";
import type { PageRow } from "../pages/queries.ts";
import type { SiteRow } from "../site/sites.ts";
import { resolveSource, type SourceContext } from "./sources.ts";

/** Sources whose items are pages: the lists a feed can show. */
const PAGE_LISTS: ReadonlySet<string> = new Set(["pages", "pages.children"]);

/** The page's list: the first list of its frame that pages. */
export function pagedListOf(frame: Pick<FrameNode, "lists"> | undefined): ListEntry | undefined {
  return frame?.lists?.find((list) => list.page_size !== null);
}

/** The list a feed shows: the first list of the frame that pages or sorts pages. */
export function feedListOf(frame: Pick<FrameNode, "lists"> | undefined): ListEntry | undefined {
  return frame?.lists?.find((list) => PAGE_LISTS.has(list.source));
}

/** A list entry as the window rules take it. */
export function specOf(list: ListEntry): ListSpec {
  return {
    match: list.match,
    orderBy: (list.order_by === null ? undefined : parseOrderBy(list.order_by)) ?? null,
    offset: list.offset,
    limit: list.limit ?? -1,
    pageSize: list.page_size ?? 0,
  };
}

/**
 * The whole list (before paging) a page shows: its source's items for the page, in its language,
 * matched, ordered, offset and limited. Undefined when the source names nothing printable (a
 * missing data set prints nothing: an empty list).
 */
export async function listItems(
  ctx: SourceContext,
  site: SiteRow,
  page: Pick<PageRow, "id">,
  lang: string | null,
  list: ListEntry,
): Promise<unknown[] | undefined> {
  let items: unknown[];
  try {
    items = (await resolveSource(ctx, site, { source: list.source, lang: lang ?? undefined, page: page.id })).items;
  } catch (error) {
    if (error instanceof ServiceError) return error.code === "dataset_not_found" ? [] : undefined;
    throw error;
  }
  // Menu sources print their valid nodes only, as the renderer does.
  const keep = list.source.startsWith("menu.")
    ? (item: unknown) => (item as { valid?: unknown })?.valid !== false
    : undefined;
  return listed(items, specOf(list), lang, keep);
}

/** How many pages the page's list has (1 for a list that fits one page, or names nothing printable). */
export async function listPageCount(
  ctx: SourceContext,
  site: SiteRow,
  page: Pick<PageRow, "id">,
  lang: string | null,
  list: ListEntry,
): Promise<number> {
  const items = await listItems(ctx, site, page, lang, list);
  return pageCount(items?.length ?? 0, list.page_size ?? 0);
}

// What a list shows (docs/markup.md, "Lists"): the items a svc/repeat prints and POST /data/resolve
// answers are the source's items that match, in `order_by`'s order, past the first `offset`, at most
// `limit` of them; a list with `page_size` is cut into pages of that many, page n at
// `<page address>page/<n>/` (the first at the page's own address). Pure: the renderer, the resolver,
// the public site's paged addresses, the sitemap and the feeds count with the same rules.
import { matches, type Match } from "./match.ts";
import { orderItems, type OrderBy } from "./list-order.ts";

export interface ListSpec {
  match: Match | null;
  orderBy: OrderBy | null;
  /** Items skipped first (after match and order). */
  offset: number;
  /** Keep at most this many (after offset); -1: all. */
  limit: number;
  /** Items per page; 0: the list is not paged. */
  pageSize: number;
}

/** The whole list before paging: matched (and kept by `keep`), ordered, past the offset, within the limit. */
export function listed<T>(
  items: readonly T[],
  spec: Omit<ListSpec, "pageSize">,
  lang: string | null,
  keep?: (item: T) => boolean,
): T[] {
  let out = keep === undefined && spec.match === null ? [...items] : items.filter((item) => kept(item, spec, keep));
  if (spec.orderBy !== null) out = orderItems(out, spec.orderBy, lang);
  if (spec.offset > 0 || spec.limit >= 0)
    out = out.slice(spec.offset, spec.limit >= 0 ? spec.offset + spec.limit : undefined);
  return out;
}

function kept<T>(item: T, spec: Pick<ListSpec, "match">, keep?: (item: T) => boolean): boolean {
  return (keep === undefined || keep(item)) && (spec.match === null || matches(item, spec.match));
}

/** How many pages a list of `length` items makes: at least one, an empty list's. */
export function pageCount(length: number, pageSize: number): number {
  return pageSize > 0 ? Math.max(1, Math.ceil(length / pageSize)) : 1;
}

/** Page `page` (from 1) of a list cut into pages of `pageSize`. */
export function pageSlice<T>(list: readonly T[], pageSize: number, page: number): T[] {
  const start = (page - 1) * pageSize;
  return list.slice(start, start + pageSize);
}

/** The address of page `page` of the list of the page at `base` (its own address, ending in `/`). */
export function listPageUrl(base: string, page: number): string {
  return page <= 1 ? base : `${base}page/${page}/`;
}

// A tree sent back as the service answered it (`GET /menus/{ref}`, `GET /data/menu.<location>`,
// the `items` of a PUT answer): what the service filled in is recognised and not stored as if it
// had been written, so sending a fetched tree back unchanged changes nothing.
// - A page item's `url` is the answer's own when it is the address the page answers at now
//   (`""` is ignored too); any other url beside `page` is a conflict (400 bad_items).
// - An item the menu keeps (by `id`, PUT …/items) with no title of its own keeps none when the
//   title sent is the one it answered by default (its page's current title, or its link's url as
//   written); and a kept link sent with the full address it answered keeps its url as written
//   (a path stays a path and follows a new domain).
import { fail } from "../errors.ts";
import { pageUrl, type SiteAddressing } from "../site/addresses.ts";
import type { Db } from "../store/database.ts";
import type { ItemInput } from "./input.ts";
import { completeUrl } from "./links.ts";
import type { ItemRow } from "./queries.ts";
import { defaultTitle, pageItemUrl } from "./record.ts";
import { flatten, type PageFacts } from "./resolve.ts";
import type { ItemTree } from "./tree.ts";
import { siteIdValue } from "../store/by-id.ts";

/**
 * A full address sent beside `page` must be the address that page answers at (record.ts);
 * otherwise 400 bad_items with `errors: [{at, field: "page", page, url, page_url, message}]`.
 */
export function checkPageUrls(
  items: readonly ItemInput[],
  pageIds: ReadonlyMap<ItemInput, number>,
  facts: ReadonlyMap<number, PageFacts>,
  addressing: SiteAddressing,
): void {
  const errors: Array<Record<string, unknown>> = [];
  for (const item of flatten(items)) {
    if (item.pageUrl === undefined) continue;
    const page = pageIds.get(item);
    const row = (page === undefined ? undefined : facts.get(page)?.page) ?? null;
    const address = pageItemUrl(row, addressing);
    // The home page's own address is its address too (it answers 301 to `/`): items read before
    // links to the home page printed `/` may carry it.
    if (item.pageUrl === address || (row !== null && item.pageUrl === pageUrl(addressing, row.lang || null, row.path)))
      continue;
    errors.push({
      at: item.at,
      field: "page",
      page: page ?? item.page,
      url: item.pageUrl,
      page_url: address,
      message: `An item has exactly one of page or url, not both: url is not the address of the page (${address || "none: the page is gone"}). Leave url out to link the page, or page out to make a link.`,
    });
  }
  if (errors.length > 0) throw fail("bad_items", { errors: errors.slice(0, 50), total_errors: errors.length });
}

/** What the stored items a tree keeps answered by default. */
export interface Answered {
  /** `<scheme>://<domain>[:port]` (site/addresses.ts): links stored as paths answer under it. */
  origin: string;
  /** Current titles of the pages of kept page items without a title of their own. */
  pageTitles: ReadonlyMap<number, string>;
}

/** Reads what `asStored` compares with, for the held items the tree names by `id`. */
export async function answeredOf(
  db: Db,
  siteId: number,
  held: ItemTree<ItemRow>,
  items: readonly ItemInput[],
  origin: string,
): Promise<Answered> {
  const pages = new Set<number>();
  for (const item of flatten(items)) {
    const row = item.id === undefined ? undefined : held.get(item.id);
    if (row && row.title === null && row.type === "post_type" && row.page_id !== null) pages.add(row.page_id);
  }
  const rows =
    pages.size === 0
      ? []
      : await db
          .selectFrom("pages")
          .select(["id", "title"])
          .where(siteIdValue, "=", siteId)
          .where("id", "in", [...pages])
          .execute();
  return { origin, pageTitles: new Map(rows.map((row) => [row.id, row.title])) };
}

/**
 * The title and url to store for an item the menu keeps: a value the stored item answered by
 * default goes back to what is stored (no title; the link as written); anything else is taken as
 * written.
 */
export function asStored(
  input: ItemInput,
  pageId: number | null,
  kept: ItemRow,
  answered: Answered,
): Pick<ItemInput, "title" | "url"> {
  let { title, url } = input;
  if (
    pageId === null &&
    url !== undefined &&
    kept.type === "custom" &&
    kept.url !== null &&
    url === completeUrl(answered.origin, kept.url)
  )
    url = kept.url;
  if (title !== null && kept.title === null) {
    const page = kept.page_id === null ? undefined : answered.pageTitles.get(kept.page_id);
    if (title === defaultTitle(kept, page === undefined ? null : { title: page }).trim()) title = null;
  }
  return { title, url };
}

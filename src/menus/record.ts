// Menu items as answered (docs/menus.md, "Items"): id, at, title, type, page, url, parent, order, valid,
// plus target and classes. Titles, addresses and validity of page items come from the pages at
// read time, so a renamed, moved or unpublished page shows in every menu at once.
import type { PublicFront } from "../config.ts";
import { linkUrl, type SchemedDomain, type SiteAddressing } from "../site/addresses.ts";
import { linkAddressing } from "../pages/home.ts";
import type { PageLite } from "../pages/queries.ts";
import type { Db } from "../store/database.ts";
import { completeUrl } from "./links.ts";
import type { ItemRow, MenuRow } from "./queries.ts";
import { pageFacts, type InvalidReason, type PageFacts } from "./resolve.ts";
import { ItemTree, nest } from "./tree.ts";

export interface ItemRecord {
  id: number;
  at: string;
  title: string;
  type: "post_type" | "custom";
  page: number | null;
  url: string;
  parent: number;
  order: number;
  valid: boolean;
  target: string;
  classes: string;
  /** Present when `valid` is false: draft, trash, deleted or parent_unpublished. */
  invalid_reason?: InvalidReason;
}

export interface MenuView {
  tree: ItemTree<ItemRow>;
  /** Every item, parents before children, each level in order. */
  items: ItemRecord[];
  byId: Map<number, ItemRecord>;
  invalidItems: number;
}

export interface SiteRef extends SchemedDomain {
  id: number;
}

/** The address a page item links to: its page's public address (`/` for the home page), `""` when the page is gone. */
export function pageItemUrl(page: Pick<PageLite, "lang" | "path"> | null, addressing: SiteAddressing): string {
  return page ? linkUrl(addressing, page.lang || null, page.path) : "";
}

/** The title an item answers without one of its own: its page's title, or a link's url as written. */
export function defaultTitle(
  row: Pick<ItemRow, "type" | "url">,
  page: Pick<PageLite, "title"> | null | undefined,
): string {
  return row.type === "post_type" ? (page?.title ?? "") : (row.url ?? "");
}

export function itemRecord(
  row: ItemRow,
  at: string,
  parent: number,
  facts: PageFacts | undefined,
  addressing: SiteAddressing,
): ItemRecord {
  if (row.type === "post_type") {
    const page = facts?.page ?? null;
    const valid = facts?.valid ?? false;
    return {
      id: row.id,
      at,
      title: row.title ?? defaultTitle(row, page),
      type: "post_type",
      page: row.page_id,
      url: pageItemUrl(page, addressing),
      parent,
      order: row.position,
      valid,
      target: row.target,
      classes: row.classes,
      ...(valid ? {} : { invalid_reason: facts?.reason ?? "deleted" }),
    };
  }
  const url = completeUrl(addressing.origin, row.url ?? "");
  return {
    id: row.id,
    at,
    title: row.title ?? defaultTitle(row, null),
    type: "custom",
    page: null,
    url,
    parent,
    order: row.position,
    valid: true,
    target: row.target,
    classes: row.classes,
  };
}

/**
 * The items of a menu as records. `at` is the current coordinate, unless `submitted` gives the
 * coordinate each new item had in the submitted tree.
 */
export async function menuView(
  db: Db,
  site: SiteRef,
  front: PublicFront,
  rows: readonly ItemRow[],
  submitted?: Map<number, string>,
  addressing?: SiteAddressing,
): Promise<MenuView> {
  const tree = new ItemTree(rows);
  const coordinates = tree.coordinates();
  const facts = await pageFacts(
    db,
    site.id,
    rows.filter((row) => row.type === "post_type" && row.page_id !== null).map((row) => row.page_id!),
  );
  const address = addressing ?? (await linkAddressing(db, site, front));
  const items: ItemRecord[] = [];
  const byId = new Map<number, ItemRecord>();
  let invalidItems = 0;
  for (const row of tree.preorder()) {
    const record = itemRecord(
      row,
      submitted?.get(row.id) ?? coordinates.get(row.id) ?? "",
      tree.parentOf(row.id),
      row.page_id === null ? undefined : facts.get(row.page_id),
      address,
    );
    if (!record.valid) invalidItems++;
    items.push(record);
    byId.set(row.id, record);
  }
  return { tree, items, byId, invalidItems };
}

/** The nested form (`children`) that GET /data/menu.<location> answers and frames render. */
export function nestedItems(items: readonly ItemRecord[]) {
  return nest(items);
}

export function menuBrief(menu: MenuRow) {
  return { id: menu.id, name: menu.name, slug: menu.slug };
}

/** The menu as the item calls answer it. */
export const menuShort = (menu: MenuRow) => ({ id: menu.id, name: menu.name });

// The seam between data sources and menus: `menu.<location>` items (docs/menus.md). Menus do
// not exist yet, so every location answers no menu (`menu_id: 0`); the menus work fills in
// `menuSourceItems` with the tree (nested `children`, invalid items included with `valid: false`).
import type { PublicFront } from "../config.ts";
import type { Db } from "../store/database.ts";
import type { SiteAddressing } from "../site/addresses.ts";
import { locationTree } from "../menus/read-service.ts";

export interface MenuSourceResult {
  items: unknown[];
  meta: { menu_id: number; invalid_items: number };
}

export interface MenuSourceQuery {
  /** One of the site's menu locations (site/menu-locations.ts). */
  location: string;
  /** The language whose menu is read (null: the theme map). */
  lang: string | null;
  /** The site's theme: location maps are kept per theme. */
  theme: string;
  /** Port of the public site, part of every item's address. */
  publicFront: PublicFront;
  /** A publish run's addressing, with the home page's paths; read anew when absent. */
  addressing?: SiteAddressing;
}

/** The menu assigned to a location in a language: its item tree and the counts of `meta`. */
export async function menuSourceItems(db: Db, siteId: number, query: MenuSourceQuery): Promise<MenuSourceResult> {
  const tree = await locationTree(
    db,
    siteId,
    query.publicFront,
    query.location,
    query.lang,
    query.theme,
    query.addressing,
  );
  return { items: tree.items, meta: { menu_id: tree.menuId, invalid_items: tree.invalidItems } };
}

// The seam between data sources and menus: `menu.<location>` items (CONTRACT §6, §9). Menus do
// not exist yet, so every location answers no menu (`menu_id: 0`); the menus work fills in
// `menuSourceItems` with the tree (nested `children`, invalid items included with `valid: false`).
import type { Db } from "../store/database.ts";

/** The theme locations a menu can be assigned to (spec, Menu record). */
export const MENU_LOCATIONS = ["header", "footer_1", "footer_2", "footer_3"] as const;
export type MenuLocation = (typeof MENU_LOCATIONS)[number];

export function isMenuLocation(value: string): value is MenuLocation {
  return (MENU_LOCATIONS as readonly string[]).includes(value);
}

export interface MenuSourceResult {
  items: unknown[];
  meta: { menu_id: number; invalid_items: number };
}

export interface MenuSourceQuery {
  location: MenuLocation;
  /** The language whose menu is read (null: the theme map). */
  lang: string | null;
  /** The site's theme: location maps are kept per theme. */
  theme: string;
}

/** The menu assigned to a location in a language: its item tree and the counts of `meta`. */
export async function menuSourceItems(db: Db, siteId: number, query: MenuSourceQuery): Promise<MenuSourceResult> {
  // Body owned by the menus work (issue 6): the tree comes from src/menus. The port is not part of
  // the query yet; a `publicPort` given there wins over the one the menu routes recorded.
  const { locationTree } = await import("../menus/read-service.ts");
  const { publicPortOf } = await import("../menus/context.ts");
  const port = (query as MenuSourceQuery & { publicPort?: number }).publicPort ?? publicPortOf(db);
  const tree = await locationTree(db, siteId, port, query.location, query.lang, query.theme);
  return { items: tree.items, meta: { menu_id: tree.menuId, invalid_items: tree.invalidItems } };
}

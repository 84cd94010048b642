// GET /menus (the menus and one theme's location map) and GET /menus/{ref} (one menu with its
// items), and the tree of a location that `GET /data/menu.<location>` and frames read.
import type { PublicFront } from "../config.ts";
import type { SiteRow } from "../site/sites.ts";
import { siteById } from "../site/sites.ts";
import { languageState, type LanguageState } from "../site/languages.ts";
import type { Db } from "../store/database.ts";
import type { SiteAddressing } from "../site/addresses.ts";
import { assignedMenuId, assignedOf, readItemsAt, siteMenuLocations, themeFrom } from "./locations.ts";
import { itemCount, itemCounts, itemsOfMenu, locationRows, menuById, menusOfSite, type MenuRow } from "./queries.ts";
import { menuView, nestedItems, type ItemRecord } from "./record.ts";
import { resolveMenu, fold, type RefSelectors } from "./refs.ts";

export const READ_ITEMS_AT = "/data/menu.{location}";

export async function listMenus(db: Db, site: SiteRow, query: { theme?: unknown }) {
  const { theme } = await themeFrom(db, site.id, query.theme);
  const [menus, counts, rows, state, locations] = await Promise.all([
    menusOfSite(db, site.id),
    itemCounts(db, site.id),
    locationRows(db, site.id, theme),
    languageState(db, site.id),
    siteMenuLocations(db, site.id),
  ]);
  const sorted = [...menus].sort((a, b) => {
    const x = fold(a.name);
    const y = fold(b.name);
    return x < y ? -1 : x > y ? 1 : a.id - b.id;
  });
  return {
    site_id: site.id,
    theme,
    locations,
    default_lang: state.defaultLang,
    read_items_at: READ_ITEMS_AT,
    total: sorted.length,
    menus: sorted.map((menu) => ({
      id: menu.id,
      name: menu.name,
      slug: menu.slug,
      items: counts.get(menu.id) ?? 0,
      assigned: assignedOf(rows, menu.id, locations),
    })),
  };
}

/** Where a menu's items are read: its `~location`, else its first assignment, else the template. */
export function readItemsAtFor(
  assigned: Array<{ location: string; lang: string | null }>,
  state: LanguageState,
  location: string | null,
  lang: string | null,
): string {
  if (location !== null) return readItemsAt(location, lang, state);
  const first = assigned[0];
  return first ? readItemsAt(first.location, first.lang, state) : READ_ITEMS_AT;
}

export async function getMenu(db: Db, site: SiteRow, front: PublicFront, ref: string, selectors: RefSelectors) {
  const resolved = await resolveMenu(db, site.id, ref, selectors);
  const { menu, theme, state } = resolved;
  const [rows, entries, locations] = await Promise.all([
    itemsOfMenu(db, menu.id),
    locationRows(db, site.id, theme),
    siteMenuLocations(db, site.id),
  ]);
  const view = await menuView(db, site, front, rows);
  const assigned = assignedOf(entries, menu.id, locations);
  return {
    site_id: site.id,
    theme,
    menu: {
      id: menu.id,
      term_taxonomy_id: menu.term_taxonomy_id,
      name: menu.name,
      slug: menu.slug,
      count: rows.length,
      assigned,
    },
    total: view.items.length,
    invalid_items: view.invalidItems,
    read_items_at: readItemsAtFor(assigned, state, resolved.location, resolved.lang),
    items: view.items,
  };
}

/** The answer of PATCH /menus/{ref}: the WordPress term fields. */
export async function termRecord(db: Db, menu: MenuRow) {
  return {
    id: menu.id,
    term_taxonomy_id: menu.term_taxonomy_id,
    name: menu.name,
    slug: menu.slug,
    count: await itemCount(db, menu.id),
  };
}

export interface LocationTree {
  menuId: number;
  items: Array<ItemRecord & { children: unknown[] }>;
  invalidItems: number;
}

/**
 * The menu assigned to a location in a language and theme, as a nested tree (invalid items
 * included with `valid: false`); `menuId` 0 when none is.
 */
export async function locationTree(
  db: Db,
  siteId: number,
  front: PublicFront,
  location: string,
  lang: string | null,
  theme: string,
  addressing?: SiteAddressing,
): Promise<LocationTree> {
  const state = addressing?.langs ?? (await languageState(db, siteId));
  const menuId = await assignedMenuId(db, siteId, state, theme, location, lang ?? state.defaultLang);
  const menu = menuId === 0 ? undefined : await menuById(db, siteId, menuId);
  const site = menu ? await siteById(db, siteId) : undefined;
  if (!menu || !site) return { menuId: 0, items: [], invalidItems: 0 };
  const view = await menuView(
    db,
    site,
    front,
    await itemsOfMenu(db, menu.id),
    undefined,
    addressing?.homes ? addressing : undefined,
  );
  return { menuId: menu.id, items: nestedItems(view.items), invalidItems: view.invalidItems };
}

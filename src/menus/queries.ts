// Menu, item and location-map rows of one site. Plain functions taking the database or a
// transaction (the caller opens the transaction and passes it through).
import type { Selectable } from "kysely";
import type { Db } from "../store/database.ts";
import type { MenuItemsTable, MenuLocationsTable, MenusTable } from "../store/schema.ts";

export type MenuRow = Selectable<MenusTable>;
export type ItemRow = Selectable<MenuItemsTable>;
export type LocationRow = Selectable<MenuLocationsTable>;

/** `menu_locations.lang` of the theme map. */
export const THEME_MAP = "";

export function menusOfSite(db: Db, siteId: number): Promise<MenuRow[]> {
  return db.selectFrom("menus").selectAll().where("site_id", "=", siteId).orderBy("id").execute();
}

export function menuById(db: Db, siteId: number, id: number): Promise<MenuRow | undefined> {
  return db.selectFrom("menus").selectAll().where("site_id", "=", siteId).where("id", "=", id).executeTakeFirst();
}

export function menuBySlug(db: Db, siteId: number, slug: string): Promise<MenuRow | undefined> {
  return db.selectFrom("menus").selectAll().where("site_id", "=", siteId).where("slug", "=", slug).executeTakeFirst();
}

/** Slugs of the site's menus, but one menu's. */
export async function menuSlugs(db: Db, siteId: number, exceptId?: number): Promise<Set<string>> {
  let query = db.selectFrom("menus").select("slug").where("site_id", "=", siteId);
  if (exceptId !== undefined) query = query.where("id", "!=", exceptId);
  return new Set((await query.execute()).map((row) => row.slug));
}

export function itemsOfMenu(db: Db, menuId: number): Promise<ItemRow[]> {
  return db
    .selectFrom("menu_items")
    .selectAll()
    .where("menu_id", "=", menuId)
    .orderBy("parent_id")
    .orderBy("position")
    .orderBy("id")
    .execute();
}

/** Deletes these items of one menu (in slices, so a long list stays within any parameter limit). */
export async function deleteItems(db: Db, menuId: number, ids: readonly number[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    await db
      .deleteFrom("menu_items")
      .where("menu_id", "=", menuId)
      .where("id", "in", ids.slice(i, i + 500))
      .execute();
  }
}

export async function itemCount(db: Db, menuId: number): Promise<number> {
  const row = await db
    .selectFrom("menu_items")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("menu_id", "=", menuId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Item counts of every menu of a site. */
export async function itemCounts(db: Db, siteId: number): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom("menu_items")
    .select(["menu_id", (eb) => eb.fn.countAll<number | string>().as("n")])
    .where("site_id", "=", siteId)
    .groupBy("menu_id")
    .execute();
  return new Map(rows.map((row) => [row.menu_id, Number(row.n)]));
}

/** Location-map entries of a site, of one theme when given. */
export function locationRows(db: Db, siteId: number, theme?: string): Promise<LocationRow[]> {
  let query = db.selectFrom("menu_locations").selectAll().where("site_id", "=", siteId);
  if (theme !== undefined) query = query.where("theme", "=", theme);
  return query.orderBy("theme").orderBy("location").orderBy("lang").execute();
}

export function locationsOfMenu(db: Db, menuId: number): Promise<LocationRow[]> {
  return db
    .selectFrom("menu_locations")
    .selectAll()
    .where("menu_id", "=", menuId)
    .orderBy("theme")
    .orderBy("location")
    .orderBy("lang")
    .execute();
}

/** The location names a menu is assigned to in any theme or language map, sorted, unique. */
export async function locationNamesOfMenu(db: Db, menuId: number): Promise<string[]> {
  const rows = await db
    .selectFrom("menu_locations")
    .select("location")
    .distinct()
    .where("menu_id", "=", menuId)
    .orderBy("location")
    .execute();
  return rows.map((row) => row.location);
}

/** The menu id one map entry holds, or undefined. `lang` '' is the theme map. */
export async function mapEntry(
  db: Db,
  siteId: number,
  theme: string,
  location: string,
  lang: string,
): Promise<number | undefined> {
  const row = await db
    .selectFrom("menu_locations")
    .select("menu_id")
    .where("site_id", "=", siteId)
    .where("theme", "=", theme)
    .where("location", "=", location)
    .where("lang", "=", lang)
    .executeTakeFirst();
  return row?.menu_id;
}

/** Writes one map entry (replacing the menu that held the location). */
export async function writeMapEntry(
  db: Db,
  siteId: number,
  theme: string,
  location: string,
  lang: string,
  menuId: number,
): Promise<void> {
  await db
    .insertInto("menu_locations")
    .values({ site_id: siteId, theme, location, lang, menu_id: menuId })
    .onConflict((oc) => oc.columns(["site_id", "theme", "location", "lang"]).doUpdateSet({ menu_id: menuId }))
    .execute();
}

/** Ids of the menus with an item pointing to that page, ascending (menusShowingPage without locations). */
export async function menusReferencingPage(db: Db, siteId: number, pageId: number): Promise<number[]> {
  return (await menusShowingPage(db, siteId, pageId)).map((menu) => menu.menuId);
}

/**
 * Takes the menu's row lock for the rest of the transaction (PostgreSQL) and marks it written:
 * concurrent writers of one menu's items then run one after the other. SQLite transactions
 * are serialised already.
 */
export async function touchMenu(db: Db, siteId: number, menuId: number, at: string): Promise<boolean> {
  // The write pipeline took the site's counters before (quotas/usage.ts: one lock order).
  const result = await db
    .updateTable("menus")
    .set({ updated_at_gmt: at })
    .where("site_id", "=", siteId)
    .where("id", "=", menuId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * The menus with an item pointing to that page, by ascending id, each with the location names
 * it is assigned to (any theme or language map; none: it prints nowhere). The publish step
 * refreshes only those locations when the page's title, address or status changes.
 */
export async function menusShowingPage(
  db: Db,
  siteId: number,
  pageId: number,
): Promise<Array<{ menuId: number; locations: string[] }>> {
  const rows = await db
    .selectFrom("menu_items")
    .leftJoin("menu_locations", "menu_locations.menu_id", "menu_items.menu_id")
    .select(["menu_items.menu_id as menu_id", "menu_locations.location as location"])
    .distinct()
    .where("menu_items.site_id", "=", siteId)
    .where("menu_items.page_id", "=", pageId)
    .orderBy("menu_items.menu_id")
    .orderBy("menu_locations.location")
    .execute();
  const out: Array<{ menuId: number; locations: string[] }> = [];
  for (const row of rows) {
    let last = out[out.length - 1];
    if (!last || last.menuId !== row.menu_id) {
      last = { menuId: row.menu_id, locations: [] };
      out.push(last);
    }
    if (row.location !== null) last.locations.push(row.location);
  }
  return out;
}

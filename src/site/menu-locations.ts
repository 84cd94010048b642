// The menu locations a site's menus can be assigned to (docs/menus.md): the setting
// `menu_locations`, else the default ones; and which menus the location maps assign to some of
// them (what a settings write that removes a location must know). Read here, where every feature
// reads a site's facts.
import { Type } from "@sinclair/typebox";
import type { Db } from "../store/database.ts";
import { jsonColumn } from "../store/json-column.ts";
import { settingsOf, type SettingsRow } from "./settings.ts";

/** The locations of a site that never set its own (the theme's header and three footer columns). */
export const DEFAULT_MENU_LOCATIONS: readonly string[] = ["header", "footer_1", "footer_2", "footer_3"];

const MENU_LOCATIONS = jsonColumn("site_settings.menu_locations_json", Type.Array(Type.String(), { minItems: 1 }));

/** The site's menu locations, in their order: the setting, else the default ones (also when the stored list does not read). */
export function menuLocationsOf(settings: Pick<SettingsRow, "menu_locations_json">): string[] {
  const json = settings.menu_locations_json;
  return [...(json === null ? DEFAULT_MENU_LOCATIONS : MENU_LOCATIONS.readOr(json, DEFAULT_MENU_LOCATIONS))];
}

/** The site's menu locations as stored now (in a write's transaction: as that write sees them). */
export async function siteMenuLocations(db: Db, siteId: number): Promise<string[]> {
  return menuLocationsOf(await settingsOf(db, siteId));
}

/** A menu assigned to a location in one map: a theme's (`lang` null) or a language's of that theme. */
export interface LocationAssignment {
  location: string;
  theme: string;
  lang: string | null;
  menu: { id: number; name: string; slug: string };
}

/** The assignments of the site's menus to any of these locations, in every theme and language map. */
export async function assignmentsAt(
  db: Db,
  siteId: number,
  locations: readonly string[],
): Promise<LocationAssignment[]> {
  if (locations.length === 0) return [];
  const rows = await db
    .selectFrom("menu_locations")
    .innerJoin("menus", "menus.id", "menu_locations.menu_id")
    .select([
      "menu_locations.location",
      "menu_locations.theme",
      "menu_locations.lang",
      "menus.id",
      "menus.name",
      "menus.slug",
    ])
    .where("menu_locations.site_id", "=", siteId)
    .where("menu_locations.location", "in", [...locations])
    .orderBy("menu_locations.location")
    .orderBy("menu_locations.theme")
    .orderBy("menu_locations.lang")
    .execute();
  return rows.map((row) => ({
    location: row.location,
    theme: row.theme,
    // '' is the theme map (menus/queries.ts THEME_MAP).
    lang: row.lang === "" ? null : row.lang,
    menu: { id: row.id, name: row.name, slug: row.slug },
  }));
}

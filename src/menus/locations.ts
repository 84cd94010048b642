// Location maps (WordPress model): each theme keeps its own map location → menu (the theme map),
// and the multilingual plugin keeps one map per language and theme. Reading a location in a
// language: a non-default language reads its own map only; the default language reads its map
// and falls back to the theme map; without languages, the theme map. Writing without `lang`, or
// with the default language, writes the theme map too.
import { fail } from "../errors.ts";
import { siteMenuLocations } from "../site/menu-locations.ts";
import type { LanguageState } from "../site/languages.ts";
import { settingsOf } from "../site/settings.ts";
import type { Db } from "../store/database.ts";
import { locationRows, mapEntry, THEME_MAP, type LocationRow } from "./queries.ts";

export { siteMenuLocations };

/** The pattern site settings accept for a theme name. */
const THEME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

export interface Assignment {
  location: string;
  /** null: the theme map; a code: that language's map. */
  lang: string | null;
}

function absent(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === "string" && value.trim() === "");
}

/**
 * A location from input (a string, by the route schema), one of the site's `locations` (setting
 * menu_locations); 400 unknown_location with `locations` for another name. `required`: an absent or
 * empty value is 400 location_required; otherwise it answers null.
 */
export function locationFrom(
  value: string | null | undefined,
  required: boolean,
  locations: readonly string[],
): string | null {
  if (value === undefined || value === null || value.trim() === "") {
    if (required) throw fail("location_required", { field: "location", locations });
    return null;
  }
  const name = value.trim().toLowerCase();
  if (!locations.includes(name)) throw fail("unknown_location", { field: "location", location: value, locations });
  return name;
}

/**
 * In an assignment's transaction (after the site's counters are taken, so no settings write runs
 * meanwhile): the location is still one of the site's, else 400 unknown_location.
 */
export async function requireSiteLocation(trx: Db, siteId: number, location: string): Promise<void> {
  const locations = await siteMenuLocations(trx, siteId);
  if (!locations.includes(location)) throw fail("unknown_location", { field: "location", location, locations });
}

/** The theme named in input (checked like the settings' theme), else the site's theme. */
export async function themeFrom(db: Db, siteId: number, value: unknown): Promise<{ theme: string; given: boolean }> {
  if (absent(value)) return { theme: (await settingsOf(db, siteId)).theme, given: false };
  const theme = typeof value === "string" ? value.trim() : "";
  if (!THEME.test(theme))
    throw fail(
      "invalid_field",
      { field: "theme", pattern: THEME.source },
      "A theme name is letters, digits, dot, dash or underscore.",
    );
  return { theme, given: true };
}

/** The map keys (`menu_locations.lang`) read for a language, in order of preference. */
export function readKeys(state: LanguageState, lang: string | null): string[] {
  if (!state.active || lang === null) return [THEME_MAP];
  if (lang === state.defaultLang) return [lang, THEME_MAP];
  return [lang];
}

/** The map keys written for an assignment in a language (null: none given). */
export function writeKeys(state: LanguageState, lang: string | null): string[] {
  if (!state.active) return [THEME_MAP];
  const code = lang ?? state.defaultLang;
  if (code === null || code === state.defaultLang) return code === null ? [THEME_MAP] : [THEME_MAP, code];
  return [code];
}

/** The menu assigned to a location in a language and theme: its id, or 0 for none. */
export async function assignedMenuId(
  db: Db,
  siteId: number,
  state: LanguageState,
  theme: string,
  location: string,
  lang: string | null,
): Promise<number> {
  for (const key of readKeys(state, lang)) {
    const id = await mapEntry(db, siteId, theme, location, key);
    if (id !== undefined) return id;
  }
  return 0;
}

/** The `assigned` list of a menu from the map entries of one theme, in the order of the site's `locations`. */
export function assignedOf(rows: readonly LocationRow[], menuId: number, locations: readonly string[]): Assignment[] {
  const order = (location: string) => locations.indexOf(location);
  return rows
    .filter((row) => row.menu_id === menuId)
    .map((row) => ({ location: row.location, lang: row.lang === THEME_MAP ? null : row.lang }))
    .sort((a, b) => order(a.location) - order(b.location) || (a.lang ?? "").localeCompare(b.lang ?? ""));
}

/** The `assigned` list of a menu in one theme, as read now. */
export async function menuAssignments(db: Db, siteId: number, theme: string, menuId: number): Promise<Assignment[]> {
  const [rows, locations] = await Promise.all([locationRows(db, siteId, theme), siteMenuLocations(db, siteId)]);
  return assignedOf(rows, menuId, locations);
}

/** Where a location's items are read: `/data/menu.<location>`, with `?lang=` for a language map. */
export function readItemsAt(location: string, lang: string | null, state: LanguageState): string {
  return `/data/menu.${location}${lang !== null && state.active && lang !== state.defaultLang ? `?lang=${lang}` : ""}`;
}

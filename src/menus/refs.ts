// Menu references (`{ref}`): an id, a slug, a name (both case-insensitive), or a location with a
// tilde (`~header`; `@header` too) that selects the menu assigned there in a language and theme.
// An id wins over a slug, a slug over a name; several menus with that name are 409 ambiguous_menu.
import { fail } from "../errors.ts";
import { checkLangIn, languageState, type LanguageState } from "../site/languages.ts";
import type { Db } from "../store/database.ts";
import { assignedMenuId, locationFrom, siteMenuLocations, themeFrom } from "./locations.ts";
import { menuById, menusOfSite, type MenuRow } from "./queries.ts";

export interface RefSelectors {
  /** `lang` of the call (query, or body on writes). */
  lang?: unknown;
  /** `theme` of the call (query, or body on writes). */
  theme?: unknown;
}

export interface ResolvedMenu {
  menu: MenuRow;
  /** Set for a `~location` reference. */
  location: string | null;
  /** The checked `lang` of the call (null when none was given). */
  lang: string | null;
  theme: string;
  state: LanguageState;
}

export interface MenuCandidate {
  id: number;
  name: string;
  slug: string;
}

const candidate = (row: MenuRow): MenuCandidate => ({ id: row.id, name: row.name, slug: row.slug });

/** Case-insensitive comparison the same way in every dialect: in code, over the site's few menus. */
export function fold(value: string): string {
  return value.normalize("NFC").trim().toLocaleLowerCase("en-US");
}

/** Finds a menu by id, slug or name among the site's menus (no location references). */
export async function menuByName(db: Db, siteId: number, ref: string): Promise<MenuRow> {
  const value = ref.trim();
  if (/^\d{1,15}$/.test(value)) {
    const byId = await menuById(db, siteId, Number(value));
    if (byId) return byId;
  }
  const key = fold(value);
  const menus = await menusOfSite(db, siteId);
  const bySlug = menus.find((row) => row.slug === key);
  if (bySlug) return bySlug;
  const byName = menus.filter((row) => fold(row.name) === key);
  if (byName.length === 1) return byName[0];
  if (byName.length > 1) throw fail("ambiguous_menu", { ref, candidates: byName.map(candidate) });
  throw fail("menu_not_found", { ref });
}

/**
 * Resolves `{ref}` with the call's `lang` and `theme`. `lang` is checked on every call that
 * gives it (409 multilang_inactive, 400 unknown_language); `theme` defaults to the site's.
 */
export async function resolveMenu(
  db: Db,
  siteId: number,
  ref: string,
  selectors: RefSelectors = {},
): Promise<ResolvedMenu> {
  const state = await languageState(db, siteId);
  const lang = checkLangIn(state, selectors.lang);
  const { theme } = await themeFrom(db, siteId, selectors.theme);
  const value = ref.trim();
  if (value === "") throw fail("menu_not_found", { ref });

  if (value.startsWith("~") || value.startsWith("@")) {
    const location = locationFrom(value.slice(1), true, await siteMenuLocations(db, siteId))!;
    // Without lang, the default language's menu (the theme map while the site has no languages).
    const id = await assignedMenuId(db, siteId, state, theme, location, lang ?? state.defaultLang);
    const menu = id === 0 ? undefined : await menuById(db, siteId, id);
    if (!menu) throw fail("menu_not_assigned", { ref, location, lang, theme });
    return { menu, location, lang, theme, state };
  }
  return { menu: await menuByName(db, siteId, value), location: null, lang, theme, state };
}

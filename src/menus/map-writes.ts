// A menu written into location maps (menu-service.ts createMenu, location-service.ts putLocation):
// the entries written, answering the menus they displaced, and read back to report what each holds.
import { fail } from "../errors.ts";
import type { Db } from "../store/database.ts";
import type { Rebaked } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { mapEntry, THEME_MAP, writeMapEntry, type MenuRow } from "./queries.ts";
import { menuBrief } from "./record.ts";

export interface MapWrite {
  theme: string;
  location: string;
  /** '' for the theme map. */
  key: string;
}

export interface ReadBack {
  map: "theme" | "language";
  theme: string;
  location: string;
  lang: string | null;
  menu_id: number | null;
}

/** Reads written map entries back; answers each with what it holds and whether all match. */
export async function readBack(
  ctx: ServiceContext,
  siteId: number,
  writes: readonly MapWrite[],
  menuId: number,
): Promise<{ entries: ReadBack[]; stored: boolean }> {
  const entries: ReadBack[] = [];
  for (const write of writes) {
    const held = await mapEntry(ctx.db, siteId, write.theme, write.location, write.key);
    entries.push({
      map: write.key === THEME_MAP ? "theme" : "language",
      theme: write.theme,
      location: write.location,
      lang: write.key === THEME_MAP ? null : write.key,
      menu_id: held ?? null,
    });
  }
  return { entries, stored: entries.every((entry) => entry.menu_id === menuId) };
}

/**
 * Reads written map entries back and answers them; refuses with menu_assignment_not_stored (the
 * assignment, what was read back, the publish report) when one does not hold the menu.
 */
export async function storedEntries(
  ctx: ServiceContext,
  siteId: number,
  writes: readonly MapWrite[],
  menu: MenuRow,
  assignment: { location: string | null; lang: string | null; theme: string },
  rebaked: Rebaked,
): Promise<ReadBack[]> {
  const back = await readBack(ctx, siteId, writes, menu.id);
  if (!back.stored) {
    throw fail("menu_assignment_not_stored", {
      menu: menuBrief(menu),
      ...assignment,
      read_back: back.entries,
      expected_menu_id: menu.id,
      rebaked,
    });
  }
  return back.entries;
}

/** Writes location-map entries for a menu; answers the other menus that held them before. */
export async function writeMapEntries(
  trx: Db,
  siteId: number,
  writes: readonly MapWrite[],
  menuId: number,
): Promise<number[]> {
  const displaced: number[] = [];
  for (const write of writes) {
    const held = await mapEntry(trx, siteId, write.theme, write.location, write.key);
    if (held !== undefined && held !== menuId) displaced.push(held);
    await writeMapEntry(trx, siteId, write.theme, write.location, write.key, menuId);
  }
  return displaced;
}

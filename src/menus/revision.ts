// A menu's state as its revisions keep it (docs/revisions.md): one object per menu, kept
// by its id. The content is the menu's JSON, pretty-printed one field per line with sorted keys
// (revisions.ts prettyJson): its name and slug, its item tree as stored (each item's id, its own
// title or null for the default one, its page or its link as written, target, classes, and its
// children in order) and the location-map entries that hold it. The same fields decide the
// summary (`["items"]`, `["name"]`, `["locations"]`). Titles and addresses that follow a page are
// not kept, so a renamed page is no change of the menu.
import { prettyJson, recordRevision, type Snapshot } from "../revisions/revisions.ts";
import type { Db } from "../store/database.ts";
import { revisedBy } from "../write/pipeline.ts";
import { itemsOfMenu, locationsOfMenu, THEME_MAP, type ItemRow, type LocationRow, type MenuRow } from "./queries.ts";
import { ItemTree } from "./tree.ts";

/** An item as a revision keeps it. */
export interface KeptItem {
  id: number;
  /** null: the page's title (page items) or the link itself. */
  title: string | null;
  /** The page of a page item; null for a link. */
  page: number | null;
  /** The link as written; null for a page item. */
  url: string | null;
  target: string;
  classes: string;
  children: KeptItem[];
}

/** A location-map entry holding the menu (`lang` null: the theme map). */
export interface KeptLocation {
  theme: string;
  location: string;
  lang: string | null;
}

export interface MenuState {
  name: string;
  slug: string;
  items: KeptItem[];
  locations: KeptLocation[];
}

export function keptItems(rows: readonly ItemRow[]): KeptItem[] {
  const tree = new ItemTree(rows);
  const level = (parent: number): KeptItem[] =>
    tree.level(parent).map((row) => ({
      id: row.id,
      title: row.title,
      page: row.type === "post_type" ? row.page_id : null,
      url: row.type === "post_type" ? null : (row.url ?? ""),
      target: row.target,
      classes: row.classes,
      children: level(row.id),
    }));
  return level(0);
}

export function keptLocations(rows: readonly LocationRow[]): KeptLocation[] {
  return rows
    .map((row) => ({ theme: row.theme, location: row.location, lang: row.lang === THEME_MAP ? null : row.lang }))
    .sort(
      (a, b) =>
        a.theme.localeCompare(b.theme) ||
        a.location.localeCompare(b.location) ||
        (a.lang ?? "").localeCompare(b.lang ?? ""),
    );
}

export function menuSnapshot(
  menu: Pick<MenuRow, "name" | "slug">,
  items: readonly ItemRow[],
  locations: readonly LocationRow[],
): Snapshot {
  const fields: MenuState = {
    name: menu.name,
    slug: menu.slug,
    items: keptItems(items),
    locations: keptLocations(locations),
  };
  return { content: prettyJson(fields), fields: fields as unknown as Record<string, unknown> };
}

/** The current state of a menu (undefined: no such menu). */
export async function currentMenuSnapshot(db: Db, siteId: number, menuId: number): Promise<Snapshot | undefined> {
  const menu = await db
    .selectFrom("menus")
    .select(["name", "slug"])
    .where("site_id", "=", siteId)
    .where("id", "=", menuId)
    .executeTakeFirst();
  if (!menu) return undefined;
  const [items, locations] = await Promise.all([itemsOfMenu(db, menuId), locationsOfMenu(db, menuId)]);
  return menuSnapshot(menu, items, locations);
}

/** Records a revision of each of these menus whose state changed (inside the writing transaction). */
export async function reviseMenus(trx: Db, siteId: number, ids: Iterable<number>, now: string): Promise<void> {
  for (const id of [...new Set(ids)].sort((a, b) => a - b)) {
    const snapshot = await currentMenuSnapshot(trx, siteId, id);
    if (snapshot) await recordRevision(trx, siteId, "menus", String(id), snapshot, now);
  }
}

// The write pipeline names a written menu by its id as text (write.ts, menusWritten).
revisedBy("menu", (trx, siteId, ids, now) => reviseMenus(trx, siteId, ids.map(Number), now));

function text(value: unknown, fallback = ""): string {
  return typeof value === "string" ? value : fallback;
}

function itemsFrom(value: unknown): KeptItem[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((raw): KeptItem[] => {
    if (raw === null || typeof raw !== "object") return [];
    const item = raw as Record<string, unknown>;
    const page = Number.isSafeInteger(item.page) ? (item.page as number) : null;
    return [
      {
        id: Number.isSafeInteger(item.id) ? (item.id as number) : 0,
        title: typeof item.title === "string" ? item.title : null,
        page,
        url: page === null ? text(item.url) : null,
        target: text(item.target),
        classes: text(item.classes),
        children: itemsFrom(item.children),
      },
    ];
  });
}

/** A stored revision's fields read back as a menu state (defensively: a field missing reads empty). */
export function menuStateOf(fields: Record<string, unknown>): MenuState {
  const locations = Array.isArray(fields.locations) ? fields.locations : [];
  return {
    name: text(fields.name),
    slug: text(fields.slug),
    items: itemsFrom(fields.items),
    locations: locations.flatMap((raw): KeptLocation[] => {
      const entry = (raw ?? {}) as Record<string, unknown>;
      if (typeof entry.theme !== "string" || typeof entry.location !== "string") return [];
      return [
        {
          theme: entry.theme,
          location: entry.location,
          lang: typeof entry.lang === "string" && entry.lang !== "" ? entry.lang : null,
        },
      ];
    }),
  };
}

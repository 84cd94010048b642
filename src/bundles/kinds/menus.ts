// menus/<slug>.json: `{name, locations, items}`; items nest with `children`, a page item names its
// page by reference (page-names.ts), a link its url (one on the site's own origin as a path, so it
// moves with the domain); `title`, `target` and `classes` only when set. Written with the menus
// feature's create, items and location services (docs/menus.md).
import { replaceItems } from "../../menus/items-service.ts";
import { deleteLocation, putLocation } from "../../menus/location-service.ts";
import { createMenu, deleteMenu, patchMenu } from "../../menus/menu-service.ts";
import { itemsOfMenu, menuBySlug, type ItemRow } from "../../menus/queries.ts";
import { homeUrl } from "../../site/addresses.ts";
import { memoryEntry } from "../archive-write.ts";
import { jsonEntry } from "../format.ts";
import { refOrId, type PageNames } from "../page-names.ts";
import { isRecord, jsonOf, stemIn, type BundleKind, type Reference } from "./kind.ts";

interface Location {
  theme: string;
  location: string;
  lang: string | null;
}

interface MenuFile {
  name: string;
  locations: Location[];
  items: Record<string, unknown>[];
}

function itemsTree(rows: readonly ItemRow[], names: PageNames, origin: string): Record<string, unknown>[] {
  const below = (parent: number): Record<string, unknown>[] =>
    rows
      .filter((row) => row.parent_id === parent)
      .sort((a, b) => a.position - b.position)
      .map((row) => {
        const item: Record<string, unknown> =
          row.page_id !== null
            ? { page: refOrId(names, row.page_id) }
            : { url: row.url?.startsWith(origin) ? `/${row.url.slice(origin.length)}` : (row.url ?? "") };
        if (row.title !== null) item.title = row.title;
        if (row.target) item.target = row.target;
        if (row.classes) item.classes = row.classes;
        const children = below(row.id);
        if (children.length > 0) item.children = children;
        return item;
      });
  return below(0);
}

function fileOf(bytes: Buffer): MenuFile {
  const value = jsonOf(bytes);
  if (!isRecord(value) || typeof value.name !== "string" || !Array.isArray(value.items))
    throw new Error("a menu entry is {name, locations, items}");
  return { locations: [], ...value } as unknown as MenuFile;
}

function pageRefsIn(items: readonly unknown[]): string[] {
  return items.flatMap((item) =>
    isRecord(item)
      ? [
          ...(typeof item.page === "string" ? [item.page] : []),
          ...pageRefsIn(Array.isArray(item.children) ? item.children : []),
        ]
      : [],
  );
}

const key = (l: Location) => `${l.theme}\u0000${l.location}\u0000${l.lang ?? ""}`;

export const menus: BundleKind = {
  kind: "menus",
  async read({ ctx, site, pages }) {
    const origin = homeUrl(site, ctx.publicFront);
    const menuRows = await ctx.db
      .selectFrom("menus")
      .selectAll()
      .where("site_id", "=", site.id)
      .orderBy("slug")
      .execute();
    const locations = await ctx.db
      .selectFrom("menu_locations")
      .selectAll()
      .where("site_id", "=", site.id)
      .orderBy("theme")
      .orderBy("location")
      .orderBy("lang")
      .execute();
    const out = [];
    for (const menu of menuRows) {
      const file: MenuFile = {
        name: menu.name,
        locations: locations
          .filter((row) => row.menu_id === menu.id)
          .map((row) => ({ theme: row.theme, location: row.location, lang: row.lang === "" ? null : row.lang })),
        items: itemsTree(await itemsOfMenu(ctx.db, menu.id), pages, origin),
      };
      out.push({ name: menu.slug, entry: memoryEntry(`menus/${menu.slug}.json`, jsonEntry(file)) });
    }
    return out;
  },
  nameOf: (path) => stemIn(path, "menus", ".json"),
  references(_name, bytes): Reference[] {
    return pageRefsIn(fileOf(bytes).items).map((name) => ({ kind: "pages", name }));
  },
  async put({ ctx, site }, slug, bytes) {
    const file = fileOf(bytes);
    const items = file.items as never;
    let menu = await menuBySlug(ctx.db, site.id, slug);
    if (!menu) {
      await createMenu(ctx, site, { name: file.name, slug, items }, {});
      menu = (await menuBySlug(ctx.db, site.id, slug))!;
    } else {
      await replaceItems(ctx, site, String(menu.id), { items }, {});
      if (menu.name !== file.name) await patchMenu(ctx, site, String(menu.id), { name: file.name }, {});
    }
    const ref = String(menu.id);
    const held = await ctx.db.selectFrom("menu_locations").selectAll().where("menu_id", "=", menu.id).execute();
    const have = held.map((row) => ({
      theme: row.theme,
      location: row.location,
      lang: row.lang === "" ? null : row.lang,
    }));
    const want = new Set(file.locations.map(key));
    for (const place of have) if (!want.has(key(place))) await deleteLocation(ctx, site, ref, { ...place }, {});
    const had = new Set(have.map(key));
    for (const place of file.locations) if (!had.has(key(place))) await putLocation(ctx, site, ref, { ...place }, {});
  },
  async remove({ ctx, site }, slug) {
    const menu = await menuBySlug(ctx.db, site.id, slug);
    if (menu) await deleteMenu(ctx, site, String(menu.id), {}, {});
  },
};

// Writing a menu's state as a revision kept it (docs/revisions.md): a restore of a
// revision (the menu keeps its current name and slug; its tree and the location entries it held
// become the revision's) and a deleted menu made again under its id from its last revision. Each
// is one transaction that takes the menu's row, checks the render budgets, records the revision
// and is published as any menu write. Items keep their ids where no row holds them (ids are never
// issued twice); items pointing to pages not public now are written as they were, with a warning;
// a location entry another menu holds now stays that menu's, with a warning.
import { gmt } from "../clock.ts";
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import type { ServiceContext } from "../write/context.ts";
import type { Change } from "../write/change.ts";
import type { SiteRow } from "../site/sites.ts";
import type { Db } from "../store/database.ts";
import type { ItemInput } from "./input.ts";
import { menuAssignments, themeFrom } from "./locations.ts";
import { slugTaken } from "./menu-input.ts";
import {
  itemsOfMenu,
  locationNamesOfMenu,
  locationsOfMenu,
  mapEntry,
  menuById,
  menuBySlug,
  touchMenu,
  writeMapEntry,
  THEME_MAP,
  type ItemRow,
  type MenuRow,
} from "./queries.ts";
import { menuBrief, menuView } from "./record.ts";
import { invalidEntry, pageFacts } from "./resolve.ts";
import type { KeptItem, KeptLocation, MenuState } from "./revision.ts";
import { ItemTree } from "./tree.ts";
import { menuChange, menusWritten, runMenuWrite, writeTree, type Planned } from "./write.ts";

/** The kept tree as a planned write, each item with its coordinate (`1.0`). */
function planned(items: readonly KeptItem[], prefix = ""): Planned[] {
  return items.map((item, index) => {
    const at = `${prefix}${index}`;
    const children = planned(item.children, `${at}.`);
    const input: ItemInput = {
      at,
      ...(item.id > 0 ? { id: item.id } : {}),
      ...(item.page !== null ? { page: item.page } : { url: item.url ?? "" }),
      title: item.title,
      target: item.target,
      classes: item.classes,
      children: children.map((child) => child.input),
    };
    return { input, pageId: item.page, children };
  });
}

function flat(items: readonly Planned[]): Planned[] {
  return items.flatMap((item) => [item, ...flat(item.children)]);
}

/** The ids of the kept tree no item row holds now: written back as they were. */
async function freeIds(trx: Db, items: readonly Planned[]): Promise<Set<number>> {
  const wanted = flat(items).flatMap((item) => (item.input.id === undefined ? [] : [item.input.id]));
  const taken = new Set<number>();
  for (let at = 0; at < wanted.length; at += 500) {
    for (const row of await trx
      .selectFrom("menu_items")
      .select("id")
      .where("id", "in", wanted.slice(at, at + 500))
      .execute())
      taken.add(row.id);
  }
  return new Set(wanted.filter((id) => !taken.has(id)));
}

async function invalidWarning(db: Db, siteId: number, items: readonly Planned[]): Promise<Warning[]> {
  const pages = flat(items).filter((item) => item.pageId !== null);
  const facts = await pageFacts(
    db,
    siteId,
    pages.map((item) => item.pageId!),
  );
  const invalid = pages.flatMap((item) => {
    const fact = facts.get(item.pageId!);
    return fact && !fact.valid ? [invalidEntry(item.input.at, fact)] : [];
  });
  if (invalid.length === 0) return [];
  return [
    warning(
      "invalid_items_kept",
      `${invalid.length} item(s) point to pages that are not public now; they were written as they were and answer valid: false.`,
      { invalid },
    ),
  ];
}

/**
 * Makes the menu hold exactly these location entries: its others are freed; an entry another
 * menu holds now stays that menu's (warning location_taken).
 */
async function placeLocations(
  trx: Db,
  siteId: number,
  menuId: number,
  wanted: readonly KeptLocation[],
  warnings: Warning[],
): Promise<void> {
  const key = (entry: { theme: string; location: string; lang: string | null }) =>
    `${entry.theme}\u0000${entry.location}\u0000${entry.lang ?? THEME_MAP}`;
  const keep = new Set(wanted.map(key));
  for (const row of await locationsOfMenu(trx, menuId)) {
    if (keep.has(key({ ...row, lang: row.lang === THEME_MAP ? null : row.lang }))) continue;
    await trx
      .deleteFrom("menu_locations")
      .where("site_id", "=", siteId)
      .where("theme", "=", row.theme)
      .where("location", "=", row.location)
      .where("lang", "=", row.lang)
      .where("menu_id", "=", menuId)
      .execute();
  }
  for (const entry of wanted) {
    const held = await mapEntry(trx, siteId, entry.theme, entry.location, entry.lang ?? THEME_MAP);
    if (held === menuId) continue;
    if (held !== undefined) {
      warnings.push(
        warning("location_taken", `"${entry.location}" holds another menu (${held}) now; it was left to it.`, {
          ...entry,
          menu_id: held,
        }),
      );
      continue;
    }
    await writeMapEntry(trx, siteId, entry.theme, entry.location, entry.lang ?? THEME_MAP, menuId);
  }
}

/**
 * Inside the write: the tree and the locations of the state; answers its warnings and the change
 * at the locations the menu held before and holds after.
 */
async function writeState(
  trx: Db,
  site: SiteRow,
  menuId: number,
  state: MenuState,
  at: string,
  held: ItemTree<ItemRow> | null,
): Promise<{ warnings: Warning[]; changes: Change[] }> {
  const items = planned(state.items);
  const before = await locationNamesOfMenu(trx, menuId);
  await writeTree(trx, site.id, menuId, items, at, held, undefined, await freeIds(trx, items));
  const warnings: Warning[] = [];
  await placeLocations(trx, site.id, menuId, state.locations, warnings);
  warnings.push(...(await invalidWarning(trx, site.id, items)));
  return { warnings, changes: menuChange(menuId, [...before, ...(await locationNamesOfMenu(trx, menuId))]) };
}

async function answer(ctx: ServiceContext, site: SiteRow, menu: MenuRow, rebaked: unknown, warnings: Warning[]) {
  const view = await menuView(ctx.db, site, ctx.publicFront, await itemsOfMenu(ctx.db, menu.id));
  const { theme } = await themeFrom(ctx.db, site.id, undefined);
  const assigned = await menuAssignments(ctx.db, site.id, theme, menu.id);
  return {
    body: {
      site_id: site.id,
      theme,
      menu: { ...menuBrief(menu), assigned },
      total: view.items.length,
      items: view.items,
      rebaked,
      warnings,
    },
  };
}

/** Writes a revision's tree and locations as the menu's next write; its name and slug stay. */
export async function restoreMenuState(ctx: ServiceContext, site: SiteRow, menuId: number, state: MenuState) {
  const menu = await menuById(ctx.db, site.id, menuId);
  if (!menu) throw fail("menu_not_found", { ref: menuId });
  const at = gmt(ctx.clock());
  const { value: warnings, rebaked } = await runMenuWrite(
    ctx,
    {
      siteId: site.id,
      // What prints the menu, within the render budgets with the revision's tree, or nothing is written.
      trial: true,
      apply: async (trx) => {
        if (!(await touchMenu(trx, site.id, menu.id, at))) throw fail("menu_not_found", { ref: menuId });
        const { warnings, changes } = await writeState(
          trx,
          site,
          menu.id,
          state,
          at,
          new ItemTree(await itemsOfMenu(trx, menu.id)),
        );
        // A revision's state written back is an update; `restored` is a menu made again (docs/events.md).
        return { value: warnings, wrote: menusWritten([menu.id], "updated"), changes };
      },
    },
    () => ({ menu: menuBrief(menu) }),
  );
  return answer(ctx, site, menu, rebaked, warnings);
}

/**
 * Makes a deleted menu again under its id, name and slug with its last state; `within` runs in
 * the same transaction (the trash entry leaves there). Its slug taken meanwhile: 409 slug_taken
 * with the occupant's id, nothing written.
 */
export async function recreateMenu(
  ctx: ServiceContext,
  site: SiteRow,
  menuId: number,
  state: MenuState,
  within: (trx: Db) => Promise<void>,
) {
  const occupant = await menuBySlug(ctx.db, site.id, state.slug);
  if (occupant) throw slugTaken(occupant, state.slug);
  const at = gmt(ctx.clock());
  const { value, rebaked } = await runMenuWrite(
    ctx,
    {
      siteId: site.id,
      trial: true,
      taken: async () => slugTaken(await menuBySlug(ctx.db, site.id, state.slug), state.slug),
      apply: async (trx) => {
        const menu = await trx
          .insertInto("menus")
          .values({
            id: menuId,
            site_id: site.id,
            name: state.name,
            slug: state.slug,
            term_taxonomy_id: menuId,
            created_at_gmt: at,
            updated_at_gmt: at,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        const { warnings, changes } = await writeState(trx, site, menuId, state, at, null);
        await within(trx);
        return { value: { menu, warnings }, wrote: menusWritten([menuId], "restored"), changes };
      },
    },
    ({ menu }) => ({ menu: menuBrief(menu) }),
  );
  return answer(ctx, site, value.menu, rebaked, value.warnings);
}

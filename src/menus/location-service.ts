// PUT /menus/{ref}/location: assigns the menu to a location in a theme's map and, with languages,
// in the language's map; written entries are read back and compared. DELETE /menus/{ref}/location
// (PUT cannot take a menu off a location; docs/menus.md) frees the same entries.
import { gmt } from "../clock.ts";
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import type { SiteRow } from "../site/sites.ts";
import type { ServiceContext } from "../write/context.ts";
import {
  locationFrom,
  menuAssignments,
  readItemsAt,
  requireSiteLocation,
  siteMenuLocations,
  writeKeys,
} from "./locations.ts";
import { storedEntries, type MapWrite } from "./map-writes.ts";
import { locationNamesOfMenu, mapEntry, touchMenu, writeMapEntry, THEME_MAP } from "./queries.ts";
import type { Selectors } from "./menu-input.ts";
import { menuBrief } from "./record.ts";
import { resolveMenu } from "./refs.ts";
import { menuChange, menusWritten, runMenuWrite } from "./write.ts";

const KNOWN = ["location", "lang", "theme"];

/** The body of PUT and DELETE …/location as their schemas let it through (schemas.ts, routes.ts). */
export interface LocationBody extends Selectors {
  location?: string | null;
}

function unknownKeys(body: LocationBody): Warning[] {
  return Object.keys(body)
    .filter((key) => !KNOWN.includes(key))
    .map((field) => warning("unknown_field", `Field "${field}" is not known here and was ignored.`, { field }));
}

const mapName = (key: string) => (key === THEME_MAP ? "theme" : "language");
const langOfKey = (key: string) => (key === THEME_MAP ? null : key);

export async function putLocation(
  ctx: ServiceContext,
  site: SiteRow,
  ref: string,
  body: LocationBody,
  query: LocationBody,
) {
  const warnings = unknownKeys(body);
  const location = locationFrom(body.location, true, await siteMenuLocations(ctx.db, site.id))!;
  const resolved = await resolveMenu(ctx.db, site.id, ref, {
    lang: body.lang ?? query.lang,
    theme: body.theme ?? query.theme,
  });
  const { menu, lang, theme, state } = resolved;
  const writes: MapWrite[] = writeKeys(state, lang).map((key) => ({ theme, location, key }));

  const saved = { menu: menuBrief(menu), location, lang, theme };
  const { value: replaced, rebaked } = await runMenuWrite(
    ctx,
    {
      siteId: site.id,
      // What prints the location, within the render budgets with this menu, or nothing is stored.
      trial: true,
      apply: async (trx) => {
        // The menu's row first: a menu deleted meanwhile is not found rather than half assigned.
        if (!(await touchMenu(trx, site.id, menu.id, gmt(ctx.clock())))) throw fail("menu_not_found", { ref });
        // A settings write may have removed the location since it was read.
        await requireSiteLocation(trx, site.id, location);
        const before = await locationNamesOfMenu(trx, menu.id);
        const replaced: Array<{ map: string; lang: string | null; menu_id: number }> = [];
        for (const write of writes) {
          const held = await mapEntry(trx, site.id, theme, location, write.key);
          if (held !== undefined && held !== menu.id)
            replaced.push({ map: mapName(write.key), lang: langOfKey(write.key), menu_id: held });
          await writeMapEntry(trx, site.id, theme, location, write.key, menu.id);
        }
        return {
          value: replaced,
          // The menus that held the entries lost them: their state changed with this one's.
          wrote: [
            ...menusWritten([menu.id], "updated"),
            ...menusWritten(
              replaced.map((entry) => entry.menu_id),
              "updated",
            ),
          ],
          // The locations it held before the write and holds after it: both print anew.
          changes: menuChange(menu.id, [...before, ...(await locationNamesOfMenu(trx, menu.id))]),
        };
      },
    },
    () => saved,
  );
  const readBack = await storedEntries(ctx, site.id, writes, menu, { location, lang, theme }, rebaked);
  if (replaced.length > 0) {
    warnings.push(
      warning("location_reassigned", `"${location}" held another menu; it now holds "${menu.name}".`, {
        location,
        replaced,
      }),
    );
  }
  return {
    fields: {
      site_id: site.id,
      menu: menuBrief(menu),
      location,
      lang,
      theme,
      written: writes.map((write) => ({ map: mapName(write.key), lang: langOfKey(write.key) })),
      replaced,
      read_back: readBack,
      assigned: await menuAssignments(ctx.db, site.id, theme, menu.id),
      read_items_at: readItemsAt(location, lang, state),
      rebaked,
    },
    warnings,
  };
}

/** DELETE /menus/{ref}/location; with `dryRun` the same answer and nothing written or rebaked. */
export async function deleteLocation(
  ctx: ServiceContext,
  site: SiteRow,
  ref: string,
  body: LocationBody,
  query: LocationBody,
  dryRun = false,
) {
  const warnings = unknownKeys(body);
  const location = locationFrom(body.location ?? query.location, true, await siteMenuLocations(ctx.db, site.id))!;
  const { menu, lang, theme, state } = await resolveMenu(ctx.db, site.id, ref, {
    lang: body.lang ?? query.lang,
    theme: body.theme ?? query.theme,
  });
  const keys = writeKeys(state, lang);
  const { value: freed, rebaked } = await runMenuWrite(
    ctx,
    {
      siteId: site.id,
      dryRun,
      apply: async (trx) => {
        // The locations it held before and holds after print anew. (No row lock needed: freeing only
        // removes, so a concurrent items write of this menu reads more locations, never fewer.)
        const before = await locationNamesOfMenu(trx, menu.id);
        const out: Array<{ location: string; lang: string | null; theme: string; map: string }> = [];
        for (const key of keys) {
          const result = await trx
            .deleteFrom("menu_locations")
            .where("site_id", "=", site.id)
            .where("theme", "=", theme)
            .where("location", "=", location)
            .where("lang", "=", key)
            .where("menu_id", "=", menu.id)
            .executeTakeFirst();
          if (Number(result.numDeletedRows) > 0) out.push({ location, lang: langOfKey(key), theme, map: mapName(key) });
        }
        return {
          value: out,
          wrote: menusWritten([menu.id], "updated"),
          changes: menuChange(menu.id, [...before, ...(await locationNamesOfMenu(trx, menu.id))]),
        };
      },
    },
    () => ({ menu: menuBrief(menu), location, lang, theme }),
  );
  if (freed.length === 0)
    warnings.push(
      warning("not_assigned", `"${menu.name}" was not assigned to "${location}" there; nothing was freed.`, {
        location,
        lang,
        theme,
      }),
    );
  // A dry run answers the assignments as the delete would leave them.
  const assigned = (await menuAssignments(ctx.db, site.id, theme, menu.id)).filter(
    (entry) => !dryRun || !freed.some((gone) => gone.location === entry.location && gone.lang === entry.lang),
  );
  return {
    fields: {
      site_id: site.id,
      menu: menuBrief(menu),
      freed_locations: freed,
      assigned,
      rebaked,
      ...(dryRun ? { dry_run: true, applied: false } : {}),
    },
    warnings,
  };
}

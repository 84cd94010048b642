// POST /menus, PATCH /menus/{ref} and DELETE /menus/{ref}: the menu itself (a WordPress
// nav_menu term: id, term_taxonomy_id, name, slug, count), created with its tree and its
// location at once, renamed, or deleted with its items and its places in every location map.
import { gmt } from "../clock.ts";
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import type { SiteRow } from "../site/sites.ts";
import { firstFreeSlug, slugify } from "../pages/slug.ts";
import { checkLangIn, languageState, type LanguageState } from "../site/languages.ts";
import type { SiteAddressing } from "../site/addresses.ts";
import { linkAddressing } from "../pages/home.ts";
import type { ServiceContext } from "../write/context.ts";
import { runWrite, type Done } from "../write/pipeline.ts";
import { toTrash } from "../revisions/trash.ts";
import { checkPageUrls } from "./answered.ts";
import type { ItemInput, TreeValue } from "./input.ts";
import {
  locationFrom,
  menuAssignments,
  requireSiteLocation,
  siteMenuLocations,
  themeFrom,
  writeKeys,
} from "./locations.ts";
import { storedEntries, writeMapEntries, type MapWrite } from "./map-writes.ts";
import { nameFrom, selectors, slugInput, slugTaken, unknownKeys, type Selectors } from "./menu-input.ts";
import { itemsOfMenu, locationsOfMenu, menuBySlug, menuSlugs, touchMenu, THEME_MAP, type MenuRow } from "./queries.ts";
import { menuBrief, menuView } from "./record.ts";
import { keptLocations, reviseMenus } from "./revision.ts";
import { termRecord } from "./read-service.ts";
import { resolveMenu } from "./refs.ts";
import { pageFacts, resolveTree } from "./resolve.ts";
import { parseTree } from "./tree-input.ts";
import { menuChange, menusWritten, planTree, runMenuWrite, writeTree, type Plan } from "./write.ts";

export const FALLBACK_MENU_SLUG = "menu";

const CREATE_KEYS = ["name", "slug", "location", "lang", "items", "allow_invalid", "theme"];
const PATCH_KEYS = ["name", "slug", "lang", "theme"];

/** The body of POST /menus as its schema lets it through (schemas.ts). */
export interface CreateMenuBody extends Selectors {
  name: string;
  slug?: string | number | null;
  location?: string | null;
  items?: readonly TreeValue[] | null;
  allow_invalid?: boolean | null;
}

/** The body of PATCH /menus/{ref} as its schema lets it through (schemas.ts). */
export interface PatchMenuBody extends Selectors {
  name?: string;
  slug?: string | number;
}

/** A derived slug another writer took meanwhile: derived again (createMenu). */
class DerivedSlugTaken extends Error {}

/**
 * Parses, resolves and plans a submitted tree (nothing written yet); `keepIds`: see parseTree.
 * A page item's url sent as answered is checked against the page's address (answered.ts).
 */
export async function prepareTree(
  ctx: ServiceContext,
  site: SiteRow,
  value: readonly TreeValue[],
  lang: string | null,
  allowInvalid: boolean,
  state: LanguageState,
  keepIds = false,
): Promise<Plan & { parsed: ItemInput[]; addressing: SiteAddressing }> {
  const parsed = parseTree(value, keepIds);
  const pageIds = await resolveTree(ctx.db, site.id, parsed.items, lang, state);
  const facts = await pageFacts(ctx.db, site.id, pageIds.values());
  const addressing = await linkAddressing(ctx.db, site, ctx.publicFront);
  checkPageUrls(parsed.items, pageIds, facts, addressing);
  const plan = planTree(parsed.items, pageIds, facts, allowInvalid);
  return { ...plan, warnings: [...parsed.warnings, ...plan.warnings], parsed: parsed.items, addressing };
}

export async function createMenu(ctx: ServiceContext, site: SiteRow, body: CreateMenuBody, query: Selectors) {
  const warnings = unknownKeys(body, CREATE_KEYS);
  const name = nameFrom(body.name);
  const state = await languageState(ctx.db, site.id);
  const lang = checkLangIn(state, body.lang ?? query.lang);
  const location = locationFrom(body.location, false, await siteMenuLocations(ctx.db, site.id));
  const { theme, given: themeGiven } = await themeFrom(ctx.db, site.id, body.theme ?? query.theme);
  if (themeGiven && location === null)
    warnings.push(
      warning("theme_unused", "No location was given, so no location map was written; theme was not used.", {
        field: "theme",
      }),
    );
  const allowInvalid = body.allow_invalid === true;

  const given = body.slug;
  const explicitSlug = given !== undefined && given !== null && !(typeof given === "string" && given.trim() === "");
  let slug: string;
  if (explicitSlug) {
    slug = slugInput(given, warnings);
    const occupant = await menuBySlug(ctx.db, site.id, slug);
    if (occupant) throw slugTaken(occupant, slug);
  } else {
    slug = firstFreeSlug(slugify(name) || FALLBACK_MENU_SLUG, await menuSlugs(ctx.db, site.id));
  }

  const plan = body.items
    ? await prepareTree(ctx, site, body.items, lang, allowInvalid, state)
    : { items: [], invalid: [], warnings: [], parsed: [], addressing: undefined };
  warnings.push(...plan.warnings);

  const at = gmt(ctx.clock());
  const writes: MapWrite[] = location === null ? [] : writeKeys(state, lang).map((key) => ({ theme, location, key }));
  let done: Done<{ menu: MenuRow; submitted: Map<number, string> }> | undefined;
  // A derived slug taken by a concurrent writer meanwhile is derived again; an explicit one is refused.
  for (let attempt = 1; done === undefined; attempt++) {
    const tried = slug;
    try {
      done = await runMenuWrite(
        ctx,
        {
          siteId: site.id,
          // What prints its location, within the render budgets with this tree, or nothing is stored.
          trial: location !== null,
          taken: async () =>
            explicitSlug || attempt >= 20
              ? slugTaken(await menuBySlug(ctx.db, site.id, tried), tried)
              : new DerivedSlugTaken(),
          apply: async (trx) => {
            const inserted = await trx
              .insertInto("menus")
              .values({
                site_id: site.id,
                name,
                slug: tried,
                term_taxonomy_id: 0,
                created_at_gmt: at,
                updated_at_gmt: at,
              })
              .returningAll()
              .executeTakeFirstOrThrow();
            await trx
              .updateTable("menus")
              .set({ term_taxonomy_id: inserted.id })
              .where("id", "=", inserted.id)
              .execute();
            const { submitted } = await writeTree(trx, site.id, inserted.id, plan.items, at, null);
            // A settings write may have removed the location since it was read.
            if (location !== null) await requireSiteLocation(trx, site.id, location);
            const displaced = await writeMapEntries(trx, site.id, writes, inserted.id);
            return {
              value: { menu: { ...inserted, term_taxonomy_id: inserted.id }, submitted },
              // A menu that held the location loses it: its state changes too.
              wrote: [...menusWritten([inserted.id], "created"), ...menusWritten(displaced, "updated")],
              // A new menu held no location before: it prints only where it was just assigned.
              changes: menuChange(inserted.id, location === null ? [] : [location]),
            };
          },
        },
        ({ menu }) => ({ menu: menuBrief(menu) }),
      );
    } catch (error) {
      if (!(error instanceof DerivedSlugTaken)) throw error;
      slug = firstFreeSlug(slugify(name) || FALLBACK_MENU_SLUG, await menuSlugs(ctx.db, site.id));
    }
  }
  const { menu, submitted } = done.value;
  const { rebaked } = done;

  await storedEntries(ctx, site.id, writes, menu, { location, lang, theme }, rebaked);
  const view = await menuView(
    ctx.db,
    site,
    ctx.publicFront,
    await itemsOfMenu(ctx.db, menu.id),
    submitted,
    plan.addressing,
  );
  const assigned = location === null ? [] : await menuAssignments(ctx.db, site.id, theme, menu.id);
  return {
    fields: {
      site_id: site.id,
      theme: location === null ? null : theme,
      menu: { ...menuBrief(menu), items: view.items.length, assigned },
      items: view.items,
      invalid: plan.invalid,
      rebaked,
    },
    warnings,
  };
}

export async function patchMenu(
  ctx: ServiceContext,
  site: SiteRow,
  ref: string,
  body: PatchMenuBody,
  query: Selectors,
) {
  const warnings = unknownKeys(body, PATCH_KEYS);
  const { menu } = await resolveMenu(ctx.db, site.id, ref, selectors(body, query));
  if (body.name === undefined && body.slug === undefined)
    throw fail(
      "nothing_to_update",
      { fields: ["name", "slug"] },
      "Give name and/or slug; items and locations have their own calls.",
    );
  const name = body.name !== undefined ? nameFrom(body.name) : menu.name;
  const slug = body.slug !== undefined ? slugInput(body.slug, warnings) : menu.slug;
  if (slug !== menu.slug) {
    const occupant = await menuBySlug(ctx.db, site.id, slug);
    if (occupant && occupant.id !== menu.id) throw slugTaken(occupant, slug);
  }
  const changed = [...(name !== menu.name ? ["name"] : []), ...(slug !== menu.slug ? ["slug"] : [])];
  let row = menu;
  if (changed.length > 0) {
    // Names and slugs are not printed by frames: nothing to publish (docs/menus.md, "Calls").
    const done = await runWrite(ctx, {
      siteId: site.id,
      taken: async () => slugTaken(await menuBySlug(ctx.db, site.id, slug), slug),
      apply: async (trx) => {
        const updated = await trx
          .updateTable("menus")
          .set({ name, slug, updated_at_gmt: gmt(ctx.clock()) })
          .where("id", "=", menu.id)
          .returningAll()
          .executeTakeFirst();
        if (!updated) throw fail("menu_not_found", { ref });
        return { value: updated, wrote: menusWritten([menu.id], "renamed") };
      },
    });
    row = done.value;
  } else {
    warnings.push(warning("nothing_changed", "The menu already has this name and slug.", {}));
  }
  return { fields: { site_id: site.id, menu: await termRecord(ctx.db, row), changed }, warnings };
}

/**
 * DELETE /menus/{ref}: its last state is kept as a revision and it goes to the trash with the
 * location entries it held (a restore gives them back where still free). With `dryRun` the
 * answer is the same and nothing is written or rebaked.
 */
export async function deleteMenu(
  ctx: ServiceContext,
  site: SiteRow,
  ref: string,
  body: Selectors,
  query: Selectors,
  dryRun = false,
) {
  const { menu } = await resolveMenu(ctx.db, site.id, ref, selectors(body, query));
  const done = await runMenuWrite(
    ctx,
    {
      siteId: site.id,
      dryRun,
      apply: async (trx) => {
        const at = gmt(ctx.clock());
        // The menu's row first, as every menu write takes it: concurrent writers of it cannot deadlock.
        if (!(await touchMenu(trx, site.id, menu.id, at))) throw fail("menu_not_found", { ref });
        const places = await locationsOfMenu(trx, menu.id);
        // Its last state kept (a menu older than revisions gets its first here), then the trash entry.
        await reviseMenus(trx, site.id, [menu.id], at);
        await toTrash(trx, site.id, "menus", String(menu.id), menu.slug, at, {
          name: menu.name,
          locations: keptLocations(places),
        });
        const items = await trx.deleteFrom("menu_items").where("menu_id", "=", menu.id).executeTakeFirst();
        await trx.deleteFrom("menu_locations").where("menu_id", "=", menu.id).execute();
        await trx.deleteFrom("menus").where("id", "=", menu.id).execute();
        return {
          value: { removed: Number(items.numDeletedRows), freed: places },
          wrote: menusWritten([menu.id], "deleted"),
          // The locations it held print nothing now, or a data set standing in.
          changes: menuChange(
            menu.id,
            places.map((row) => row.location),
          ),
        };
      },
    },
    () => ({ deleted: menuBrief(menu) }),
  );
  const { removed, freed } = done.value;
  const { rebaked } = done;
  return {
    fields: {
      site_id: site.id,
      deleted: menuBrief(menu),
      removed_items: removed,
      freed_locations: freed.map((row) => ({
        location: row.location,
        lang: row.lang === THEME_MAP ? null : row.lang,
        theme: row.theme,
        map: row.lang === THEME_MAP ? "theme" : "language",
      })),
      rebaked,
      ...(dryRun ? { dry_run: true, applied: false } : {}),
    },
    warnings: [] as Warning[],
  };
}

// The item calls: PUT /menus/{ref}/items (the whole tree), POST …/items (one item at the end of
// its level), PATCH …/items/{id} and DELETE …/items/{id} (the branch); POST …/reorder is in
// reorder-service.ts. Each write runs through the write pipeline in one transaction that first
// takes the menu's row, so writers of one menu queue up and a refused write leaves the stored
// tree whole.
import { gmt } from "../clock.ts";
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import type { SiteRow } from "../site/sites.ts";
import { nothingRebaked } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { answeredOf } from "./answered.ts";
import type { TreeValue } from "./input.ts";
import { parsePatch, parseSingle, type PatchBody, type SingleBody } from "./single-input.ts";
import { menuAssignments } from "./locations.ts";
import { selectors, unknownKeys, type Selectors } from "./menu-input.ts";
import { prepareTree } from "./menu-service.ts";
import { deleteItems, itemsOfMenu, type ItemRow, type MenuRow } from "./queries.ts";
import { menuBrief, menuShort, menuView, type ItemRecord } from "./record.ts";
import { readItemsAtFor } from "./read-service.ts";
import { resolveMenu, type ResolvedMenu } from "./refs.ts";
import { invalidEntry, pageFacts, resolveOne } from "./resolve.ts";
import { MAX_DEPTH, MAX_ITEMS } from "./tree.ts";
import { itemsWritten, itemValues, lockedTree, renumber, runMenuWrite, writeTree, type TreeWrite } from "./write.ts";

/** The body of PUT …/items as its schema lets it through (item-schemas.ts). */
export interface ReplaceItemsBody extends Selectors {
  items: readonly TreeValue[];
  allow_invalid?: boolean | null;
}
/** The body of POST …/items as its schema lets it through. */
export interface AddItemBody extends SingleBody, Selectors {
  allow_invalid?: boolean | null;
}

/** An item id from the path; anything else names no item. */
export function itemIdFrom(value: string, menu: MenuRow): number {
  const text = value.trim();
  const id = /^\d{1,15}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(id) || id <= 0) throw fail("item_not_found", { item: value, menu: menu.id });
  return id;
}

function nextPosition(level: readonly ItemRow[]): number {
  return level.reduce((max, row) => Math.max(max, row.position), 0) + 1;
}

async function recordOf(
  ctx: ServiceContext,
  site: SiteRow,
  menu: MenuRow,
  id: number,
): Promise<{ record: ItemRecord | undefined; total: number }> {
  const view = await menuView(ctx.db, site, ctx.publicFront, await itemsOfMenu(ctx.db, menu.id));
  return { record: view.byId.get(id), total: view.items.length };
}

function renewedWarning(renewed: TreeWrite["renewed"]): Warning {
  return warning(
    "item_ids_not_in_menu",
    `${renewed.length} item id(s) are not items of this menu (a tree from another menu?); those items were stored with new ids.`,
    {
      count: renewed.length,
      items: renewed.slice(0, 50),
    },
  );
}

export async function replaceItems(
  ctx: ServiceContext,
  site: SiteRow,
  ref: string,
  body: ReplaceItemsBody,
  query: Selectors,
) {
  const warnings = unknownKeys(body, ["items", "allow_invalid", "lang", "theme"]);
  const resolved = await resolveMenu(ctx.db, site.id, ref, selectors(body, query));
  const { menu, state } = resolved;
  const allowInvalid = body.allow_invalid === true;
  const plan = await prepareTree(ctx, site, body.items, resolved.lang, allowInvalid, state, true);
  warnings.push(...plan.warnings);

  const at = gmt(ctx.clock());
  const done = await runMenuWrite(
    ctx,
    {
      siteId: site.id,
      // What prints the menu, within the render budgets with this tree, or nothing is stored.
      trial: true,
      apply: async (trx) => {
        // Which named ids the menu holds is read after its row is taken: a concurrent tree is seen whole.
        const { tree: held, locations } = await lockedTree(trx, menu, at);
        const answered = await answeredOf(trx, site.id, held, plan.parsed, plan.addressing.origin);
        return itemsWritten(menu, locations, await writeTree(trx, site.id, menu.id, plan.items, at, held, answered));
      },
    },
    () => ({ menu: menuBrief(menu) }),
  );
  const { submitted, renewed } = done.value;
  const { rebaked } = done;
  if (renewed.length > 0) warnings.push(renewedWarning(renewed));
  const view = await menuView(
    ctx.db,
    site,
    ctx.publicFront,
    await itemsOfMenu(ctx.db, menu.id),
    submitted,
    plan.addressing,
  );
  const assigned = await menuAssignments(ctx.db, site.id, resolved.theme, menu.id);
  return {
    fields: {
      site_id: site.id,
      menu: menuBrief(menu),
      total: view.items.length,
      invalid: plan.invalid,
      items: view.items,
      read_items_at: readItemsAtFor(assigned, state, resolved.location, resolved.lang),
      rebaked,
    },
    warnings,
  };
}

export async function addItem(ctx: ServiceContext, site: SiteRow, ref: string, body: AddItemBody, query: Selectors) {
  const resolved: ResolvedMenu = await resolveMenu(ctx.db, site.id, ref, selectors(body, query));
  const { menu, state } = resolved;
  const single = parseSingle(body);
  const allowInvalid = body.allow_invalid === true;
  const warnings = [...single.warnings];
  let pageId: number | null = null;
  if (single.item.page !== undefined) {
    pageId = await resolveOne(ctx.db, site.id, single.item.page, resolved.lang, state);
    const facts = (await pageFacts(ctx.db, site.id, [pageId])).get(pageId)!;
    if (!facts.valid) {
      const invalid = [invalidEntry("item", facts)];
      if (!allowInvalid) throw fail("menu_items_invalid", { invalid });
      warnings.push(
        warning(
          "invalid_items_skipped",
          "The item points to a page that is not public and was not added (see invalid).",
          { count: 1 },
        ),
      );
      const total = (await itemsOfMenu(ctx.db, menu.id)).length;
      return {
        created: false,
        fields: { site_id: site.id, menu: menuShort(menu), item: null, invalid, total, rebaked: nothingRebaked() },
        warnings,
      };
    }
  }

  const at = gmt(ctx.clock());
  const done = await runMenuWrite(
    ctx,
    {
      siteId: site.id,
      trial: true,
      apply: async (trx) => {
        const { tree, locations } = await lockedTree(trx, menu, at);
        const parent = single.parent;
        if (parent !== 0 && !tree.has(parent))
          throw fail(
            "item_not_found",
            { field: "parent", item: parent, menu: menu.id },
            "The parent item is not in this menu.",
          );
        if (tree.size + 1 > MAX_ITEMS) throw fail("too_many_items", { max_items: MAX_ITEMS, total: tree.size + 1 });
        if (tree.depth(parent) + 1 > MAX_DEPTH) throw fail("tree_too_deep", { max_depth: MAX_DEPTH, parent });
        const row = await trx
          .insertInto("menu_items")
          .values(itemValues(site.id, menu.id, parent, nextPosition(tree.level(parent)), single.item, pageId, at))
          .returning("id")
          .executeTakeFirstOrThrow();
        return itemsWritten(menu, locations, row.id);
      },
    },
    (id) => ({ menu: menuShort(menu), item: id }),
  );
  const { value: id, rebaked } = done;
  const { record, total } = await recordOf(ctx, site, menu, id);
  return { created: true, fields: { site_id: site.id, menu: menuShort(menu), item: record, total, rebaked }, warnings };
}

/** The fields of an item reported as `{from, to}` when a patch changes them. */
const REPORTED = ["title", "type", "page", "url", "target", "classes", "parent", "order", "at", "valid"] as const;

export async function patchItem(
  ctx: ServiceContext,
  site: SiteRow,
  ref: string,
  itemRef: string,
  body: PatchBody & Selectors,
  query: Selectors,
) {
  const resolved = await resolveMenu(ctx.db, site.id, ref, selectors(body, query));
  const { menu, state } = resolved;
  const id = itemIdFrom(itemRef, menu);
  const beforeView = await menuView(ctx.db, site, ctx.publicFront, await itemsOfMenu(ctx.db, menu.id));
  const before = beforeView.byId.get(id);
  if (!before) throw fail("item_not_found", { item: id, menu: menu.id });
  const patch = parsePatch(body);
  const warnings = [...patch.warnings];

  let pageId: number | undefined;
  if (patch.page !== undefined) {
    pageId = await resolveOne(ctx.db, site.id, patch.page, resolved.lang, state);
    const facts = (await pageFacts(ctx.db, site.id, [pageId])).get(pageId)!;
    if (!facts.valid) throw fail("menu_items_invalid", { invalid: [invalidEntry(before.at, facts)] });
  }

  const at = gmt(ctx.clock());
  const { rebaked } = await runMenuWrite(
    ctx,
    {
      siteId: site.id,
      trial: true,
      apply: async (trx) => {
        const { tree, locations } = await lockedTree(trx, menu, at);
        const row = tree.get(id);
        if (!row) throw fail("item_not_found", { item: id, menu: menu.id });
        const set: Partial<ItemRow> = { updated_at_gmt: at };
        if (patch.title !== undefined) set.title = patch.title;
        if (patch.target !== undefined) set.target = patch.target;
        if (patch.classes !== undefined) set.classes = patch.classes;
        if (pageId !== undefined) Object.assign(set, { type: "post_type", page_id: pageId, url: null });
        if (patch.url !== undefined) Object.assign(set, { type: "custom", page_id: null, url: patch.url });

        const from = tree.parentOf(id);
        const to = patch.parent;
        if (to !== undefined) {
          if (to === id || (to !== 0 && tree.has(to) && tree.isSelfOrDescendant(id, to))) {
            throw fail(
              "bad_parent",
              { item: id, parent: to },
              to === id ? "An item cannot be its own parent." : "An item cannot move under one of its own descendants.",
            );
          }
          if (to !== 0 && !tree.has(to))
            throw fail(
              "item_not_found",
              { field: "parent", item: to, menu: menu.id },
              "The parent item is not in this menu.",
            );
          if (to !== from) {
            if (tree.depth(to) + tree.height(id) > MAX_DEPTH)
              throw fail("tree_too_deep", { max_depth: MAX_DEPTH, parent: to, item: id });
            set.parent_id = to;
            set.position = nextPosition(tree.level(to));
          }
        }
        await trx.updateTable("menu_items").set(set).where("id", "=", id).execute();
        if (set.parent_id !== undefined)
          await renumber(
            trx,
            tree.level(from).filter((r) => r.id !== id),
            at,
          );
        return itemsWritten(menu, locations, null);
      },
    },
    () => ({ menu: menuShort(menu), item: id }),
  );

  const { record: after } = await recordOf(ctx, site, menu, id);
  const item: Record<string, unknown> = { id };
  for (const field of REPORTED) {
    const was = before[field];
    const now = after?.[field];
    if (was !== now) item[field] = { from: was, to: now };
  }
  if (Object.keys(item).length === 1)
    warnings.push(warning("nothing_changed", "The item already had these values.", { item: id }));
  return { fields: { site_id: site.id, menu: menuShort(menu), item, current: after, rebaked }, warnings };
}

/** DELETE …/items/{id}: the item with its branch; with `dryRun` the same answer and nothing written. */
export async function deleteItem(
  ctx: ServiceContext,
  site: SiteRow,
  ref: string,
  itemRef: string,
  body: Selectors,
  query: Selectors,
  dryRun = false,
) {
  const { menu } = await resolveMenu(ctx.db, site.id, ref, selectors(body, query));
  const id = itemIdFrom(itemRef, menu);
  const at = gmt(ctx.clock());
  const done = await runMenuWrite(
    ctx,
    {
      siteId: site.id,
      dryRun,
      apply: async (trx) => {
        const { tree, locations } = await lockedTree(trx, menu, at);
        if (!tree.has(id)) throw fail("item_not_found", { item: id, menu: menu.id });
        const branch = tree.branch(id);
        await deleteItems(trx, menu.id, branch);
        const parent = tree.parentOf(id);
        await renumber(
          trx,
          tree.level(parent).filter((row) => row.id !== id),
          at,
        );
        return itemsWritten(menu, locations, { removed: branch, total: tree.size - branch.length });
      },
    },
    ({ removed }) => ({ menu: menuShort(menu), removed }),
  );
  const {
    value: { removed, total },
    rebaked,
  } = done;
  return {
    fields: {
      site_id: site.id,
      menu: menuShort(menu),
      removed,
      total,
      rebaked,
      ...(dryRun ? { dry_run: true, applied: false } : {}),
    },
    warnings: [] as Warning[],
  };
}

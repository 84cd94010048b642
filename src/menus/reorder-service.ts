// POST /menus/{ref}/reorder: one level of a menu put in a new order, the items it names first
// and the others after them. Runs through the write pipeline like the other item calls
// (items-service.ts): the menu's row is taken first, so writers of one menu queue up.
import { gmt } from "../clock.ts";
import { fail } from "../errors.ts";
import { warning } from "../warnings.ts";
import type { SiteRow } from "../site/sites.ts";
import type { ServiceContext } from "../write/context.ts";
import { parentIdFrom } from "./input.ts";
import { selectors, unknownKeys } from "./menu-input.ts";
import { menuShort } from "./record.ts";
import { resolveMenu } from "./refs.ts";
import { itemsWritten, lockedTree, renumber, runMenuWrite } from "./write.ts";

type Body = Record<string, unknown>;

function reorderIds(value: unknown): number[] {
  if (!Array.isArray(value) || value.length === 0)
    throw fail("bad_reorder", { field: "order" }, "order must be a non-empty array of item ids of one level.");
  const ids = value.map((entry) =>
    typeof entry === "number"
      ? entry
      : typeof entry === "string" && /^\d{1,15}$/.test(entry.trim())
        ? Number(entry)
        : NaN,
  );
  const bad = value.filter((_, i) => !Number.isSafeInteger(ids[i]) || ids[i] <= 0);
  if (bad.length > 0)
    throw fail(
      "bad_reorder",
      { field: "order", not_ids: bad.slice(0, 20) },
      "order holds values that are not item ids.",
    );
  const seen = new Set<number>();
  const duplicates = ids.filter((id) => {
    if (seen.has(id)) return true;
    seen.add(id);
    return false;
  });
  if (duplicates.length > 0)
    throw fail(
      "bad_reorder",
      { field: "order", duplicates: [...new Set(duplicates)] },
      "order names an item more than once.",
    );
  return ids;
}

export async function reorderItems(ctx: ServiceContext, site: SiteRow, ref: string, body: Body, query: Body) {
  const warnings = unknownKeys(body, ["order", "parent", "lang", "theme"]);
  const { menu } = await resolveMenu(ctx.db, site.id, ref, selectors(body, query));
  const order = reorderIds(body.order);
  let parent: number;
  try {
    parent = parentIdFrom(body.parent);
  } catch {
    throw fail("bad_reorder", { field: "parent" }, "parent must be an item id, or 0 for the top level.");
  }
  const at = gmt(ctx.clock());
  const done = await runMenuWrite(
    ctx,
    {
      siteId: site.id,
      apply: async (trx) => {
        const { tree, locations } = await lockedTree(trx, menu, at);
        if (parent !== 0 && !tree.has(parent))
          throw fail(
            "item_not_found",
            { field: "parent", item: parent, menu: menu.id },
            "The parent item is not in this menu.",
          );
        const missing = order.filter((id) => !tree.has(id));
        if (missing.length > 0)
          throw fail(
            "item_not_found",
            { field: "order", items: missing, menu: menu.id },
            "order names items that are not in this menu.",
          );
        const current = tree.level(parent);
        const inLevel = new Set(current.map((row) => row.id));
        const elsewhere = order.filter((id) => !inLevel.has(id));
        if (elsewhere.length > 0) {
          throw fail(
            "bad_reorder",
            { field: "order", parent, not_in_level: elsewhere.map((id) => ({ id, parent: tree.parentOf(id) })) },
            "order names items of another level; move them with PATCH …/items/{id} {parent}.",
          );
        }
        const named = new Set(order);
        const rest = current.filter((row) => !named.has(row.id));
        const byId = new Map(current.map((row) => [row.id, row]));
        const final = [...order.map((id) => byId.get(id)!), ...rest];
        await renumber(trx, final, at);
        return itemsWritten(menu, locations, {
          appended: rest.map((row) => row.id),
          level: final.map((row) => row.id),
        });
      },
    },
    () => ({ menu: menuShort(menu), parent }),
  );
  const {
    value: { appended, level },
    rebaked,
  } = done;
  if (appended.length > 0)
    warnings.push(
      warning("items_appended", "Items of the level that order did not name were placed after the named ones.", {
        appended,
      }),
    );
  return { fields: { site_id: site.id, menu: menuShort(menu), parent, order, appended, level, rebaked }, warnings };
}

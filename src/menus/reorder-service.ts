// POST /menus/{ref}/reorder: one level of a menu put in a new order, the items it names first
// and the others after them. Runs through the write pipeline like the other item calls
// (items-service.ts): the menu's row is taken first, so writers of one menu queue up.
import { gmt } from "../clock.ts";
import { fail } from "../errors.ts";
import { warning } from "../warnings.ts";
import type { SiteRow } from "../site/sites.ts";
import type { ServiceContext } from "../write/context.ts";
import { parentIdFrom, type ParentValue } from "./input.ts";
import { selectors, unknownKeys, type Selectors } from "./menu-input.ts";
import { menuShort } from "./record.ts";
import { resolveMenu } from "./refs.ts";
import { itemsWritten, lockedTree, renumber, runMenuWrite } from "./write.ts";

/** The body as its schema lets it through (schemas.ts, ReorderFields): `order` a non-empty list of item ids. */
export interface ReorderBody extends Selectors {
  order: ReadonlyArray<number | string>;
  parent?: ParentValue;
}

/** The ids of `order` as numbers (`12` and `"12"` are one id); the same id twice is 400 bad_reorder. */
function reorderIds(value: ReorderBody["order"]): number[] {
  const ids = value.map(Number);
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

export async function reorderItems(
  ctx: ServiceContext,
  site: SiteRow,
  ref: string,
  body: ReorderBody,
  query: Selectors,
) {
  const warnings = unknownKeys(body, ["order", "parent", "lang", "theme"]);
  const { menu } = await resolveMenu(ctx.db, site.id, ref, selectors(body, query));
  const order = reorderIds(body.order);
  const parent = parentIdFrom(body.parent);
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

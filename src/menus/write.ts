// What every menu write shares: turning a parsed, resolved tree into what is stored (invalid
// items refused, or left out with allow_invalid), inserting it inside the caller's transaction,
// and announcing the committed change to the publish step.
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import type { Rebaked } from "../publish/contract.ts";
import type { Db } from "../store/database.ts";
import type { ServiceContext } from "../publish/contract.ts";
import type { ItemInput } from "./input.ts";
import { invalidEntry, type InvalidItem, type PageFacts } from "./resolve.ts";

export interface Planned {
  input: ItemInput;
  pageId: number | null;
  children: Planned[];
}

export interface Plan {
  items: Planned[];
  invalid: InvalidItem[];
  warnings: Warning[];
}

/**
 * The tree to store. An item pointing to a page that is not public refuses the write (409
 * menu_items_invalid with `invalid`) unless `allowInvalid`: then it is left out and listed in
 * `invalid`, and its children take its place in its level.
 */
export function planTree(items: readonly ItemInput[], pageIds: Map<ItemInput, number>, facts: Map<number, PageFacts>, allowInvalid: boolean): Plan {
  const invalid: InvalidItem[] = [];
  const promoted: string[] = [];
  const walk = (level: readonly ItemInput[]): Planned[] => {
    const out: Planned[] = [];
    for (const input of level) {
      const pageId = input.page === undefined ? null : pageIds.get(input) ?? null;
      const fact = pageId === null ? undefined : facts.get(pageId);
      const children = walk(input.children);
      if (fact && !fact.valid) {
        invalid.push(invalidEntry(input.at, fact));
        promoted.push(...children.map((child) => child.input.at));
        out.push(...children);
        continue;
      }
      out.push({ input, pageId, children });
    }
    return out;
  };
  const planned = walk(items);
  invalid.sort((a, b) => compareAt(a.at, b.at));
  if (invalid.length > 0 && !allowInvalid) throw fail("menu_items_invalid", { invalid });
  const warnings: Warning[] = [];
  if (invalid.length > 0) {
    warnings.push(warning("invalid_items_skipped", `${invalid.length} item(s) point to pages that are not public and were left out (see invalid).`, { count: invalid.length }));
  }
  if (promoted.length > 0) {
    warnings.push(warning("children_moved_up", "Items under a left-out item took its place in its level.", { at: promoted.sort(compareAt) }));
  }
  return { items: planned, invalid, warnings };
}

export function compareAt(a: string, b: string): number {
  const x = a.split(".").map(Number);
  const y = b.split(".").map(Number);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

export function countPlanned(items: readonly Planned[]): number {
  let n = 0;
  const stack = [...items];
  while (stack.length > 0) {
    const item = stack.pop()!;
    n++;
    stack.push(...item.children);
  }
  return n;
}

/** Column values of a new item. */
export function itemValues(siteId: number, menuId: number, parentId: number, position: number, input: Pick<ItemInput, "title" | "target" | "classes" | "url">, pageId: number | null, at: string) {
  return {
    site_id: siteId,
    menu_id: menuId,
    parent_id: parentId,
    position,
    type: pageId === null ? "custom" : "post_type",
    page_id: pageId,
    url: pageId === null ? input.url ?? "" : null,
    title: input.title,
    target: input.target,
    classes: input.classes,
    created_at_gmt: at,
    updated_at_gmt: at,
  };
}

/**
 * Inserts a planned tree under `parentId` (positions from `firstPosition`), parents before
 * children. Answers each new id with the item's coordinate in the submitted tree.
 */
export async function insertPlanned(trx: Db, siteId: number, menuId: number, items: readonly Planned[], at: string, parentId = 0, firstPosition = 1): Promise<Map<number, string>> {
  const submitted = new Map<number, string>();
  const queue: Array<{ level: readonly Planned[]; parent: number; first: number }> = [{ level: items, parent: parentId, first: firstPosition }];
  for (let i = 0; i < queue.length; i++) {
    const { level, parent, first } = queue[i];
    for (let index = 0; index < level.length; index++) {
      const item = level[index];
      const row = await trx
        .insertInto("menu_items")
        .values(itemValues(siteId, menuId, parent, first + index, item.input, item.pageId, at))
        .returning("id")
        .executeTakeFirstOrThrow();
      submitted.set(row.id, item.input.at);
      if (item.children.length > 0) queue.push({ level: item.children, parent: row.id, first: 1 });
    }
  }
  return submitted;
}

/**
 * Hands the committed change of a menu to the publish step. When the renderer does not answer,
 * the write stays saved and the call answers 502 internal_unavailable (spec, Errors).
 */
export async function publishMenu(ctx: ServiceContext, siteId: number, menuId: number, saved: Record<string, unknown>): Promise<Rebaked> {
  const rebaked = await ctx.publisher.changed(siteId, [{ kind: "menu", menuId }]);
  if (rebaked.status === "unavailable") throw fail("internal_unavailable", { saved: true, ...saved, rebaked });
  return rebaked;
}

// What every menu write shares: turning a parsed, resolved tree into what is stored (invalid
// items refused, or left out with allow_invalid), writing it inside the caller's transaction
// (items the menu holds keep their ids), and running the write through the write pipeline; and
// what the item calls share (items-service.ts, reorder-service.ts): the menu's row taken first,
// a level renumbered.
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import type { Change, Written, WrittenAction } from "../write/change.ts";
import type { Db } from "../store/database.ts";
import type { ServiceContext } from "../write/context.ts";
import { runWrite, type Done, type Write } from "../write/pipeline.ts";
import { asStored, type Answered } from "./answered.ts";
import type { ItemInput } from "./input.ts";
import { deleteItems, itemsOfMenu, locationNamesOfMenu, touchMenu, type ItemRow, type MenuRow } from "./queries.ts";
import { invalidEntry, type InvalidItem, type PageFacts } from "./resolve.ts";
import { compareAt, ItemTree } from "./tree.ts";
import "./revision.ts";

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
export function planTree(
  items: readonly ItemInput[],
  pageIds: Map<ItemInput, number>,
  facts: Map<number, PageFacts>,
  allowInvalid: boolean,
): Plan {
  const invalid: InvalidItem[] = [];
  const promoted: string[] = [];
  const walk = (level: readonly ItemInput[]): Planned[] => {
    const out: Planned[] = [];
    for (const input of level) {
      const pageId = input.page === undefined ? null : (pageIds.get(input) ?? null);
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
    warnings.push(
      warning(
        "invalid_items_skipped",
        `${invalid.length} item(s) point to pages that are not public and were left out (see invalid).`,
        { count: invalid.length },
      ),
    );
  }
  if (promoted.length > 0) {
    warnings.push(
      warning("children_moved_up", "Items under a left-out item took its place in its level.", {
        at: promoted.sort(compareAt),
      }),
    );
  }
  return { items: planned, invalid, warnings };
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
export function itemValues(
  siteId: number,
  menuId: number,
  parentId: number,
  position: number,
  input: Pick<ItemInput, "title" | "target" | "classes" | "url">,
  pageId: number | null,
  at: string,
) {
  return {
    site_id: siteId,
    menu_id: menuId,
    parent_id: parentId,
    position,
    type: pageId === null ? "custom" : "post_type",
    page_id: pageId,
    url: pageId === null ? (input.url ?? "") : null,
    title: input.title,
    target: input.target,
    classes: input.classes,
    created_at_gmt: at,
    updated_at_gmt: at,
  };
}

type ItemValues = ReturnType<typeof itemValues>;

/** The columns a whole-tree write sets on an item it keeps. */
const KEPT_COLUMNS = ["parent_id", "position", "type", "page_id", "url", "title", "target", "classes"] as const;

/** Updates a kept item where the tree changed it (its place or its fields); else writes nothing. */
async function updateKept(trx: Db, row: ItemRow, values: ItemValues): Promise<void> {
  if (KEPT_COLUMNS.every((column) => row[column] === values[column])) return;
  const { parent_id, position, type, page_id, url, title, target, classes, updated_at_gmt } = values;
  await trx
    .updateTable("menu_items")
    .set({ parent_id, position, type, page_id, url, title, target, classes, updated_at_gmt })
    .where("id", "=", row.id)
    .where("menu_id", "=", row.menu_id)
    .execute();
}

async function insertItem(trx: Db, values: ItemValues, id?: number): Promise<number> {
  const row = await trx
    .insertInto("menu_items")
    .values(id === undefined ? values : { ...values, id })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface TreeWrite {
  /** Each stored id with the item's coordinate in the submitted tree. */
  submitted: Map<number, string>;
  /** Ids the tree named that the menu does not hold: those items were given new ids. */
  renewed: Array<{ at: string; id: number }>;
}

/**
 * Writes a planned tree as the menu's whole tree, inside the caller's transaction. `held` is the
 * menu's stored tree, read after the menu's row was taken (so it is current on PostgreSQL too),
 * or null for a new menu. An item whose `id` the menu holds keeps its row wherever it moved,
 * updated only where its parent, position or fields changed; every other item is inserted and
 * takes a new id from the sequence (ids are never written by hand). Levels are written in
 * order, parents before children, so a parent id always names a row that exists; held items the
 * tree no longer names are deleted last, after their kept children have moved away. With
 * `answered` (what the held items answered), a kept item's title and url sent as answered are
 * stored as they were (answered.ts). `reuse`: ids no row holds that an item naming them takes
 * back (a restore of a revision or of a deleted menu: ids once issued are never issued again).
 */
export async function writeTree(
  trx: Db,
  siteId: number,
  menuId: number,
  items: readonly Planned[],
  at: string,
  held: ItemTree<ItemRow> | null,
  answered?: Answered,
  reuse?: ReadonlySet<number>,
): Promise<TreeWrite> {
  const submitted = new Map<number, string>();
  const renewed: TreeWrite["renewed"] = [];
  const queue: Array<{ level: readonly Planned[]; parent: number }> = [{ level: items, parent: 0 }];
  for (let i = 0; i < queue.length; i++) {
    const { level, parent } = queue[i];
    for (let index = 0; index < level.length; index++) {
      const { input, pageId, children } = level[index];
      const kept = input.id === undefined ? undefined : held?.get(input.id);
      const fields = kept && answered ? { ...input, ...asStored(input, pageId, kept, answered) } : input;
      const values = itemValues(siteId, menuId, parent, index + 1, fields, pageId, at);
      const reused = !kept && input.id !== undefined && reuse?.has(input.id) ? input.id : undefined;
      if (input.id !== undefined && !kept && reused === undefined) renewed.push({ at: input.at, id: input.id });
      if (kept) await updateKept(trx, kept, values);
      const id = kept ? kept.id : await insertItem(trx, values, reused);
      submitted.set(id, input.at);
      if (children.length > 0) queue.push({ level: children, parent: id });
    }
  }
  if (held)
    await deleteItems(
      trx,
      menuId,
      held.ids().filter((id) => !submitted.has(id)),
    );
  return { submitted, renewed };
}

/**
 * The change a menu write announces, with the location names it was assigned to before the
 * write and is after it (read inside the write's transaction, once the menu's row is taken): only
 * frames printing those locations are rebaked.
 */
export function menuChange(menuId: number, locations: Iterable<string>): Change[] {
  return [{ kind: "menu", menuId, locations: [...new Set(locations)].sort() }];
}

/** The menus a write wrote, each by its id as text (the reviser in revision.ts reads it back). */
export function menusWritten(ids: Iterable<number>, action: WrittenAction): Written[] {
  return [...new Set(ids)].map((id): Written => ({ kind: "menu", id: String(id), action }));
}

/**
 * Runs a menu write through the write pipeline. When the renderer does not answer, the write
 * stays saved and the call answers 502 internal_unavailable (docs/menus.md) with `saved`, what the
 * answer names of what was written.
 */
export async function runMenuWrite<T>(
  ctx: ServiceContext,
  write: Write<T>,
  saved: (value: T) => Record<string, unknown>,
): Promise<Done<T>> {
  const done = await runWrite(ctx, write);
  if (done.rebaked.status === "unavailable")
    throw fail("internal_unavailable", { saved: true, ...saved(done.value), rebaked: done.rebaked });
  return done;
}

/**
 * Opens the write: takes the menu's row and reads its items inside the transaction, and the
 * location names it holds (what the publish step rebakes: an items write leaves them as they
 * are, and a location write of this menu waits for its row).
 */
export async function lockedTree(
  trx: Db,
  menu: MenuRow,
  at: string,
): Promise<{ tree: ItemTree<ItemRow>; locations: string[] }> {
  if (!(await touchMenu(trx, menu.site_id, menu.id, at))) throw fail("menu_not_found", { ref: menu.id });
  const locations = await locationNamesOfMenu(trx, menu.id);
  return { tree: new ItemTree(await itemsOfMenu(trx, menu.id)), locations };
}

/** What an items write of one menu answers the pipeline: the menu updated, its change at its locations. */
export function itemsWritten<T>(menu: MenuRow, locations: readonly string[], value: T) {
  return { value, wrote: menusWritten([menu.id], "updated"), changes: menuChange(menu.id, locations) };
}

/** Positions 1..n in the given order, writing only the rows whose position changes. */
export async function renumber(trx: Db, level: readonly ItemRow[], at: string): Promise<void> {
  for (let index = 0; index < level.length; index++) {
    if (level[index].position !== index + 1) {
      await trx
        .updateTable("menu_items")
        .set({ position: index + 1, updated_at_gmt: at })
        .where("id", "=", level[index].id)
        .execute();
    }
  }
}

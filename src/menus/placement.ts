// A submitted tree sent in the flat form the answers give (GET /menus/{ref}, PUT …/items): every
// item at the top level of the body, each with `parent` naming another item's `id`. The items
// are nested back under the items they name before anything else is checked. Pure.
import { compareAt } from "./tree.ts";

/** An item of a submitted tree: where it was written, and what is nested in it. */
export interface Placeable<T> {
  at: string;
  children: T[];
}

/** A top-level item whose `parent` names the `id` of another item of the body. */
export interface Mover<T> {
  item: T;
  parent: number;
}

export interface Placement<T> {
  /** The top level after the movers left it. */
  top: T[];
  /** Movers whose parent names no item of the body: they stay at the top (`at` of each). */
  unplaced: string[];
  /** Movers whose parent is themselves or under them (`at` of each); nothing was moved. */
  loops: string[];
}

/**
 * Puts each mover under the item its `parent` names (`byId`: the item of the body with each
 * `id`), after that item's own `children`, in body order. `container` tells where every
 * non-mover stands (null at the top). When a parent chain loops, nothing is moved.
 */
export function placeByParent<T extends Placeable<T>>(
  top: readonly T[],
  movers: readonly Mover<T>[],
  byId: ReadonlyMap<number, T>,
  container: ReadonlyMap<T, T | null>,
): Placement<T> {
  const target = new Map<T, T>();
  const unplaced: string[] = [];
  for (const mover of movers) {
    const parent = byId.get(mover.parent);
    if (parent === undefined) unplaced.push(mover.item.at);
    else target.set(mover.item, parent);
  }
  const above = (item: T): T | null => target.get(item) ?? container.get(item) ?? null;
  const loops: string[] = [];
  for (const item of target.keys()) {
    const seen = new Set<T>();
    for (let up: T | null = target.get(item)!; up !== null && !seen.has(up); up = above(up)) {
      if (up === item) {
        loops.push(item.at);
        break;
      }
      seen.add(up);
    }
  }
  if (loops.length > 0) return { top: [...top], unplaced, loops: loops.sort(compareAt) };
  for (const [item, parent] of target) parent.children.push(item);
  return { top: top.filter((item) => !target.has(item)), unplaced, loops };
}

/** The first item (in `at` order) standing deeper than `max` levels, or null. */
export function firstTooDeep<T extends Placeable<T>>(top: readonly T[], max: number): string | null {
  const deep: string[] = [];
  const queue: Array<[T, number]> = top.map((item) => [item, 1]);
  for (let i = 0; i < queue.length; i++) {
    const [item, depth] = queue[i];
    if (depth > max) deep.push(item.at);
    else for (const child of item.children) queue.push([child, depth + 1]);
  }
  return deep.length === 0 ? null : deep.sort(compareAt)[0];
}

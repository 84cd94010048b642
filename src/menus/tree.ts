// The stored item tree of one menu held in memory: levels in order, coordinates (`at`), depth,
// branches. Pure; walks are iterative and stop at cycles, so a damaged row can never loop.

/** The columns the tree needs. */
export interface TreeRow {
  id: number;
  parent_id: number;
  position: number;
}

export const MAX_ITEMS = 2000;
export const MAX_DEPTH = 8;

const byPosition = (a: TreeRow, b: TreeRow) => a.position - b.position || a.id - b.id;

/** Orders coordinates as the tree reads: "0", "0.0", "0.1", "1", "10". */
export function compareAt(a: string, b: string): number {
  const x = a.split(".").map(Number);
  const y = b.split(".").map(Number);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

export class ItemTree<R extends TreeRow> {
  private readonly byId = new Map<number, R>();
  private readonly levels = new Map<number, R[]>();

  constructor(rows: Iterable<R>) {
    for (const row of rows) this.byId.set(row.id, row);
    for (const row of this.byId.values()) {
      // An item whose parent is gone is shown at the top rather than lost.
      const parent =
        row.parent_id !== 0 && this.byId.has(row.parent_id) && row.parent_id !== row.id ? row.parent_id : 0;
      const list = this.levels.get(parent);
      if (list) list.push(row);
      else this.levels.set(parent, [row]);
    }
    for (const list of this.levels.values()) list.sort(byPosition);
  }

  get size(): number {
    return this.byId.size;
  }

  /** Every item id, whether or not the item can be reached from the top. */
  ids(): number[] {
    return [...this.byId.keys()];
  }

  get(id: number): R | undefined {
    return this.byId.get(id);
  }

  has(id: number): boolean {
    return this.byId.has(id);
  }

  /** The items of one level (parent 0: the top), in order. */
  level(parentId: number): R[] {
    return this.levels.get(parentId) ?? [];
  }

  /** The parent an item is shown under (0 at the top). */
  parentOf(id: number): number {
    const row = this.byId.get(id);
    if (!row || row.parent_id === 0 || !this.byId.has(row.parent_id) || row.parent_id === id) return 0;
    return row.parent_id;
  }

  /** Every item depth first, parents before their children, each level in order. */
  preorder(): R[] {
    const out: R[] = [];
    const seen = new Set<number>();
    const stack: R[] = [...this.level(0)].reverse();
    while (stack.length > 0) {
      const row = stack.pop()!;
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      out.push(row);
      const children = this.level(row.id);
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
    }
    return out;
  }

  /** `at` of every item: "1.0" is the first child of the second top-level item. */
  coordinates(): Map<number, string> {
    const out = new Map<number, string>();
    const queue: Array<[number, string]> = [[0, ""]];
    for (let i = 0; i < queue.length; i++) {
      const [parent, prefix] = queue[i];
      this.level(parent).forEach((row, index) => {
        if (out.has(row.id)) return;
        const at = prefix === "" ? String(index) : `${prefix}.${index}`;
        out.set(row.id, at);
        queue.push([row.id, at]);
      });
    }
    return out;
  }

  /** Ancestors nearest first. */
  ancestors(id: number): number[] {
    const out: number[] = [];
    const seen = new Set<number>([id]);
    let parent = this.parentOf(id);
    while (parent !== 0 && !seen.has(parent)) {
      seen.add(parent);
      out.push(parent);
      parent = this.parentOf(parent);
    }
    return out;
  }

  /** Level of an item: 1 at the top; 0 for the top "parent" 0. */
  depth(id: number): number {
    return id === 0 ? 0 : this.ancestors(id).length + 1;
  }

  /** The item and every item under it, parents first. */
  branch(id: number): number[] {
    const out: number[] = [];
    if (!this.byId.has(id)) return out;
    const seen = new Set<number>();
    const stack = [id];
    while (stack.length > 0) {
      const current = stack.pop()!;
      if (seen.has(current)) continue;
      seen.add(current);
      out.push(current);
      const children = this.level(current);
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i].id);
    }
    return out;
  }

  /** Levels in the branch of an item, itself included (1 for a leaf). */
  height(id: number): number {
    let best = 0;
    const stack: Array<[number, number]> = [[id, 1]];
    const seen = new Set<number>();
    while (stack.length > 0) {
      const [current, level] = stack.pop()!;
      if (seen.has(current)) continue;
      seen.add(current);
      if (level > best) best = level;
      for (const child of this.level(current)) stack.push([child.id, level + 1]);
    }
    return best;
  }

  /** True when `candidate` is `id` itself or under it. */
  isSelfOrDescendant(id: number, candidate: number): boolean {
    return candidate === id || this.ancestors(candidate).includes(id);
  }
}

/** Nests flat records by `parent`, keeping the order given within each level. */
export function nest<T extends { id: number; parent: number }>(flat: readonly T[]): Array<T & { children: unknown[] }> {
  const nodes = new Map<number, T & { children: Array<T & { children: unknown[] }> }>();
  for (const item of flat) nodes.set(item.id, { ...item, children: [] });
  const top: Array<T & { children: unknown[] }> = [];
  for (const item of flat) {
    const node = nodes.get(item.id)!;
    const parent = item.parent === 0 ? undefined : nodes.get(item.parent);
    if (parent && parent !== node) parent.children.push(node);
    else top.push(node);
  }
  return top;
}

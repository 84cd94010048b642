// The page tree of a site held in memory from its light rows: visibility (published and every
// ancestor published), ancestors, children. Pure; walks are iterative and stop at cycles.
import type { PageLite } from "./queries.ts";

export class PageTree {
  private readonly byId = new Map<number, PageLite>();
  private readonly childrenOf = new Map<number, PageLite[]>();
  private readonly visibleMemo = new Map<number, boolean>();

  constructor(rows: Iterable<PageLite>) {
    for (const row of rows) this.byId.set(row.id, row);
    for (const row of this.byId.values()) {
      const list = this.childrenOf.get(row.parent_id);
      if (list) list.push(row);
      else this.childrenOf.set(row.parent_id, [row]);
    }
  }

  get(id: number): PageLite | undefined {
    return this.byId.get(id);
  }

  all(): IterableIterator<PageLite> {
    return this.byId.values();
  }

  /** Ancestors nearest first. */
  ancestors(id: number): PageLite[] {
    const out: PageLite[] = [];
    const seen = new Set<number>([id]);
    let parentId = this.byId.get(id)?.parent_id ?? 0;
    while (parentId !== 0 && !seen.has(parentId)) {
      seen.add(parentId);
      const parent = this.byId.get(parentId);
      if (!parent) break;
      out.push(parent);
      parentId = parent.parent_id;
    }
    return out;
  }

  children(id: number): PageLite[] {
    return this.childrenOf.get(id) ?? [];
  }

  /** Every descendant, breadth first. */
  descendants(id: number): PageLite[] {
    const out: PageLite[] = [];
    const seen = new Set<number>([id]);
    const queue = [id];
    for (let i = 0; i < queue.length; i++) {
      for (const child of this.children(queue[i])) {
        if (seen.has(child.id)) continue;
        seen.add(child.id);
        out.push(child);
        queue.push(child.id);
      }
    }
    return out;
  }

  /** Published, and every ancestor published. */
  visible(id: number): boolean {
    const known = this.visibleMemo.get(id);
    if (known !== undefined) return known;
    const page = this.byId.get(id);
    const result = page !== undefined && page.status === "publish" && this.ancestors(id).every((a) => a.status === "publish");
    this.visibleMemo.set(id, result);
    return result;
  }

  /** True when `candidate` is `id` itself or one of its descendants. */
  isSelfOrDescendant(id: number, candidate: number): boolean {
    if (candidate === id) return true;
    return this.ancestors(candidate).some((a) => a.id === id);
  }
}

// The page tree of a site held in memory from its light rows: visibility (published and every
// ancestor published), ancestors, children. Pure; walks are iterative and stop at cycles.
import type { Db } from "../store/database.ts";
import type { PageScope } from "../effects/page-tree.ts";
import { siteIdValue } from "../store/by-id.ts";
import { descendantsOf, groupMembers, LITE, liteRowsOf, withAncestors, type PageLite } from "./queries.ts";

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
    const result =
      page !== undefined && page.status === "publish" && this.ancestors(id).every((a) => a.status === "publish");
    this.visibleMemo.set(id, result);
    return result;
  }

  /** True when `candidate` is `id` itself or one of its descendants. */
  isSelfOrDescendant(id: number, candidate: number): boolean {
    if (candidate === id) return true;
    return this.ancestors(candidate).some((a) => a.id === id);
  }
}

/** The pages a publish step needs (`scope`) with their ancestors, read with indexed queries, so its cost follows the change. */
async function scoped(db: Db, siteId: number, scope: PageScope): Promise<PageLite[]> {
  const rows = new Map<number, PageLite>();
  const add = (list: Iterable<PageLite>) => {
    for (const row of list) rows.set(row.id, row);
  };
  const families = [...new Set(scope.families ?? [])];
  const partnered = [...new Set([...(scope.partners ?? []), ...families])];
  const named = [...new Set([...(scope.pages ?? []), ...partnered])].filter((id) => id > 0);
  if (named.length > 0)
    add(await db.selectFrom("pages").select(LITE).where(siteIdValue, "=", siteId).where("id", "in", named).execute());
  for (const id of families) add(await descendantsOf(db, siteId, id));
  const groups = partnered
    .map((id) => rows.get(id)?.translation_group)
    .filter((group): group is number => group !== null && group !== undefined);
  add(await groupMembers(db, siteId, [...new Set(groups)]));
  if (scope.onFrames && scope.onFrames.length > 0) {
    add(
      await db
        .selectFrom("pages")
        .select(LITE)
        .where("site_id", "=", siteId)
        .where("frame_id", "in", [...new Set(scope.onFrames)])
        .execute(),
    );
  }
  return withAncestors(db, siteId, [], rows.values());
}

/** The site's pages in light form, each with its ancestors: every page, or those of `scope`. */
export async function pageTreeOf(db: Db, siteId: number, scope?: PageScope): Promise<PageTree> {
  return new PageTree(scope ? await scoped(db, siteId, scope) : await liteRowsOf(db, siteId));
}

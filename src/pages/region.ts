// The part of a site's page tree one page write can change, read before and after the write
// inside its transaction, so that what the write announces (and takes offline) is found without
// reading every page of the site: the written page, its descendants (paths and visibility follow
// it), the translation partners of all of them, pages created on the way (stubs), each with its
// ancestors (visibility). Every other page keeps its record, address and visibility.
import type { Db } from "../store/database.ts";
import { descendantsOf, groupMembers, withAncestors, type PageLite } from "./queries.ts";
import { PageTree } from "./tree.ts";

export class WriteRegion {
  /** Pages the write may change. */
  private readonly subjects = new Set<number>();
  /** Their rows (and ancestors) before the write. */
  private readonly before = new Map<number, PageLite>();

  constructor(
    private readonly trx: Db,
    private readonly siteId: number,
  ) {}

  /** Reads a page's region as it stands; call it before the write touches the page. */
  async enter(page: PageLite): Promise<void> {
    const family = [page, ...(await descendantsOf(this.trx, this.siteId, page.id))];
    const partners = await groupMembers(this.trx, this.siteId, groupsOf(family));
    const rows = await withAncestors(this.trx, this.siteId, [], [...family, ...partners]);
    for (const row of [...family, ...partners]) this.subjects.add(row.id);
    for (const row of rows) if (!this.before.has(row.id)) this.before.set(row.id, row);
  }

  /**
   * The trees before and after the write over its region, once the write is done. `written`
   * are the pages it wrote (their region as it is now joins), `created` the pages it made.
   */
  async trees(
    written: readonly number[],
    created: readonly number[],
  ): Promise<{ before: PageTree; after: PageTree; subjects: Set<number> }> {
    const subjects = new Set([...this.subjects, ...written, ...created]);
    for (const id of written) for (const row of await descendantsOf(this.trx, this.siteId, id)) subjects.add(row.id);
    let rows = await withAncestors(this.trx, this.siteId, subjects);
    // A page whose path or visibility changed changes its translation partners' records too.
    const partners = await groupMembers(this.trx, this.siteId, groupsOf(rows.filter((row) => subjects.has(row.id))));
    if (partners.some((row) => !subjects.has(row.id))) {
      for (const row of partners) subjects.add(row.id);
      rows = await withAncestors(this.trx, this.siteId, [], [...rows, ...partners]);
    }
    const after = new Map(rows.map((row) => [row.id, row]));
    // Pages the write did not touch (ancestors, partners of descendants) were as they are now.
    const made = new Set(created);
    const before = new Map(this.before);
    for (const [id, row] of after) if (!before.has(id) && !made.has(id) && !this.subjects.has(id)) before.set(id, row);
    return { before: new PageTree(before.values()), after: new PageTree(after.values()), subjects };
  }
}

function groupsOf(rows: readonly PageLite[]): number[] {
  return [...new Set(rows.map((row) => row.translation_group).filter((group): group is number => group !== null))];
}

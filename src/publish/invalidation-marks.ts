// Marks: freshness of cached public pages across processes on one PostgreSQL database. A process
// bumps the mark of each site it flushed (scope 0: every site; scope -1: the host directory) in
// the database before it tells the others; the NOTIFY carries the new marks. Before answering a public
// page from memory a process reads the marks of that site and of scope 0: one that moved past
// what it has seen means a flush it has not applied yet (its NOTIFY is still on the way), so it
// drops that cache first. It also reads the host directory's mark: a site created or re-domained
// elsewhere may move the host being answered to another site; that drops the host directory
// only, never a page. The write's answer waits for the bump (server.ts), so the next request,
// on any process, sees the write.
import type pg from "pg";

/** Scope of every site's pages at once. */
export const ALL_SITES = 0;
/** Scope of the host directory (host → site): bumped by a site created, re-domained or deleted. */
export const DIRECTORY = -1;

export class Marks {
  /**
   * Per scope, the mark up to which every flush is applied here: each told or bumped mark
   * (marks of one scope go up by one per flush), or a whole drop of the scope. Messages can
   * arrive out of order, so marks past a gap wait in `ahead` until the gap is filled.
   */
  private readonly upTo = new Map<number, number>();
  private readonly ahead = new Map<number, Set<number>>();

  constructor(private readonly pool: pg.Pool) {}

  /** Bumps the marks of these scopes (their flushes are applied here already); answers the new ones. */
  async bump(scopes: readonly number[]): Promise<Record<number, number>> {
    if (scopes.length === 0) return {};
    const { rows } = await this.pool.query<{ scope: number; mark: string }>(
      "insert into invalidation_marks (scope, mark) select s, 1 from unnest($1::int[]) as s on conflict (scope) do update set mark = invalidation_marks.mark + 1 returning scope, mark",
      [[...new Set(scopes)]],
    );
    const marks: Record<number, number> = {};
    for (const row of rows) marks[row.scope] = Number(row.mark);
    this.told(marks);
    return marks;
  }

  /** Whether the flushes told with this mark are applied here already (or covered by a whole drop). */
  covered(scope: number, mark: number | undefined): boolean {
    return mark !== undefined && mark <= (this.upTo.get(scope) ?? 0);
  }

  /** Marks whose flushes are now applied here (told by another process, or bumped here). */
  told(marks: Record<number, number> | undefined): void {
    for (const [key, mark] of Object.entries(marks ?? {})) {
      const scope = Number(key);
      let upTo = this.upTo.get(scope) ?? 0;
      if (mark <= upTo) continue;
      const ahead = this.ahead.get(scope) ?? new Set<number>();
      ahead.add(mark);
      while (ahead.delete(upTo + 1)) upTo++;
      this.upTo.set(scope, upTo);
      if (ahead.size > 0) this.ahead.set(scope, ahead);
      else this.ahead.delete(scope);
    }
  }

  /**
   * The scopes among this site's, scope 0 and the host directory's with a mark past what is applied here (a flush whose
   * NOTIFY has not arrived, or has been missed): the caller drops them whole, so they count as applied.
   */
  async stale(siteId: number): Promise<number[]> {
    const { rows } = await this.pool.query<{ scope: number; mark: string }>(
      "select scope, mark from invalidation_marks where scope = any($1::int[])",
      [[ALL_SITES, DIRECTORY, siteId]],
    );
    const out: number[] = [];
    for (const row of rows) {
      const mark = Number(row.mark);
      if (mark > (this.upTo.get(row.scope) ?? 0)) {
        out.push(row.scope);
        const ahead = new Set([...(this.ahead.get(row.scope) ?? [])].filter((m) => m > mark));
        let upTo = mark;
        while (ahead.delete(upTo + 1)) upTo++;
        this.upTo.set(row.scope, upTo);
        if (ahead.size > 0) this.ahead.set(row.scope, ahead);
        else this.ahead.delete(row.scope);
      }
    }
    return out.sort((a, b) => a - b);
  }
}

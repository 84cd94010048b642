// Marks: freshness of cached public pages across processes on one PostgreSQL database. A process
// bumps the mark of each site it flushed (scope 0: every site and the host directory) in the
// database before it tells the others; the NOTIFY carries the new marks. Before answering a public
// page from memory a process reads the marks of that site and of scope 0: one that moved past
// what it has seen means a flush it has not applied yet (its NOTIFY is still on the way), so it
// drops that cache first. The write's answer waits for the bump (main.ts), so the next request,
// on any process, sees the write.
import type pg from "pg";

/** Scope of every site at once and of the host directory. */
export const ALL_SITES = 0;

export class Marks {
  private readonly seen = new Map<number, number>();

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

  /** Marks whose flushes are applied here (told by another process, or bumped here). */
  told(marks: Record<number, number> | undefined): void {
    for (const [scope, mark] of Object.entries(marks ?? {})) {
      const id = Number(scope);
      if (mark > (this.seen.get(id) ?? -1)) this.seen.set(id, mark);
    }
  }

  /** The scopes among this site's and scope 0 whose mark moved past what was seen; now seen. */
  async stale(siteId: number): Promise<number[]> {
    const { rows } = await this.pool.query<{ scope: number; mark: string }>("select scope, mark from invalidation_marks where scope = any($1::int[])", [[ALL_SITES, siteId]]);
    const out: number[] = [];
    for (const row of rows) {
      const mark = Number(row.mark);
      if (mark > (this.seen.get(row.scope) ?? 0)) {
        out.push(row.scope);
        this.seen.set(row.scope, mark);
      }
    }
    return out.sort((a, b) => a - b);
  }
}

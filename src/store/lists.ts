// One page of a list, read in the database: the rows of the window (LIMIT/OFFSET over a stable
// order) and the count of every row that matches, so that a list costs what its page holds, not
// what the site holds (docs/lists.md). The HTTP layer reads the window from `?per_page` and `?page`.
import { sql, type SelectQueryBuilder } from "kysely";
import { isPostgres, type AnyDb } from "./database.ts";

/** The rows a page of a list skips and takes. */
export interface ListWindow {
  limit: number;
  offset: number;
}

export interface Windowed<R> {
  /** Every row that matches, on every page. */
  total: number;
  rows: R[];
}

/**
 * `query`: the list's rows, filtered and in an order that ends on a unique column (so a row
 * never shows on two pages). Answers the window's rows and the count of the matching rows.
 */
export async function listWindow<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  window: ListWindow,
): Promise<Windowed<O>> {
  const [rows, counted] = await Promise.all([
    query.limit(window.limit).offset(window.offset).execute(),
    query.clearSelect().clearOrderBy().select(sql<number | string>`count(*)`.as("n")).executeTakeFirstOrThrow(),
  ]);
  return { total: Number((counted as { n: number | string }).n), rows };
}

/**
 * `column` in plain code-unit order (docs/lists.md: `article--wide` before `article__faq`) on both
 * databases: SQLite compares text bytewise already; PostgreSQL follows the database's collation
 * unless told `C`.
 */
export function codeUnitOrder(db: AnyDb, column: string) {
  return isPostgres(db) ? sql`${sql.ref(column)} collate "C"` : sql`${sql.ref(column)}`;
}

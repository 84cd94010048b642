// Entries for the pages that have none though a visitor can find them: the pages that existed
// before the index did (0300_search makes the tables; a page's text is rendered in code), made once
// at start, before the service answers. Every write after keeps the index itself (index-sync.ts),
// so at later starts this reads one query's worth of ids and writes nothing.
import { sql } from "kysely";
import { isPostgres, type Db } from "../store/database.ts";
import { reindexPages } from "./index-sync.ts";

/** Pages made per transaction: a large site's catch-up never holds one long write. */
const BATCH = 200;

/** Makes the missing entries of every site; answers how many pages it read. */
export async function catchUpSearchIndex(db: Db): Promise<number> {
  const key = isPostgres(db) ? sql.raw("s.page_id") : sql.raw("s.rowid");
  const { rows } = await sql<{ id: number; site_id: number }>`
    select p.id, p.site_id from pages p
    where p.status = 'publish' and p.frame_id is not null
      and not exists (select 1 from page_search s where ${key} = p.id)
    order by p.site_id, p.id
  `.execute(db);
  const bySite = new Map<number, number[]>();
  for (const row of rows) {
    const ids = bySite.get(row.site_id) ?? [];
    ids.push(row.id);
    bySite.set(row.site_id, ids);
  }
  for (const [siteId, ids] of bySite)
    for (let at = 0; at < ids.length; at += BATCH)
      await db.transaction().execute((trx) => reindexPages(trx, siteId, ids.slice(at, at + BATCH)));
  return rows.length;
}

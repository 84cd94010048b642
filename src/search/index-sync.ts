// The search index kept in a write's transaction (docs/search.md): the write pipeline names the
// pages a write may have changed (write/search-index.ts) and they are read again as they stand in
// its transaction: each a visitor can find gets its entry made anew, every other one loses its
// entry, so a page published, changed, unpublished, moved or deleted is found (or not) on the next
// request.
import { isPostgres, type Db } from "../store/database.ts";
import type { SearchBackend } from "./backend.ts";
import { findablePages } from "./findable.ts";
import { pageText } from "./page-text.ts";
import { postgresSearch } from "./postgres-search.ts";
import { sqliteSearch } from "./sqlite-search.ts";

export function searchBackend(db: Db): SearchBackend {
  return isPostgres(db) ? postgresSearch : sqliteSearch;
}

/**
 * Makes the entries of these pages, and of the published pages standing on these frames that have
 * none (a frame put back under its pages), as they stand in the transaction.
 */
export async function reindexPages(
  trx: Db,
  siteId: number,
  pages: readonly number[],
  frames: readonly string[] = [],
): Promise<void> {
  const backend = searchBackend(trx);
  const ids = [...pages];
  for (const frame of frames) ids.push(...(await backend.missingOnFrame(trx, siteId, frame)));
  if (ids.length === 0) return;
  const found = await findablePages(trx, siteId, ids);
  const entries = [];
  for (const row of found) entries.push({ id: row.id, lang: row.lang, text: await pageText(row) });
  const kept = new Set(found.map((row) => row.id));
  await backend.remove(
    trx,
    siteId,
    ids.filter((id) => !kept.has(id)),
  );
  await backend.put(trx, siteId, entries);
}

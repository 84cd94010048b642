// The search index on SQLite (docs/search.md): an FTS5 table (0300_search) whose rowid is the
// page's id. Its `scope` column holds one token naming the site and the language, so a search
// reads only its own postings; `page_search_heads` holds the titles, and the summaries and tags,
// alone. What a search reads of them: sqlite-candidates.ts.
import { CompiledQuery, sql } from "kysely";
import type { Db } from "../store/database.ts";
import type { SearchBackend, SearchHit } from "./backend.ts";
import { scopeToken, sqliteCandidates, type RunStatement } from "./sqlite-candidates.ts";

export { matchExpression, scopeToken } from "./sqlite-candidates.ts";

function ids(list: readonly number[]) {
  return sql.join(list.map((id) => sql`${id}`));
}

function runOn(db: Db): RunStatement {
  return async (text, params) =>
    (await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(text, [...params]))).rows;
}

export const sqliteSearch: SearchBackend = {
  async put(trx, siteId, entries) {
    if (entries.length === 0) return;
    await this.remove(
      trx,
      siteId,
      entries.map((entry) => entry.id),
    );
    for (const { id, lang, text } of entries) {
      const scope = scopeToken(siteId, lang);
      await sql`
        insert into page_search (rowid, scope, title, summary, tags, body)
        values (${id}, ${scope}, ${text.title}, ${text.summary}, ${text.tags}, ${text.body})
      `.execute(trx);
      await sql`
        insert into page_search_heads (rowid, scope, title, meta)
        values (${id}, ${scope}, ${text.title}, ${`${text.summary} ${text.tags}`})
      `.execute(trx);
    }
  },

  async remove(trx, _siteId, list) {
    if (list.length === 0) return;
    await sql`delete from page_search where rowid in (${ids(list)})`.execute(trx);
    await sql`delete from page_search_heads where rowid in (${ids(list)})`.execute(trx);
  },

  async missingOnFrame(trx, siteId, frameId) {
    const { rows } = await sql<{ id: number }>`
      select p.id from pages p
      where p.site_id = ${siteId} and p.frame_id = ${frameId} and p.status = 'publish'
        and not exists (select 1 from page_search s where s.rowid = p.id)
    `.execute(trx);
    return rows.map((row) => row.id);
  },

  candidates(db, siteId, langs, words) {
    return sqliteCandidates(runOn(db), siteId, langs, words);
  },

  async hits(db, list) {
    if (list.length === 0) return [];
    const { rows } = await sql<SearchHit>`
      select p.id, p.title, p.lang, p.path, p.date_gmt, s.summary, s.body
      from page_search s join pages p on p.id = s.rowid
      where s.rowid in (${ids(list)})
    `.execute(db);
    return rows;
  },
};

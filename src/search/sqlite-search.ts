// The search index on SQLite (docs/search.md): an FTS5 table (0300_search) whose rowid is the
// page's id. Its `scope` column holds one token naming the site and the language, so a search
// reads only its own postings; the words are quoted as FTS5 strings, so none is read as syntax.
// Ranked by bm25 with the title weighted highest, then the summary and tags, then the text.
import { sql } from "kysely";
import type { SearchBackend, SearchHit } from "./backend.ts";

/** bm25's weight of each column: scope, title, summary, tags, body. */
const WEIGHTS = sql.raw("0.0, 10.0, 4.0, 4.0, 1.0");

/** The token of a site and a language (the language in hex: FTS5 tokens are letters and digits). */
export function scopeToken(siteId: number, lang: string): string {
  return `s${siteId}l${Buffer.from(lang, "utf8").toString("hex")}`;
}

/** An FTS5 string: in double quotes, a double quote doubled. */
function quoted(word: string): string {
  return `"${word.replaceAll('"', '""')}"`;
}

/** The FTS5 query: a scope of the languages, and every word in the page's own columns, the last as a prefix. */
export function matchExpression(siteId: number, langs: readonly string[], words: readonly string[]): string {
  const terms = words.map((word, at) => (at === words.length - 1 ? `${quoted(word)}*` : quoted(word)));
  const scopes = langs.map((lang) => quoted(scopeToken(siteId, lang))).join(" OR ");
  return `scope : (${scopes}) AND {title summary tags body} : (${terms.join(" AND ")})`;
}

function ids(list: readonly number[]) {
  return sql.join(list.map((id) => sql`${id}`));
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
      await sql`
        insert into page_search (rowid, scope, title, summary, tags, body)
        values (${id}, ${scopeToken(siteId, lang)}, ${text.title}, ${text.summary}, ${text.tags}, ${text.body})
      `.execute(trx);
    }
  },

  async remove(trx, _siteId, list) {
    if (list.length === 0) return;
    await sql`delete from page_search where rowid in (${ids(list)})`.execute(trx);
  },

  async missingOnFrame(trx, siteId, frameId) {
    const { rows } = await sql<{ id: number }>`
      select p.id from pages p
      where p.site_id = ${siteId} and p.frame_id = ${frameId} and p.status = 'publish'
        and not exists (select 1 from page_search s where s.rowid = p.id)
    `.execute(trx);
    return rows.map((row) => row.id);
  },

  async find(db, siteId, langs, words, window) {
    const match = matchExpression(siteId, langs, words);
    const counted = await sql<{ n: number }>`
      select count(*) as n from page_search where page_search match ${match}
    `.execute(db);
    const total = Number(counted.rows[0]?.n ?? 0);
    if (total <= window.offset) return { total, hits: [] };
    const { rows } = await sql<SearchHit>`
      select p.id, p.title, p.lang, p.path, p.date_gmt, s.summary, s.body
      from (
        select rowid, summary, body, bm25(page_search, ${WEIGHTS}) as score
        from page_search where page_search match ${match}
        order by score limit ${window.limit} offset ${window.offset}
      ) s
      join pages p on p.id = s.rowid
      order by s.score, p.id
    `.execute(db);
    return { total, hits: rows };
  },
};

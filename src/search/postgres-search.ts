// The search index on PostgreSQL (docs/search.md): a table (0300_search) with each page's document
// as a `tsvector` made with its language's text-search configuration (`simple` for a language
// PostgreSQL has none for), the title weighted A, the summary and tags B, the text D, and a GIN
// index over it. The text is folded (lower case, no accents) before it is read, as the query's
// words are, since the shipped configurations keep accents. Each word reaches `to_tsquery` as one
// quoted lexeme of letters and digits (query-words.ts), so none is read as an operator. A search
// ranks a bounded set of candidates (ranking.ts): the newest matches (`order by page_id desc`
// with a limit), the title's and the summary's words told by the lexemes' weights.
import { sql, type RawBuilder } from "kysely";
import type { Db } from "../store/database.ts";
import type { SearchBackend, SearchHit } from "./backend.ts";
import { RESULT_CAP, TITLE_CANDIDATES, titled } from "./ranking.ts";
import { foldWord } from "./stop-words.ts";

/** The configurations PostgreSQL ships, by language code. */
const CONFIGS: Record<string, string> = {
  ar: "arabic",
  ca: "catalan",
  da: "danish",
  de: "german",
  el: "greek",
  en: "english",
  es: "spanish",
  eu: "basque",
  fi: "finnish",
  fr: "french",
  ga: "irish",
  hi: "hindi",
  hu: "hungarian",
  hy: "armenian",
  id: "indonesian",
  it: "italian",
  lt: "lithuanian",
  nb: "norwegian",
  ne: "nepali",
  nl: "dutch",
  nn: "norwegian",
  no: "norwegian",
  pt: "portuguese",
  ro: "romanian",
  ru: "russian",
  sr: "serbian",
  sv: "swedish",
  ta: "tamil",
  tr: "turkish",
  yi: "yiddish",
};

/** The text-search configuration of a language (`de-CH` reads `de`); `simple` without one. */
export function configOf(lang: string): string {
  return CONFIGS[lang.toLowerCase().split(/[-_]/)[0] ?? ""] ?? "simple";
}

/**
 * The tsquery text: every word a quoted lexeme, the last a prefix (`'cafe' & 'ber':*`), joined by
 * `&` (every word) or `|` (some word), each limited to a weight (`A` the title, `B` the summary and tags).
 */
export function tsqueryOf(words: readonly string[], join: "&" | "|" = "&", weight: "" | "A" | "B" = ""): string {
  return words
    .map((word, at) => {
      const label = `${at === words.length - 1 ? "*" : ""}${weight}`;
      return `'${word.replaceAll("'", "''")}'${label === "" ? "" : `:${label}`}`;
    })
    .join(` ${join} `);
}

async function pageIds(db: Db, query: RawBuilder<{ id: number }>): Promise<number[]> {
  return (await query.execute(db)).rows.map((row) => Number(row.id));
}

function document(config: string, parts: Record<"A" | "B" | "D", string>) {
  const one = (text: string, weight: string) =>
    sql`setweight(to_tsvector(${config}::regconfig, ${foldWord(text)}), ${weight}::"char")`;
  return sql`${one(parts.A, "A")} || ${one(parts.B, "B")} || ${one(parts.D, "D")}`;
}

export const postgresSearch: SearchBackend = {
  async put(trx, siteId, entries) {
    for (const { id, lang, text } of entries) {
      const doc = document(configOf(lang), { A: text.title, B: `${text.summary} ${text.tags}`, D: text.body });
      await sql`
        insert into page_search (page_id, site_id, lang, title, summary, tags, body, document)
        values (${id}, ${siteId}, ${lang}, ${text.title}, ${text.summary}, ${text.tags}, ${text.body}, ${doc})
        on conflict (page_id) do update set
          site_id = excluded.site_id, lang = excluded.lang, title = excluded.title, summary = excluded.summary,
          tags = excluded.tags, body = excluded.body, document = excluded.document
      `.execute(trx);
    }
  },

  async remove(trx, siteId, list) {
    if (list.length === 0) return;
    const ids = sql.join(list.map((id) => sql`${id}`));
    await sql`delete from page_search where site_id = ${siteId} and page_id in (${ids})`.execute(trx);
  },

  async missingOnFrame(trx, siteId, frameId) {
    const { rows } = await sql<{ id: number }>`
      select p.id from pages p
      where p.site_id = ${siteId} and p.frame_id = ${frameId} and p.status = 'publish'
        and not exists (select 1 from page_search s where s.page_id = p.id)
    `.execute(trx);
    return rows.map((row) => row.id);
  },

  async candidates(db, siteId, langs, words) {
    // Each language's entries read with its own configuration (they were made with it), so the
    // entries without a language shown in the default one are read as `simple`.
    const matching = (text: string) =>
      sql.join(
        langs.map(
          (lang) => sql`(s.lang = ${lang} and s.document @@ to_tsquery(${configOf(lang)}::regconfig, ${text}))`,
        ),
        sql` or `,
      );
    const newest = await pageIds(
      db,
      sql`
        select s.page_id as id from page_search s where s.site_id = ${siteId} and (${matching(tsqueryOf(words))})
        order by s.page_id desc limit ${RESULT_CAP + 1}
      `,
    );
    const none = new Set<number>();
    if (newest.length === 0)
      return { newest, titleAll: none, titleSome: none, meta: none, older: [], titleLength: new Map() };
    const oldest = newest[Math.min(newest.length, RESULT_CAP) - 1]!;
    const titleAll = tsqueryOf(words, "&", "A");
    const { rows } = await sql<{ id: number; title_all: boolean; title_some: boolean; meta: boolean }>`
      select s.page_id as id, (${matching(titleAll)}) as title_all,
        (${matching(tsqueryOf(words, "|", "A"))}) as title_some, (${matching(tsqueryOf(words, "|", "B"))}) as meta
      from page_search s where s.page_id = any(${newest.slice(0, RESULT_CAP)}::integer[])
    `.execute(db);
    const where = (tier: "title_all" | "title_some" | "meta") =>
      new Set(rows.filter((row) => row[tier]).map((row) => row.id));
    const older =
      newest.length > RESULT_CAP
        ? await pageIds(
            db,
            sql`
              select s.page_id as id from page_search s
              where s.site_id = ${siteId} and s.page_id < ${oldest} and (${matching(titleAll)})
              order by s.page_id desc limit ${TITLE_CANDIDATES}
            `,
          )
        : [];
    const found = { newest, titleAll: where("title_all"), titleSome: where("title_some"), meta: where("meta"), older };
    const lengths = await sql<{ id: number; n: number }>`
      select s.page_id as id, char_length(s.title) as n from page_search s
      where s.page_id = any(${titled(found)}::integer[])
    `.execute(db);
    return { ...found, titleLength: new Map(lengths.rows.map((row) => [Number(row.id), Number(row.n)])) };
  },

  async hits(db, list) {
    if (list.length === 0) return [];
    const { rows } = await sql<SearchHit>`
      select p.id, p.title, p.lang, p.path, p.date_gmt, s.summary, s.body
      from page_search s join pages p on p.id = s.page_id
      where s.page_id = any(${[...list]}::integer[])
    `.execute(db);
    return rows;
  },
};

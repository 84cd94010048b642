// A search's candidates on SQLite (ranking.ts; docs/search.md, "Ranking"): every statement walks
// the FTS5 index newest page first (`order by rowid desc`, the rowid being the page's id) and
// stops at its limit, or at the oldest of the newest matches, so none reads more than a bounded
// part of a word's postings. The words are FTS5 strings, so none is read as syntax.
//
// The last word is a prefix. FTS5 reads a prefix of 2 or 3 characters from its prefix indexes as
// it goes, but gathers every posting of every other prefix before the first row: so such a prefix
// is read as the words it stands for (at most MAX_PREFIX_TERMS, listed by the `page_search_terms`
// vocabulary table), which FTS5 walks as it goes; more than that, the prefix itself.
import { RESULT_CAP, TITLE_CANDIDATES, titled, type Candidates } from "./ranking.ts";

/** Runs one statement with its parameters and answers its rows. */
export type RunStatement = (text: string, params: readonly unknown[]) => Promise<Array<Record<string, unknown>>>;

/** Words a last word's prefix is read as at most. */
export const MAX_PREFIX_TERMS = 32;

/** The token of a site and a language (the language in hex: FTS5 tokens are letters and digits). */
export function scopeToken(siteId: number, lang: string): string {
  return `s${siteId}l${Buffer.from(lang, "utf8").toString("hex")}`;
}

/** An FTS5 string: in double quotes, a double quote doubled. */
function quoted(word: string): string {
  return `"${word.replaceAll('"', '""')}"`;
}

/** The FTS5 query of a site's languages holding every word, the last (`last`) as FTS5 reads it. */
function expressions(siteId: number, langs: readonly string[], words: readonly string[], last: string) {
  const terms = [...words.slice(0, -1).map(quoted), last];
  const scope = `scope : (${langs.map((lang) => quoted(scopeToken(siteId, lang))).join(" OR ")})`;
  const all = terms.join(" AND ");
  const some = terms.join(" OR ");
  const match = `${scope} AND {title summary tags body} : (${all})`;
  return {
    match,
    titleAll: `${scope} AND title : (${all})`,
    titleSome: `${match} AND title : (${some})`,
    meta: `${match} AND {summary tags} : (${some})`,
  };
}

/** The FTS5 query: a scope of the languages, and every word in the page's own columns, the last as a prefix. */
export function matchExpression(siteId: number, langs: readonly string[], words: readonly string[]): string {
  return expressions(siteId, langs, words, `${quoted(words.at(-1) ?? "")}*`).match;
}

/** The first string after every string starting with `prefix`. */
function pastPrefix(prefix: string): string {
  const last = prefix.codePointAt(prefix.length - 1) ?? 0;
  return `${prefix.slice(0, prefix.length - (last > 0xffff ? 2 : 1))}${String.fromCodePoint(last + 1)}`;
}

/** The last word as FTS5 reads it best: a prefix it has an index of, or the words it stands for. */
export async function lastTerm(run: RunStatement, word: string): Promise<string> {
  const prefix = `${quoted(word)}*`;
  if (word.length === 2 || word.length === 3) return prefix;
  const rows = await run("select term from page_search_terms where term >= ? and term < ? limit ?", [
    word,
    pastPrefix(word),
    MAX_PREFIX_TERMS + 1,
  ]);
  if (rows.length === 0 || rows.length > MAX_PREFIX_TERMS) return prefix;
  return `(${rows.map((row) => quoted(String(row.term))).join(" OR ")})`;
}

async function ids(run: RunStatement, text: string, params: readonly unknown[]): Promise<number[]> {
  return (await run(text, params)).map((row) => Number(row.rowid));
}

const NEWEST = "select rowid from page_search where page_search match ? order by rowid desc limit ?";
const FROM = "select rowid from page_search where page_search match ? and rowid >= ? order by rowid desc";
const OLDER = "select rowid from page_search where page_search match ? and rowid < ? order by rowid desc limit ?";
const TITLE_LENGTHS = "select rowid, length(title) as n from page_search where rowid in (select value from json_each(?))";

/** The candidates of a search (ranking.ts), each statement bounded. */
export async function sqliteCandidates(
  run: RunStatement,
  siteId: number,
  langs: readonly string[],
  words: readonly string[],
): Promise<Candidates> {
  const match = expressions(siteId, langs, words, await lastTerm(run, words.at(-1) ?? ""));
  const newest = await ids(run, NEWEST, [match.match, RESULT_CAP + 1]);
  const none = new Set<number>();
  if (newest.length === 0)
    return { newest, titleAll: none, titleSome: none, meta: none, older: [], titleLength: new Map() };
  const oldest = newest[Math.min(newest.length, RESULT_CAP) - 1]!;
  const among = async (text: string) => new Set(await ids(run, FROM, [text, oldest]));
  const titleAll = await among(match.titleAll);
  const found = {
    newest,
    titleAll,
    titleSome: words.length > 1 ? await among(match.titleSome) : titleAll,
    meta: await among(match.meta),
    older: newest.length > RESULT_CAP ? await ids(run, OLDER, [match.titleAll, oldest, TITLE_CANDIDATES]) : [],
  };
  const lengths = await run(TITLE_LENGTHS, [JSON.stringify(titled(found))]);
  return { ...found, titleLength: new Map(lengths.map((row) => [Number(row.rowid), Number(row.n)])) };
}

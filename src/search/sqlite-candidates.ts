// A search's candidates on SQLite (ranking.ts; docs/search.md, "Ranking"): each statement walks
// an FTS5 index newest page first (`order by rowid desc`, the rowid being the page's id) and stops
// at its limit, so none reads more than a bounded part of a word's postings: the newest matches;
// among them, those whose title, summary or tags hold a word, from `page_search_heads` (which
// holds those short texts alone, so this walks only their postings), `highlight()` marking the
// words to tell which; and the older pages whose title holds every word, from the same table
// (walking the main index for them would read every posting of a word frequent in texts and rare
// in titles). FTS5's bm25 is not used: it reads every posting of each word to weigh it. The words
// are FTS5 strings, so none is read as syntax.
//
// The last word is a prefix. FTS5 reads a prefix of 2 or 3 characters from its prefix indexes as
// it goes, but gathers every posting of every other prefix before the first row: so such a prefix
// is read as the words it stands for (at most MAX_PREFIX_TERMS, listed by the `page_search_terms`
// vocabulary table), which FTS5 walks as it goes; more than that, the prefix itself.
import { RESULT_CAP, TITLE_CANDIDATES, type Candidates } from "./ranking.ts";
import { foldWord } from "./stop-words.ts";

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
  return {
    match: `${scope} AND {title summary tags body} : (${all})`,
    /**
     * On page_search_heads: a title, summary or tags holding some word (of any site: only the
     * newest matches are kept, so the scope's postings, every page of the site, are not walked);
     * a title holding every word.
     */
    heads: `{title meta} : (${terms.join(" OR ")})`,
    titleAll: `${scope} AND title : (${all})`,
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

/** The marks `highlight()` puts around the words found (characters no page text holds). */
const OPEN = "\u0001";
const CLOSE = "\u0002";
const MARKED = /\u0001([^\u0002]*)\u0002/g;
const TOKEN = /[\p{L}\p{N}\p{M}]+/gu;

/** The newest matches. */
const NEWEST = "select rowid from page_search where page_search match ? order by rowid desc limit ?";
/** From the newest match on, the pages whose title, summary or tags hold a word, the words marked. */
const HEADS = `
  select rowid, highlight(page_search_heads, 1, ?, ?) as title, highlight(page_search_heads, 2, ?, ?) as meta
  from page_search_heads where page_search_heads match ? and rowid >= ? order by rowid desc`;
/** The newest pages older than the newest matches whose title holds every word. */
const OLDER = `
  select rowid, length(title) as n from page_search_heads
  where page_search_heads match ? and rowid < ? order by rowid desc limit ?`;

/** Which of the words a text marked by `highlight()` holds (the last as a prefix). */
export function wordsMarked(text: string, words: readonly string[]): Set<number> {
  const found = new Set<number>();
  if (!text.includes(OPEN)) return found;
  const last = words.length - 1;
  for (const [, span] of text.matchAll(MARKED))
    for (const token of span!.match(TOKEN) ?? []) {
      const word = foldWord(token);
      words.forEach((one, at) => {
        if (word === one || (at === last && word.startsWith(one))) found.add(at);
      });
    }
  return found;
}

/** The candidates of a search (ranking.ts), each statement bounded. */
export async function sqliteCandidates(
  run: RunStatement,
  siteId: number,
  langs: readonly string[],
  words: readonly string[],
): Promise<Candidates> {
  const match = expressions(siteId, langs, words, await lastTerm(run, words.at(-1) ?? ""));
  const newest = (await run(NEWEST, [match.match, RESULT_CAP + 1])).map((row) => Number(row.rowid));
  const titleAll = new Set<number>();
  const titleSome = new Set<number>();
  const meta = new Set<number>();
  const titleLength = new Map<number, number>();
  if (newest.length === 0) return { newest, titleAll, titleSome, meta, older: [], titleLength };
  const window = new Set(newest.slice(0, RESULT_CAP));
  const oldest = newest[window.size - 1];
  for (const row of await run(HEADS, [OPEN, CLOSE, OPEN, CLOSE, match.heads, oldest])) {
    const id = Number(row.rowid);
    if (!window.has(id)) continue;
    const title = String(row.title);
    const inTitle = wordsMarked(title, words).size;
    if (inTitle > 0) {
      titleSome.add(id);
      if (inTitle === words.length) titleAll.add(id);
      titleLength.set(id, [...title.replaceAll(OPEN, "").replaceAll(CLOSE, "")].length);
    }
    if (String(row.meta).includes(OPEN)) meta.add(id);
  }
  const older: number[] = [];
  if (newest.length > RESULT_CAP)
    for (const row of await run(OLDER, [match.titleAll, oldest, TITLE_CANDIDATES])) {
      older.push(Number(row.rowid));
      titleLength.set(Number(row.rowid), Number(row.n));
    }
  return { newest, titleAll, titleSome, meta, older, titleLength };
}

// What each database does of the search index (sqlite-search.ts, postgres-search.ts): the entries
// kept by the page writes, the bounded set of candidates a search ranks (ranking.ts), and the
// texts of the results shown.
import type { Db } from "../store/database.ts";
import type { PageText } from "./page-text.ts";
import type { Candidates } from "./ranking.ts";

/** One page's entry: its id, language and text. */
export interface SearchEntry {
  id: number;
  lang: string;
  text: PageText;
}

/** One page found, with what its result shows. */
export interface SearchHit {
  id: number;
  title: string;
  lang: string;
  path: string;
  date_gmt: string | null;
  summary: string;
  body: string;
}

export interface SearchBackend {
  /** Writes the entries (replacing those of the same pages). */
  put(trx: Db, siteId: number, entries: readonly SearchEntry[]): Promise<void>;
  /** Drops the entries of these pages (none: nothing). */
  remove(trx: Db, siteId: number, ids: readonly number[]): Promise<void>;
  /** Published pages standing on a frame that have no entry (a frame put back under them). */
  missingOnFrame(trx: Db, siteId: number, frameId: string): Promise<number[]>;
  /** The candidates among the pages of a site in these languages holding every word (the last as a prefix). */
  candidates(db: Db, siteId: number, langs: readonly string[], words: readonly string[]): Promise<Candidates>;
  /** The results' pages and texts, in no order. */
  hits(db: Db, ids: readonly number[]): Promise<SearchHit[]>;
}

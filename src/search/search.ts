// A site's search (docs/search.md): the published pages of one language holding every word, best
// first (ranking.ts), ten a page, each with its title, address, snippet and date. At most
// RESULT_CAP results are counted and paged; past it `more` says there are others. A query longer
// than 200 characters or of stop words alone finds nothing without reading the index.
import type { Db } from "../store/database.ts";
import { linkUrl, type SiteAddressing } from "../site/addresses.ts";
import { searchBackend } from "./index-sync.ts";
import { searchWords } from "./query-words.ts";
import { RESULT_CAP, rankCandidates } from "./ranking.ts";
import { snippetOf } from "./snippet.ts";

export const RESULTS_PER_PAGE = 10;
/** Pages past this are not read: RESULT_CAP results at most. */
export const MAX_RESULT_PAGE = RESULT_CAP / RESULTS_PER_PAGE;

export interface SearchResult {
  title: string;
  url: string;
  /** HTML: the text escaped, the words found in `<mark>`. */
  snippet: string;
  /** The page's date (ISO 8601, UTC), or null. */
  date: string | null;
}

export interface SearchAnswer {
  query: string;
  /** The results, counted up to RESULT_CAP. */
  total: number;
  /** Whether more pages match than `total` counts (it is then RESULT_CAP). */
  more: boolean;
  page: number;
  results: SearchResult[];
}

export interface SearchRequest {
  q: string;
  /**
   * The pages' languages: '' on a site without languages; the language asked, and '' too when it
   * is the default one (a page without a language is shown in the default language).
   */
  langs: readonly string[];
  /** The language whose stop words a query drops (the site's language when pages have none). */
  textLang: string;
  page: number;
}

function isoDate(gmt: string | null): string | null {
  return gmt === null ? null : `${gmt.replace(" ", "T")}Z`;
}

export async function searchSite(
  db: Db,
  siteId: number,
  addressing: SiteAddressing,
  request: SearchRequest,
): Promise<SearchAnswer> {
  const page = Math.min(Math.max(1, Math.trunc(request.page) || 1), MAX_RESULT_PAGE);
  const words = searchWords(request.q, request.textLang);
  const empty = { query: request.q, total: 0, more: false, page, results: [] };
  if (words.length === 0) return empty;
  const backend = searchBackend(db);
  const ranked = rankCandidates(await backend.candidates(db, siteId, request.langs, words));
  const shown = ranked.ids.slice((page - 1) * RESULTS_PER_PAGE, page * RESULTS_PER_PAGE);
  const byId = new Map((await backend.hits(db, shown)).map((hit) => [hit.id, hit]));
  const hits = shown.flatMap((id) => byId.get(id) ?? []);
  return {
    query: request.q,
    total: ranked.total,
    more: ranked.more,
    page,
    results: hits.map((hit) => ({
      title: hit.title,
      url: linkUrl(addressing, hit.lang || null, hit.path),
      snippet: snippetOf([hit.summary, hit.body], words),
      date: isoDate(hit.date_gmt),
    })),
  };
}

// The results svc/search prints (docs/search.md, "The search insert"): a page's static copy or
// cached render holds its search block without a query; an answer to `?q=` on that page puts the
// block with the query's results in its place, read from the index on every such request. Such an
// answer has no validator and `Cache-Control: no-store` (nothing keeps a copy per query: every
// write may change it, and what a visitor searched is theirs); the page without `q` is answered
// and kept as any other. The results' texts are the site's strings `t.search.*` in the language
// the block names, read with the results.
import type { PublicFront } from "../config.ts";
import {
  searchBlockHtml,
  searchStrings,
  SEARCH_BLOCK_END,
  SEARCH_BLOCK_START,
  SEARCH_STRINGS,
} from "../markup/index.ts";
import { linkAddressing } from "../pages/home.ts";
import { MAX_RESULT_PAGE, RESULTS_PER_PAGE } from "../search/search.ts";
import type { SiteRow } from "../site/sites.ts";
import type { Db } from "../store/database.ts";
import { stringTexts } from "../strings/queries.ts";
import type { PublicAnswer } from "./public-site.ts";
import { answerSearchWith } from "./search-routes.ts";

/** What a page request asks the search block: `q` (not blank) and the page of results. */
export interface SearchAsked {
  q: string;
  page: string;
}

const START_MARK = Buffer.from('<!--svc/search lang="', "utf8");

/** The search a page request asks, from its query string; null without a `q` holding a word. */
export function searchAsked(url: string): SearchAsked | null {
  const at = url.indexOf("?");
  if (at < 0) return null;
  const params = new URLSearchParams(url.slice(at + 1));
  const q = params.get("q");
  if (q === null || q.trim() === "") return null;
  return { q, page: params.get("page") ?? "" };
}

/** Whether an answer's body prints a search block. */
export function holdsSearch(body: Buffer | string): boolean {
  return typeof body === "string" ? body.includes('<!--svc/search lang="') : body.indexOf(START_MARK) >= 0;
}

/**
 * The answer with its (first) search block showing the results asked; as it was without a block.
 * Called for answers holdsSearch found a block in (public/routes.ts), so it is not looked for twice.
 */
export async function withSearchResults(
  db: Db,
  site: SiteRow,
  front: PublicFront,
  answer: PublicAnswer,
  asked: SearchAsked,
): Promise<PublicAnswer> {
  const html = answer.body.toString();
  const start = SEARCH_BLOCK_START.exec(html);
  const end = start ? html.indexOf(SEARCH_BLOCK_END, start.index) : -1;
  if (!start || end < 0) return answer;
  const lang = start[1] ?? "";
  const addressing = await linkAddressing(db, site, front);
  const [found, texts] = await Promise.all([
    // A site without languages prints its own code there; its pages have none.
    answerSearchWith(db, site, addressing, { q: asked.q, page: asked.page, lang: addressing.langs.active ? lang : "" }),
    stringTexts(db, site.id, Object.keys(SEARCH_STRINGS), lang || null, addressing.langs.defaultLang || null),
  ]);
  const block = searchBlockHtml(
    {
      lang,
      query: asked.q,
      total: found.total,
      more: found.more,
      page: found.page,
      first: (found.page - 1) * RESULTS_PER_PAGE + 1,
      pages: Math.min(Math.ceil(found.total / RESULTS_PER_PAGE), MAX_RESULT_PAGE),
      results: found.results,
    },
    searchStrings(texts),
  );
  const body = `${html.slice(0, start.index)}${block}${html.slice(end + SEARCH_BLOCK_END.length)}`;
  const { etag: _validator, ...headers } = answer.headers;
  return {
    status: answer.status,
    headers: { ...headers, "cache-control": "no-store" },
    body: Buffer.from(body, "utf8"),
  };
}

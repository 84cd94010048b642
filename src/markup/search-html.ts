// What `svc/search` prints (docs/search.md, "The search insert"): a search form (`role="search"`,
// a labelled `type="search"` field named `q`, no `action`: it is sent by GET to the page itself),
// and, on an answer to `?q=`, the results — each title a link, its snippet (already escaped but
// for its `<mark>`s), its date — with links to the other pages of results (`rel="prev"`/`"next"`,
// the page shown `aria-current="page"`) or a line saying nothing was found. Its texts are the
// site's strings `t.search.*`, English without them.
//
// The block stands between two comments, the first naming the language searched: a page's static
// copy or cached render holds the block without a query, and each answer to `?q=` puts the block
// with that query's results in its place (public/search-page.ts), so no copy is ever kept per query.
import { escapeAttr, escapeText } from "./escape.ts";
import { pageNumbers } from "./pagination-html.ts";
import { localeOf } from "./templates.ts";

/** The strings the block prints, by key (`t.search.<name>`), and their English texts. */
export const SEARCH_STRINGS = {
  "search.label": "Search",
  "search.submit": "Search",
  "search.results": "Results for “{query}”",
  "search.count": "{count} results",
  "search.count_one": "1 result",
  "search.count_more": "{count}+ results",
  "search.none": "No results found.",
  "search.pages": "Search results pages",
  "search.previous": "Previous",
  "search.next": "Next",
} as const;
export type SearchStrings = Record<keyof typeof SEARCH_STRINGS, string>;

/** One result as the block prints it. */
export interface SearchResultView {
  title: string;
  url: string;
  /** HTML: escaped text and `<mark>`s. */
  snippet: string;
  /** ISO 8601 (UTC), or null. */
  date: string | null;
}

/** What the block shows: the query (none: the form alone) and one page of its results. */
export interface SearchBlockView {
  lang: string;
  query: string | null;
  total: number;
  /** More pages match than `total` counts (the count stopped there). */
  more: boolean;
  page: number;
  /** The rank of the first result shown (from 1). */
  first: number;
  /** The last page of results there is a link to. */
  pages: number;
  results: readonly SearchResultView[];
}

/** `<!--svc/search lang="de"-->`: the block's start, naming the language searched. */
export const SEARCH_BLOCK_START = /<!--svc\/search lang="([A-Za-z0-9_-]*)"-->/;
export const SEARCH_BLOCK_END = "<!--/svc/search-->";

/** The texts given, each of SEARCH_STRINGS missing (or blank) given its English default. */
export function searchStrings(texts: ReadonlyMap<string, string> | ((key: string) => unknown)): SearchStrings {
  const read = typeof texts === "function" ? texts : (key: string) => texts.get(key);
  const out = { ...SEARCH_STRINGS } as SearchStrings;
  for (const key of Object.keys(SEARCH_STRINGS) as Array<keyof SearchStrings>) {
    const text = read(`t.${key}`) ?? read(key);
    if (typeof text === "string" && text.trim() !== "") out[key] = text;
  }
  return out;
}

function formHtml(strings: SearchStrings, query: string): string {
  return (
    `<form class="svc-search-form" role="search" method="get">` +
    `<label for="svc-search-q">${escapeText(strings["search.label"])}</label> ` +
    `<input type="search" id="svc-search-q" name="q" value="${escapeAttr(query)}" enterkeyhint="search"> ` +
    `<button type="submit">${escapeText(strings["search.submit"])}</button></form>`
  );
}

function dateHtml(iso: string | null, lang: string): string {
  if (iso === null) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const shown = new Intl.DateTimeFormat(localeOf(lang || "en"), { dateStyle: "medium", timeZone: "UTC" }).format(date);
  return ` <time datetime="${escapeAttr(iso)}">${escapeText(shown)}</time>`;
}

function pagesHtml(view: SearchBlockView, strings: SearchStrings): string {
  if (view.pages <= 1) return "";
  const href = (n: number) => escapeAttr(`?${new URLSearchParams({ q: view.query ?? "", page: String(n) })}`);
  const parts = [`<nav class="svc-search-pages" aria-label="${escapeAttr(strings["search.pages"])}">`];
  if (view.page > 1)
    parts.push(`<a rel="prev" href="${href(view.page - 1)}">${escapeText(strings["search.previous"])}</a>`);
  for (const n of pageNumbers(view.page, view.pages)) {
    if (n === 0) parts.push(" <span>…</span>");
    else if (n === view.page) parts.push(` <a href="${href(n)}" aria-current="page">${n}</a>`);
    else parts.push(` <a href="${href(n)}">${n}</a>`);
  }
  if (view.page < view.pages)
    parts.push(` <a rel="next" href="${href(view.page + 1)}">${escapeText(strings["search.next"])}</a>`);
  parts.push("</nav>");
  return parts.join("");
}

function resultsHtml(view: SearchBlockView, strings: SearchStrings, query: string): string {
  const heading = escapeText(strings["search.results"]).replaceAll("{query}", escapeText(query));
  const out = [
    `<section class="svc-search-results" aria-labelledby="svc-search-heading">`,
    `<h2 id="svc-search-heading">${heading}</h2>`,
  ];
  if (view.total === 0) out.push(`<p class="svc-search-none">${escapeText(strings["search.none"])}</p>`);
  else {
    const key = view.more ? "search.count_more" : view.total === 1 ? "search.count_one" : "search.count";
    const count = new Intl.NumberFormat(localeOf(view.lang || "en")).format(view.total);
    out.push(`<p class="svc-search-count">${escapeText(strings[key]).replaceAll("{count}", count)}</p>`);
  }
  if (view.results.length > 0) {
    out.push(`<ol class="svc-search-list"${view.first > 1 ? ` start="${view.first}"` : ""}>`);
    for (const result of view.results)
      out.push(
        `<li><h3><a href="${escapeAttr(result.url)}">${escapeText(result.title)}</a></h3>` +
          `<p>${result.snippet}${dateHtml(result.date, view.lang)}</p></li>`,
      );
    out.push("</ol>");
  }
  out.push(pagesHtml(view, strings), "</section>");
  return out.join("");
}

/** The block, between its comments: the form, and the results when there is a query. */
export function searchBlockHtml(view: SearchBlockView, strings: SearchStrings): string {
  const query = view.query ?? "";
  const results = view.query === null ? "" : resultsHtml(view, strings, query);
  const lang = view.lang.replace(/[^A-Za-z0-9_-]/g, "");
  return `<!--svc/search lang="${lang}"--><div class="svc-search">${formHtml(strings, query)}${results}</div>${SEARCH_BLOCK_END}`;
}

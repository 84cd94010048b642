// Site search on a site's host: GET /_search?q=&lang=&page= (docs/search.md) answers JSON
// `{query, total, more, page, results}` over that site's findable pages in one language (the site's
// default unless `lang` names another of its languages; a language it does not have finds
// nothing). Counted against the public limit like every public request; never cached, since every
// write may change the answer. `q` is read as words only: a query that is too long or of stop
// words alone answers an empty result, never an error.
import type { PublicFront } from "../config.ts";
import type { FastifyInstance } from "fastify";
import { linkAddressing } from "../pages/home.ts";
import { searchSite, type SearchAnswer } from "../search/search.ts";
import { hostOf, type SiteAddressing } from "../site/addresses.ts";
import type { SiteRow } from "../site/sites.ts";
import type { Db } from "../store/database.ts";
import type { PublicSite } from "./public-site.ts";
import { withinPublicLimit, type PublicGate } from "./routes.ts";

export const SEARCH_ROUTE = "/_search";

/** What a search request asks, as the query string gives it (a repeated key: its first value). */
export interface SearchQuery {
  q?: unknown;
  lang?: unknown;
  page?: unknown;
}

function first(value: unknown): string {
  const one = Array.isArray(value) ? value[0] : value;
  return typeof one === "string" ? one : "";
}

/** A site's answer to a search: its language chosen, its links made as its pages print them. */
export async function answerSearch(
  db: Db,
  site: SiteRow,
  front: PublicFront,
  query: SearchQuery,
): Promise<SearchAnswer> {
  return answerSearchWith(db, site, await linkAddressing(db, site, front), query);
}

/** The same, the site's addressing read already. */
export async function answerSearchWith(
  db: Db,
  site: SiteRow,
  addressing: SiteAddressing,
  query: SearchQuery,
): Promise<SearchAnswer> {
  const q = first(query.q);
  const page = Number.parseInt(first(query.page), 10);
  const langs = addressing.langs;
  const asked = first(query.lang);
  // A site that names no language reads English stop words (the language of its interface).
  const textLang = asked || langs.defaultLang || "en";
  if (asked !== "" && (!langs.active || !langs.codes.includes(asked)))
    return { query: q, total: 0, more: false, page: Number.isSafeInteger(page) && page > 0 ? page : 1, results: [] };
  const lang = langs.active ? asked || langs.defaultLang || "" : "";
  // A page without a language is shown in the default one (docs/search.md).
  const pageLangs = lang !== "" && lang === langs.defaultLang ? [lang, ""] : [lang];
  return searchSite(db, site.id, addressing, {
    q,
    langs: pageLangs,
    textLang,
    page: Number.isSafeInteger(page) ? page : 1,
  });
}

export function searchRoutes(app: FastifyInstance, site: PublicSite, gate: PublicGate, front: PublicFront): void {
  app.get(SEARCH_ROUTE, { schema: { hide: true } }, async (request, reply) => {
    if (!(await withinPublicLimit(gate, request, reply))) return reply;
    const host = hostOf(request.host);
    const served = site.directory.peek(host) ?? (await site.directory.resolve(host));
    if (served === undefined) return reply.code(404).send({ error: { code: "not_found" } });
    const answer = await answerSearch(gate.db, served, front, request.query as SearchQuery);
    return reply.code(200).header("cache-control", "no-store").send(answer);
  });
}

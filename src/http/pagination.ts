// Lists that do not grow without bound (docs/lists.md). Every list that can grow past a few
// hundred entries reads `?per_page` and `?page` here, the same way, and answers with the headers
// WordPress's REST API sends: `Link` (`rel="prev"`, `rel="next"`, absolute addresses that keep the
// caller's path and every other query parameter), `X-WP-Total` and `X-WP-TotalPages`.
// The services take the window (`limit`, `offset`) and page in their database query.
// The links start with the configured API address (SVC_API_URL, `apiUrl`), never the request's
// Host or X-Forwarded-Host (docs/security.md, "No answer built from `Host`"): a forged Host would
// otherwise send a client that follows `next`, and its token, to another server, and a shared
// cache would keep that answer for others.
import type { FastifyReply, FastifyRequest } from "fastify";
import { fail } from "../errors.ts";
import { Opt, ServiceChecked, Type } from "./schema.ts";

export const PER_PAGE_DEFAULT = 100;
export const PER_PAGE_MAX = 500;
/** Far past any list; it keeps `offset` an exact integer in both databases. */
export const PAGE_MAX = 1_000_000_000;

/** One page of a list: which page, how long, and the rows it skips and takes. */
export interface Paging {
  page: number;
  perPage: number;
  offset: number;
  limit: number;
}

/** The query parameters of every paged list, for its route schema (and the OpenAPI description). */
export const PagingQuery = {
  // Any value: parsePaging takes decimal digits only, and the validator's conversion of query
  // text to an integer would take 1e3 (as 1), +5, 0x10 or true (measured on TypeBox 0.34).
  per_page: Opt(
    ServiceChecked(
      Type.Integer({ minimum: 1, maximum: PER_PAGE_MAX, default: PER_PAGE_DEFAULT }),
      `items per page: an integer from 1 to ${PER_PAGE_MAX} (default ${PER_PAGE_DEFAULT}); otherwise 400 invalid_parameter`,
    ),
  ),
  page: Opt(
    ServiceChecked(
      Type.Integer({ minimum: 1, default: 1 }),
      "page number from 1 (default 1); past the last page the list is empty; otherwise 400 invalid_parameter",
    ),
  ),
};

const DIGITS = /^[0-9]+$/;

function integerParameter(query: Record<string, unknown>, name: string, fallback: number, max: number): number {
  const raw = query[name];
  if (raw === undefined) return fallback;
  const value = typeof raw === "string" && DIGITS.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= 1 && value <= max)) {
    throw fail(
      "invalid_parameter",
      { parameter: name, value: raw, min: 1, max },
      `${name} must be an integer from 1 to ${max}.`,
    );
  }
  return value;
}

/** `?per_page` and `?page` of a query as the router parsed it (a repeated parameter is an array). Pure. */
export function parsePaging(query: Record<string, unknown> | null | undefined): Paging {
  const q = query ?? {};
  const perPage = integerParameter(q, "per_page", PER_PAGE_DEFAULT, PER_PAGE_MAX);
  const page = integerParameter(q, "page", 1, PAGE_MAX);
  return { page, perPage, offset: (page - 1) * perPage, limit: perPage };
}

export interface PagingHeaders {
  totalPages: number;
  /** The `Link` header, or null on a list that has no other page. */
  link: string | null;
}

/**
 * The headers of one page, for the list at `address` (the request's path and query; `origin`
 * makes the links absolute, as WordPress's are). `prev` of a page past the end is the last page.
 * Pure.
 */
export function pagingHeaders(address: string, origin: string | null, paging: Paging, total: number): PagingHeaders {
  const totalPages = Math.ceil(total / paging.perPage);
  const links: string[] = [];
  const to = (page: number) => {
    // Joined, not resolved: a path that starts with `//` stays a path.
    const url = new URL(`http://list.invalid${address.startsWith("/") ? "" : "/"}${address}`);
    url.searchParams.set("page", String(page));
    return `${origin ?? ""}${url.pathname}${url.search}`;
  };
  if (paging.page > 1) links.push(`<${to(Math.min(paging.page - 1, Math.max(totalPages, 1)))}>; rel="prev"`);
  if (paging.page < totalPages) links.push(`<${to(paging.page + 1)}>; rel="next"`);
  return { totalPages, link: links.length > 0 ? links.join(", ") : null };
}

declare module "fastify" {
  interface FastifyInstance {
    /** Where API clients reach the service (config `apiUrl`, SVC_API_URL); app.ts sets it. */
    apiUrl?: string;
  }
}

/** Sets a paged list's headers on the answer. */
export function sendPaging(request: FastifyRequest, reply: FastifyReply, paging: Paging, total: number): void {
  const { totalPages, link } = pagingHeaders(request.url, request.server.apiUrl ?? null, paging, total);
  reply.header("X-WP-Total", String(total));
  reply.header("X-WP-TotalPages", String(totalPages));
  // After the service-desc link every /api/ answer carries (app.ts), not instead of it.
  const held = reply.getHeader("Link");
  if (link !== null) reply.header("Link", held ? `${String(held)}, ${link}` : link);
}

/**
 * A paged list route's handler body: reads the window from the query, asks `read` for that page
 * (an answer with `total`) and sets the headers. A bad `per_page` or `page` refuses the call
 * before anything is read.
 */
export async function pagedList<T extends { total: number }>(
  request: FastifyRequest & { query: { per_page?: unknown; page?: unknown } },
  reply: FastifyReply,
  read: (paging: Paging) => T | Promise<T>,
): Promise<T> {
  const paging = parsePaging(request.query);
  const answer = await read(paging);
  sendPaging(request, reply, paging, answer.total);
  return answer;
}

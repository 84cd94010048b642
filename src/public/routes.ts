// The public site: every GET that is not an API path answers from PublicSite (`/media/…` first
// tries the site's media files, media-routes.ts, and falls back to the page answer below).
//
// A page already in memory is also answered before Fastify sees the request (`answerFromMemory`,
// wired in app.ts as the server's request listener): the same status, headers and bytes as the
// `/*` route below sends, without routing, hooks and the reply machinery, which cost more than
// the answer itself. Everything else (a page not in memory, another method, an API path,
// /healthz, an address with U+0000, a server shutting down) goes to Fastify as before.
//
// Every public request, from memory or not, is counted against its client address's public limit
// (SVC_PUBLIC_RATE_LIMIT_PER_MIN, http/limits.ts): past it, 429 with Retry-After. A 404 tells why
// (X-Svc-Reason) only to a request carrying a token of an administrator of that site; to anyone
// else a draft, a trashed page and an address that never held a page answer the same bytes.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { fail } from "../errors.ts";
import { clientAddress, requestHost, type ProxyTrust } from "../http/forwarded.ts";
import { presentedToken } from "../http/guard.ts";
import { writeRawAnswer } from "../http/raw-answer.ts";
import type { RequestLines } from "../http/request-line.ts";
import type { Limits, PublicAllowance } from "../http/limits.ts";
import { OverBudget } from "../markup/index.ts";
import { ExecutorUnavailable } from "../publish/executor.ts";
import type { Db } from "../store/database.ts";
import type { PublicAnswer, PublicSite } from "./public-site.ts";
import { hostOf } from "../site/addresses.ts";
import { unavailable } from "./answers.ts";
import { administers, callerByToken } from "../site/callers.ts";
import { holdsSearch, searchAsked, withSearchResults } from "./search-page.ts";

/** What the public routes need besides the site: the limits, and the database to check a token. */
export interface PublicGate {
  db: Db;
  limits: Limits;
}

/** The answer past the public limit: the same from memory and through Fastify. */
export function tooManyPublic(retryAfterSeconds: number): PublicAnswer {
  return {
    status: 429,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "retry-after": String(retryAfterSeconds),
      "cache-control": "no-store",
    },
    body: "<!DOCTYPE html>\n<title>Too many requests</title><h1>Too many requests</h1>\n",
  };
}

/** Whether the request carries a token of an administrator of the site this host serves. */
async function showsReason(
  gate: PublicGate,
  site: PublicSite,
  request: FastifyRequest,
  host: string,
): Promise<boolean> {
  const token = presentedToken(request);
  if (token === null) return false;
  const caller = await callerByToken(gate.db, token);
  if (caller === null) return false;
  if (caller.superAdmin) return true;
  const served = await site.directory.resolve(host);
  return served !== undefined && (await administers(gate.db, caller, served.id));
}

/**
 * Counts a request Fastify routes to the public site (pages, media) against its client address's
 * limit; past it, sends the 429 and answers false.
 */
export async function withinPublicLimit(
  gate: PublicGate,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<boolean> {
  const allowance = await gate.limits.consumePublic(request.ip);
  if (allowance.allowed) return true;
  const refused = tooManyPublic(allowance.retryAfterSeconds);
  reply.code(refused.status).headers(refused.headers).send(refused.body);
  return false;
}

/** Answers a public address with its page, redirect, 404 or 503; the request is counted already. */
export function pageAnswerer(
  site: PublicSite,
  gate: PublicGate,
): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> {
  return async (request, reply) => {
    const ifNoneMatch = request.headers["if-none-match"];
    const host = hostOf(request.host);
    // A search asked of a page printing svc/search: its results are read now, never a validator's 304.
    const asked = searchAsked(request.url);
    try {
      let answer = await site.answer(
        host,
        request.url,
        asked ? undefined : Array.isArray(ifNoneMatch) ? ifNoneMatch.join(",") : ifNoneMatch,
      );
      const served = asked && holdsSearch(answer.body) ? await site.directory.resolve(host) : undefined;
      if (asked && served) answer = await withSearchResults(gate.db, served, site.front, answer, asked);
      const { "x-svc-reason": reason, ...headers } = answer.headers;
      if (reason !== undefined && (await showsReason(gate, site, request, host))) headers["x-svc-reason"] = reason;
      return reply.code(answer.status).headers(headers).send(answer.body);
    } catch (error) {
      // A render that does not answer, or one past its budgets (a write checks its bakes first,
      // so only a page rendering on request with data changed since can): no page, no 500.
      if (error instanceof ExecutorUnavailable || error instanceof OverBudget) {
        const down = unavailable();
        return reply.code(down.status).headers(down.headers).send(down.body);
      }
      throw error;
    }
  };
}

/** The route of every public page; what the request line names for a page answered from memory too. */
export const PAGE_ROUTE = "/*";

export function publicRoutes(app: FastifyInstance, site: PublicSite, gate: PublicGate): void {
  const answerPage = pageAnswerer(site, gate);
  app.get(PAGE_ROUTE, { schema: { hide: true } }, async (request, reply) => {
    if (request.url === "/api" || request.url.startsWith("/api/")) throw fail("route_not_found");
    if (!(await withinPublicLimit(gate, request, reply))) return reply;
    return answerPage(request, reply);
  });
}

export interface FromMemoryOptions {
  /** True once the app is closing: answers then close their connection, which Fastify does. */
  closing: () => boolean;
  /** Fastify's logger, for a failed count. */
  log: FastifyBaseLogger;
  /** The request line of each page answered here (http/request-line.ts). */
  lines: RequestLines;
  /** The public limit, counted here for the requests answered here (in memory: no promise). */
  limits: Limits;
  /** SVC_TRUST_PROXY's trust: the client's address and host as Fastify's `request.ip` and `request.host` give them. */
  trust: ProxyTrust | null;
}

/** Paths Fastify routes elsewhere than `/*`: /healthz, and /api and everything under it. */
function routedElsewhere(url: string): boolean {
  if (url.startsWith("/api")) return true;
  if (!url.startsWith("/healthz")) return false;
  const rest = url.slice("/healthz".length);
  return rest === "" || rest[0] === "?" || rest === "/" || rest.startsWith("/?");
}

/**
 * The raw request listener's first step: answers a GET of a public page held in memory and
 * returns true, or returns false and leaves the request to Fastify.
 */
export function answerFromMemory(
  site: PublicSite,
  options: FromMemoryOptions,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    if (req.method !== "GET") return false;
    const url = req.url ?? "/";
    if (url.charCodeAt(0) !== 47 || routedElsewhere(url) || url.includes("%00") || options.closing()) return false;
    const ifNoneMatch = req.headers["if-none-match"];
    const host = hostOf(requestHost(req, options.trust));
    // A page printing svc/search asked `?q=`: its results are read by the route (search-page.ts).
    const asked = searchAsked(url) !== null;
    const validator = asked ? undefined : Array.isArray(ifNoneMatch) ? ifNoneMatch.join(",") : ifNoneMatch;
    const hit = site.cached(host, url, validator);
    if (!hit || (asked && holdsSearch(hit.body))) return false;
    const started = performance.now();
    // Counted only once answered here: a request left to Fastify is counted by its route.
    const allowance = options.limits.consumePublic(clientAddress(req, options.trust));
    if (allowance instanceof Promise) {
      allowance.then(
        (a) => write(req, res, a, hit, host, started),
        (error) => {
          options.log.error({ err: error }, "public limit");
          write(req, res, { allowed: true, remaining: 0, retryAfterSeconds: 0 }, hit, host, started);
        },
      );
    } else write(req, res, allowance, hit, host, started);
    return true;
  };

  function write(
    req: IncomingMessage,
    res: ServerResponse,
    allowance: PublicAllowance,
    page: PublicAnswer,
    host: string,
    started: number,
  ): void {
    const answer = allowance.allowed ? page : tooManyPublic(allowance.retryAfterSeconds);
    // The host's site is known: `cached` answered from it.
    const siteId = site.directory.peek(host)?.id ?? null;
    writeRawAnswer(req, res, answer, { lines: options.lines, siteId, userId: null, route: PAGE_ROUTE, started });
  }
}

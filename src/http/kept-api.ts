// API reads answered before Fastify sees them, like the public pages held in memory
// (public/routes.ts): a GET under `/api/site/{site_id}/` whose route sent a kept answer
// (sendKeptJson) is kept whole, body and headers, until the database changes (store/kept-reads.ts),
// and the next call for the same address is answered from it on the raw request once the same
// gate has passed: its token's caller and that caller's role on the site, both kept, reach the
// route's least role, and the call is counted against the caller's limit. Anything else (no token,
// a caller or role not kept, a role too low, If-None-Match, a server shutting down) goes to
// Fastify, which answers as always; a call found past its limit goes too, with its count, and is
// refused there. Routing, hooks and the reply machinery cost more than such an answer itself
// (bench/README.md, "API reads").
//
// A kept answer names everything it depends on: the address (path and query) and the database.
// Nothing of the caller is in it (sendKeptJson's answers are built from kept reads alone).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from "fastify";
import type { Db } from "../store/database.ts";
import { keepSince, keptGeneration, keptOnly } from "../store/kept-reads.ts";
import { keptCallerOn } from "../site/callers.ts";
import { reaches, type SiteRole } from "../site/roles.ts";
import { countBefore, presentedToken, rateHeaders } from "./guard.ts";
import type { Limits, RequestAllowance } from "./limits.ts";
import { writeRawAnswer } from "./raw-answer.ts";
import type { RequestLines } from "./request-line.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** Which kept answers were current when an API read began (keptGeneration); null when none are. */
    keptSince: number | null;
    /** Set by sendKeptJson: the answer is built from kept reads alone. */
    answerKept: boolean;
  }
}

interface KeptApiAnswer {
  siteId: number;
  /** The least role of the route (route-groups.ts). */
  least: SiteRole;
  /** The route's pattern, for the request line (request-line.ts). */
  route: string;
  headers: Record<string, string>;
  /** Encoded once: a list of 100 pages is 60 KB to encode on every call otherwise. */
  body: Buffer;
}

const PREFIX = "/api/site/";

/** Headers set for each call, not kept: the request id and the caller's count (guard.ts). */
const PER_CALL = new Set([
  "x-request-id",
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "x-ratelimit-reset",
  "ratelimit-policy",
  "ratelimit",
]);
/** Headers a kept answer may hold; an answer with any other is not kept (what it means is not known here). */
const KEEPABLE = new Set(["content-type", "etag", "link", "x-wp-total", "x-wp-totalpages"]);

const keyOf = (url: string) => `api:${url}`;

/** Whether a call may be kept once answered: an API read of a site by its path. Called on every call. */
export function noteKeptSince(db: Db, request: FastifyRequest): void {
  request.keptSince = request.method === "GET" && request.url.startsWith(PREFIX) ? keptGeneration(db) : null;
}

/** The onSend step: keeps a read's answer when it was built from kept reads and nothing was written since it began. */
export function keepApiAnswer(db: Db, request: FastifyRequest, reply: FastifyReply, payload: unknown): void {
  const since = request.keptSince;
  if (since === null || !request.answerKept || reply.statusCode !== 200 || typeof payload !== "string") return;
  if (request.headers["if-none-match"] !== undefined) return;
  const { config, url: route } = request.routeOptions;
  const least = config?.role;
  if (least === undefined || route === undefined) return;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (PER_CALL.has(name)) continue;
    if (!KEEPABLE.has(name) || value === undefined || Array.isArray(value)) return;
    headers[name] = String(value);
  }
  const answer: KeptApiAnswer = { siteId: request.site.id, least, route, headers, body: Buffer.from(payload) };
  keepSince(db, keyOf(request.url), since, answer, 256 + answer.body.length);
}

export interface KeptApiOptions {
  db: Db;
  limits: Limits;
  /** True once the app is closing: its answers then close their connection (app.ts' onSend). */
  closing: () => boolean;
  log: FastifyBaseLogger;
  lines: RequestLines;
}

/**
 * The raw request listener's step for kept API reads: answers the call, or leaves it to Fastify by
 * calling `toFastify` (at once, or once a count kept elsewhere than in memory is taken) and
 * returning true; false when the call is not one it answers.
 */
export function answerKeptApi(
  options: KeptApiOptions,
): (req: IncomingMessage, res: ServerResponse, toFastify: () => void) => boolean {
  const { db, limits, log, lines } = options;
  return (req, res, toFastify) => {
    const url = req.url;
    if (req.method !== "GET" || url === undefined || !url.startsWith(PREFIX)) return false;
    if (req.headers["if-none-match"] !== undefined || options.closing()) return false;
    const answer = keptOnly<KeptApiAnswer>(db, keyOf(url));
    if (answer === undefined) return false;
    const token = presentedToken(req);
    const who = token === null ? null : keptCallerOn(db, token, answer.siteId);
    if (who === null || !reaches(who.role, answer.least)) return false;
    const started = performance.now();
    const send = (allowance: RequestAllowance) => {
      if (!allowance.allowed) {
        countBefore(req, allowance);
        return toFastify();
      }
      // In the order Fastify's answer has them: the gate's Link, the count, the route's own.
      const { link, ...own } = answer.headers;
      const headers = link === undefined ? {} : { link };
      writeRawAnswer(
        req,
        res,
        { status: 200, headers: Object.assign(headers, rateHeaders(allowance), own), body: answer.body },
        { lines, siteId: answer.siteId, userId: who.caller.userId, route: answer.route, started },
      );
    };
    const allowance = limits.consumeRequest(`user:${who.caller.userId}`);
    if (allowance instanceof Promise)
      allowance.then(send, (error) => {
        log.error({ err: error }, "API limit");
        toFastify();
      });
    else send(allowance);
    return true;
  };
}

// The public site: every GET that is not an API path answers from PublicSite.
//
// A page already in memory is also answered before Fastify sees the request (`answerFromMemory`,
// wired in app.ts as the server's request listener): the same status, headers and bytes as the
// `/*` route below sends, without routing, hooks and the reply machinery, which cost more than
// the answer itself. Everything else (a page not in memory, another method, an API path,
// /healthz, an address with U+0000, a server shutting down) goes to Fastify as before.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { fail } from "../errors.ts";
import { ExecutorUnavailable } from "../publish/executor.ts";
import type { PublicSite } from "./public-site.ts";
import { hostOf } from "../site/addresses.ts";

export function publicRoutes(app: FastifyInstance, site: PublicSite): void {
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.url === "/api" || request.url.startsWith("/api/")) throw fail("route_not_found");
    const ifNoneMatch = request.headers["if-none-match"];
    try {
      const answer = await site.answer(hostOf(request.headers.host), request.url, Array.isArray(ifNoneMatch) ? ifNoneMatch.join(",") : ifNoneMatch);
      return reply.code(answer.status).headers(answer.headers).send(answer.body);
    } catch (error) {
      if (error instanceof ExecutorUnavailable) {
        return reply.code(503).header("retry-after", "5").type("text/html; charset=utf-8").send("<!DOCTYPE html>\n<title>Temporarily unavailable</title><h1>Temporarily unavailable</h1>\n");
      }
      throw error;
    }
  };
  app.get("/*", { schema: { hide: true } }, handler);
}

export interface FromMemoryOptions {
  /** True once the app is closing: answers then close their connection, which Fastify does. */
  closing: () => boolean;
  /** Fastify's logger: with `info` on, the two request lines Fastify writes are written too. */
  log: FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };
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
export function answerFromMemory(site: PublicSite, options: FromMemoryOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    if (req.method !== "GET") return false;
    const url = req.url ?? "/";
    if (url.charCodeAt(0) !== 47 || routedElsewhere(url) || url.includes("%00") || options.closing()) return false;
    const ifNoneMatch = req.headers["if-none-match"];
    const hit = site.cached(hostOf(req.headers.host), url, Array.isArray(ifNoneMatch) ? ifNoneMatch.join(",") : ifNoneMatch);
    if (!hit) return false;
    const started = options.log.isLevelEnabled?.("info") ? performance.now() : 0;
    const id = randomUUID();
    const log = started ? options.log.child({ reqId: id }) : null;
    log?.info({ req: { method: req.method, url, headers: req.headers, host: req.headers.host, ip: req.socket.remoteAddress, socket: req.socket } }, "incoming request");
    // As Fastify writes them: the request id (onRequest hook), the answer's headers, the length
    // (also on a 304, where Node sends no body).
    const body = hit.status === 304 ? "" : hit.body;
    res.writeHead(hit.status, { "x-request-id": id, ...hit.headers, "content-length": String(Buffer.byteLength(body)) });
    res.end(body);
    log?.info({ res: { statusCode: hit.status }, responseTime: performance.now() - started }, "request completed");
    return true;
  };
}

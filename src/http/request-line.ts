// One structured log line for every request, at `info` (docs/foundation.md, "Request ids and
// logs"): who called what, on which site, and how it ended. Fastify's own two lines a request
// ("incoming request", "request completed") are off (`RequestLineLogController`); this one is
// written once the answer is sent, by the app's onResponse hook for what Fastify answered and by
// writeRawAnswer (raw-answer.ts) for what is answered before Fastify, through `RequestLines` both.
//
// No secret is in it (docs/security.md, "No secret in the logs"): its fields are the request's id
// (a UUID, or the caller's own, of letters, digits, `.`, `_` and `-`: request-id.ts), numbers, the
// method and the route's pattern (`/api/site/:site_id/frames/:ref`, `/_preview/:token`), never the
// address as sent; a request no route took logs its path without the query, masked as the
// address of any log line is (log-redaction.ts). So the line goes through a logger that censors
// secret fields at its top only (flatLineLogger), which is all a flat line has.
import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from "fastify";
import { flatLineLogger, loggableUrl } from "./log-redaction.ts";

export interface RequestLine {
  request_id: string;
  /** The site the request addressed; null when none. */
  site_id: number | null;
  /** The caller's user; null when none is known. */
  user_id: number | null;
  /** The route's pattern; for a request no route took, its path without the query, masked. */
  route: string | null;
  method: string;
  status: number;
  duration_ms: number;
}

export interface RequestLines {
  /** Whether lines are written now (`info` on): nothing of a line is built otherwise. */
  on(): boolean;
  write(line: RequestLine): void;
  /** `route` for a request no route took. */
  unrouted(url: string): string;
}

/** The logger methods this needs: pino's and Fastify's, or a logger without levels (tests' `logger: false`). */
type LevelAware = FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };

/** Milliseconds to the microsecond: the line stays short. */
export const durationMs = (since: number) => Math.round((performance.now() - since) * 1000) / 1000;

/**
 * The app's request lines, written by `log` (the app's logger); `tokenPaths` as for the address of
 * any log line (log-redaction.ts, given by app.ts).
 */
export function requestLines(log: FastifyBaseLogger, tokenPaths: readonly string[]): RequestLines {
  const flat = flatLineLogger(log) as LevelAware;
  return {
    on: () => flat.isLevelEnabled?.("info") ?? false,
    write: (line) => flat.info(line, "request"),
    unrouted: (url) => {
      const query = url.indexOf("?");
      return loggableUrl(query < 0 ? url : url.slice(0, query), tokenPaths);
    },
  };
}

/** What the app knows of a request Fastify answered (app.ts). */
export interface RequestFacts {
  /** The site it addressed: the API's site scope, or the site a public host serves. */
  siteOf(request: FastifyRequest): number | null;
  /** Its route's pattern; undefined where no route of its own took it. */
  routeOf(request: FastifyRequest): string | undefined;
}

/** The app's onResponse hook: the line of a request Fastify answered. */
export function logAnswered(lines: RequestLines, facts: RequestFacts) {
  return (request: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    if (lines.on()) lines.write(lineOf(lines, facts, request, reply));
    done();
  };
}

/** The line of a request Fastify answered, also where no hook ran (app.ts, the router's own refusals). */
export function lineOf(
  lines: RequestLines,
  facts: RequestFacts,
  request: FastifyRequest,
  reply: FastifyReply,
): RequestLine {
  return {
    request_id: request.id,
    site_id: facts.siteOf(request),
    user_id: request.caller?.userId ?? null,
    route: facts.routeOf(request) ?? lines.unrouted(request.url),
    method: request.method,
    status: reply.statusCode,
    duration_ms: Math.round(reply.elapsedTime * 1000) / 1000,
  };
}

/**
 * Fastify's own log lines but its two of every request, which the request line replaces (Fastify's
 * `disableRequestLogging` would silence its error lines too: a reply that failed, a stream broken).
 */
export class RequestLineLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
    metadata?: Record<string, unknown>,
  ): void {
    if (error) super.requestCompleted(error, request, reply, metadata);
  }
}

// An answer written on the raw request, before Fastify sees it (public/routes.ts' pages held in
// memory, http/kept-api.ts' kept API reads, app.ts' answer while shutting down): the same status,
// headers and bytes the Fastify route would send, the request's id by the same rule
// (request-id.ts), and the same one request line (request-line.ts).
import type { IncomingMessage, ServerResponse } from "node:http";
import { requestIdOf } from "./request-id.ts";
import { durationMs, type RequestLines } from "./request-line.ts";

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer | string;
}

/**
 * The answer to a request that arrives once the app is closing: Fastify's own (its
 * `return503OnClosing`), byte for byte, answered here so that it carries the request's id and line.
 */
export const SHUTTING_DOWN: RawAnswer = {
  status: 503,
  headers: { "content-type": "application/json", connection: "close" },
  body: '{"error":"Service Unavailable","message":"Service Unavailable","statusCode":503}',
};

/** What the request line says of a raw answer besides its id, method and status. */
export interface RawAnswerLine {
  lines: RequestLines;
  siteId: number | null;
  userId: number | null;
  route: string | null;
  /** performance.now() when the request was taken up. */
  started: number;
}

/**
 * Writes the answer with its headers after the request id (as the app's request hook sets it) and
 * before the length (also on a 304, where Node sends no body), then its request line.
 */
export function writeRawAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  answer: RawAnswer,
  line: RawAnswerLine,
): void {
  const id = requestIdOf(req);
  const sent = answer.status === 304 ? "" : answer.body;
  res.writeHead(answer.status, {
    "x-request-id": id,
    ...answer.headers,
    "content-length": String(Buffer.byteLength(sent)),
  });
  res.end(sent);
  const { lines } = line;
  if (!lines.on()) return;
  lines.write({
    request_id: id,
    site_id: line.siteId,
    user_id: line.userId,
    route: line.route,
    method: req.method ?? "",
    status: answer.status,
    duration_ms: durationMs(line.started),
  });
}

// An answer written on the raw request, before Fastify sees it (public/routes.ts' pages held in
// memory, http/kept-api.ts' kept API reads): the same status, headers and bytes the Fastify route
// would send, and with `info` logging on the same two request lines Fastify writes.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyBaseLogger } from "fastify";

/** Fastify's logger, asked whether `info` is on before a request's lines are built. */
export type RawAnswerLog = FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };

/**
 * Writes `body` with `headers` after the request id (as the app's request hook sets it) and
 * before the length (also on a 304, where Node sends no body).
 */
export function writeRawAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  log: RawAnswerLog,
  status: number,
  headers: Record<string, string>,
  body: Buffer | string,
): void {
  const started = log.isLevelEnabled?.("info") ? performance.now() : 0;
  const id = randomUUID();
  const requestLog = started ? log.child({ reqId: id }) : null;
  requestLog?.info(
    {
      req: {
        method: req.method,
        url: req.url,
        headers: req.headers,
        host: req.headers.host,
        ip: req.socket.remoteAddress,
        socket: req.socket,
      },
    },
    "incoming request",
  );
  const sent = status === 304 ? "" : body;
  res.writeHead(status, { "x-request-id": id, ...headers, "content-length": String(Buffer.byteLength(sent)) });
  res.end(sent);
  requestLog?.info({ res: { statusCode: status }, responseTime: performance.now() - started }, "request completed");
}

// A request's id (docs/foundation.md, "Request ids and logs"): the caller's `X-Request-Id` when it
// is 1 to 128 characters of letters, digits, `.`, `_` and `-`, taken as it is, so a call can be
// followed from a client or a proxy in front of the service through the answer, the log line and
// the events it wrote (`request_id`); anything else (none, empty, longer, another character, the
// header sent twice, which Node joins with ", ") gets a new UUID. The rule holds for every answer: Fastify's
// (its `genReqId`) and those written on the raw request before Fastify (raw-answer.ts).
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";

const SENT_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Where the id is kept on the raw request, so each path that answers it names the same one. */
const ID = Symbol("request id");

type WithId = IncomingMessage & { [ID]?: string };

/** The request's id, made on first asking. */
export function requestIdOf(req: IncomingMessage): string {
  const known = (req as WithId)[ID];
  if (known !== undefined) return known;
  const sent = req.headers["x-request-id"];
  const id = typeof sent === "string" && SENT_ID.test(sent) ? sent : randomUUID();
  (req as WithId)[ID] = id;
  return id;
}

// The JSON body of a kept answer (store/kept-reads.ts), built once. A kept answer is the same
// object for every call until the database changes, so the body shaped from it is the same too;
// serialising a frame's markup and analysis again on every read cost more than the rest of the
// route. Where nothing is kept (PostgreSQL) every call brings a new object and the body is
// built for it alone.
import type { FastifyReply } from "fastify";

const bodies = new WeakMap<object, string>();

/** Sends `shape()` as JSON; `shape` must depend only on `kept` (and on what the key of `kept` names). */
export function sendKeptJson(reply: FastifyReply, kept: object, shape: () => unknown): FastifyReply {
  let body = bodies.get(kept);
  if (body === undefined) {
    body = JSON.stringify(shape());
    bodies.set(kept, body);
  }
  // The whole answer may then be kept and answered before Fastify (kept-api.ts).
  reply.request.answerKept = true;
  return reply.type("application/json; charset=utf-8").send(body);
}

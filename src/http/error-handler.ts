// Turns every failure into one of the two envelopes. Fastify's own body errors become the
// pre-handler envelope; a schema's refusal arrives as an HttpError already (validation.ts);
// anything unexpected is logged with the request id and answers 500 internal_error.
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { ServiceError } from "../errors.ts";
import { HttpError, envelopeOf, fail, fromServiceError, preFail } from "./errors.ts";
import { isDatabaseUnavailable } from "../store/errors.ts";

const FASTIFY_CODES: Record<string, () => HttpError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () => fail("body_too_large"),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => preFail("unsupported_media_type"),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => fail("invalid_body", {}, "The Content-Length does not match the body."),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => fail("invalid_json"),
  FST_ERR_CTP_INVALID_JSON_BODY: () => fail("invalid_json"),
};

export function toHttpError(error: unknown): HttpError | null {
  if (error instanceof HttpError) return error;
  if (error instanceof ServiceError) return fromServiceError(error);
  if (isDatabaseUnavailable(error)) return fail("database_unavailable", {}, undefined, { "Retry-After": "5" });
  const fe = error as FastifyError;
  if (fe && typeof fe === "object") {
    if (fe.code && FASTIFY_CODES[fe.code]) return FASTIFY_CODES[fe.code]();
  }
  return null;
}

export function sendError(reply: FastifyReply, error: HttpError): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply.code(error.status).type("application/json; charset=utf-8").send(envelopeOf(error));
}

export function errorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const known = toHttpError(error);
  if (known) return sendError(reply, known);
  request.log.error({ err: error, reqId: request.id }, "unexpected error");
  return sendError(reply, fail("internal_error", { request_id: request.id }));
}

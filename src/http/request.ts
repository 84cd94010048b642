// Reading a request's parts the same way in every route file.
import type { FastifyRequest } from "fastify";

/** The JSON body as an object (absent: no fields). */
export function bodyOf(request: FastifyRequest): Record<string, unknown> {
  return (request.body ?? {}) as Record<string, unknown>;
}

/**
 * A call without a body means "no fields": the service answers its own code (nothing_to_rebake,
 * page_required, frame_html_required, …) rather than the validator refusing `undefined`.
 */
export async function absentBodyIsEmpty(request: FastifyRequest): Promise<void> {
  if (request.body === undefined || request.body === null) request.body = {};
}

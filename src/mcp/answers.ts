// The answers a tool makes itself, in the REST API's own form: a refusal from the error catalogue
// (src/errors.ts) in the envelope and with the status the API gives it (http/errors.ts), so an
// agent reads every refusal the same way, whether the REST call or the tool refused.
import type { ErrorCode } from "../errors.ts";
import { envelopeOf, fail } from "../http/errors.ts";
import type { RestAnswer } from "./tool.ts";

export function refusal(code: ErrorCode, details: Record<string, unknown> = {}, message?: string): RestAnswer {
  const error = fail(code, details, message);
  return { status: error.status, body: envelopeOf(error), headers: {} };
}

/** Whether a REST answer is a success (2xx). */
export const succeeded = (answer: RestAnswer) => answer.status >= 200 && answer.status < 300;

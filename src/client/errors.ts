// The API's refusals as one error class. The service answers a refusal in one of two envelopes
// (docs/api-reference.md, "Answers"): a handler's `{success: false, error, message, ...details}`
// and one raised before a handler (token, site, body, route) `{code, message, data: {status,
// ...details}}`. ApiError reads both into `code`, `message`, `status` and `details`, so a caller
// prints `frame_cycle: <message>` with `error.line` whatever the envelope.
import type { components } from "./schema.d.ts";

/** `{success: false, error, message, ...details}`: a refusal by a call's handler. */
export type HandlerErrorBody = components["schemas"]["HandlerError"];
/** `{code, message, data: {status, ...details}}`: a refusal before a handler (token, site, body, route). */
export type PreHandlerErrorBody = components["schemas"]["PreHandlerError"];
/** Either envelope: what every 4XX and 5XX answer of the API carries. */
export type ErrorBody = components["schemas"]["ErrorBody"];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export class ApiError extends Error {
  override readonly name = "ApiError";
  /** The API's code (`error` of a handler's envelope, `code` of the other), e.g. `frame_cycle`; `http_<status>` for an answer in neither envelope. */
  readonly code: string;
  /** The HTTP status. */
  readonly status: number;
  /** The envelope's other fields (`field`, `at`, `retry_after`, …). */
  readonly details: Record<string, unknown>;
  /** The answer's body as received (parsed JSON, or text). */
  readonly body: unknown;

  // (No parameter properties: Node's type stripping runs this file as it is.)
  constructor(
    code: string,
    message: string,
    status: number,
    details: Record<string, unknown> = {},
    body: unknown = undefined,
  ) {
    super(message);
    this.code = code;
    this.status = status;
    this.details = details;
    this.body = body;
  }

  /** `code: message`, one line, as the CLI prints a refusal. */
  get line(): string {
    return `${this.code}: ${this.message.replace(/\s*\n\s*/g, " ")}`;
  }

  /** The error of an answer that was not a success: its parsed body (openapi-fetch's `error`) and the Response. */
  static from(body: unknown, response: Pick<Response, "status" | "statusText">): ApiError {
    if (isRecord(body) && body.success === false && typeof body.error === "string") {
      const { success: _success, error, message, ...details } = body;
      return new ApiError(error, typeof message === "string" ? message : error, response.status, details, body);
    }
    if (isRecord(body) && typeof body.code === "string" && typeof body.message === "string") {
      const { status: _status, ...details } = isRecord(body.data) ? body.data : {};
      return new ApiError(body.code, body.message, response.status, details, body);
    }
    const text = typeof body === "string" ? body.trim().slice(0, 200) : "";
    const message = `the service answered ${response.status}${response.statusText ? ` ${response.statusText}` : ""}${text ? `: ${text}` : ""}`;
    return new ApiError(`http_${response.status}`, message, response.status, {}, body);
  }
}

/** What openapi-fetch resolves a call with. */
export interface CallResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * The data of a successful call, or an ApiError thrown for a refusal:
 * `const { frame } = await unwrap(client.site.GET("/frames/{ref}", { params: { path: { ref } } }))`.
 */
export async function unwrap<T>(call: Promise<CallResult<T>> | CallResult<T>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok && response.status !== 304) throw ApiError.from(error, response);
  return data as T;
}

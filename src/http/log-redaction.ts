// What the log may keep of a request (docs/security.md, "No secret in the logs"): no secret, at any
// level. Logs are read by more people than the API's tokens are given to, kept longer and shipped
// elsewhere, so a secret in a log line outlives its revocation there. Two things keep them out:
// - the request serializer masks what the address itself carries: a preview link's token
//   (`/_preview/<token>`, which shows a draft to whoever holds it) and the value of every query
//   parameter named like a secret (`?token=`, `access_token`, `api_key`, `password`, …); the
//   request line (request-line.ts) keeps a route's pattern, or an unrouted path masked the same way;
// - pino's `redact` censors, wherever a log line carries a request's headers or a body, the
//   bearer tokens (Authorization, X-Svc-Key), cookies (Cookie, Set-Cookie), passwords, tokens
//   and secrets (webhook secrets included), at every level.
// Fastify itself logs neither headers nor bodies; `redact` holds for any line that does.
import type { FastifyBaseLogger, FastifyServerOptions } from "fastify";

export const REDACTED = "[redacted]";

/** Query parameter names whose values are secrets (`?keyword=` and `?author=` are not). */
const SECRET_PARAMETER = /token|secret|passw(?:or)?d|credential|key$|^auth(?:orization)?$/i;

/** `name=value` pairs of a query. */
const QUERY_PAIR = /([?&])([^=&#]*)=([^&#]*)/g;

/**
 * A request's address as a log may keep it, pure: the segment after any of `tokenPaths` (paths
 * whose next segment is a secret, `/_preview/`; given by app.ts, since the features that own them
 * sit above this layer) and the values of secret-looking query parameters masked.
 */
export function loggableUrl(url: string, tokenPaths: readonly string[]): string {
  let out = url;
  for (const prefix of tokenPaths) {
    if (!out.startsWith(prefix)) continue;
    const end = out.slice(prefix.length).search(/[/?#]/);
    out = prefix + REDACTED + (end < 0 ? "" : out.slice(prefix.length + end));
  }
  if (!out.includes("=")) return out;
  return out.replace(QUERY_PAIR, (pair, lead: string, name: string) => {
    let decoded = name;
    try {
      decoded = decodeURIComponent(name);
    } catch {
      // A malformed escape: judged as written.
    }
    return SECRET_PARAMETER.test(decoded) ? `${lead}${name}=${REDACTED}` : pair;
  });
}

/** What a `req` log field holds: a Fastify request, or the raw listener's record (public/routes.ts). */
interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  headers?: Record<string, string | string[] | undefined>;
  socket?: { remotePort?: number } | null;
}

/** Header and body fields censored in any log line that carries them, at the top and up to two levels in. */
const SECRET_FIELDS = [
  "authorization",
  "x-svc-key",
  "cookie",
  "set-cookie",
  "x-csrf-token",
  "password",
  "current_password",
  "csrf_token",
  "token",
  "secret",
  "webhook_secret",
];

const REDACT_PATHS = SECRET_FIELDS.flatMap((field) => {
  const key = /^\w+$/.test(field) ? field : `["${field}"]`;
  const at = (parent: string) => (key.startsWith("[") ? `${parent}${key}` : `${parent}.${key}`);
  return [...(key.startsWith("[") ? [] : [key]), at("*"), at("*.*")];
});

/** The same fields at the top of a line only (pino's paths cannot start with a bracket). */
const TOP_LEVEL_PATHS = SECRET_FIELDS.filter((field) => /^\w+$/.test(field));

/**
 * A child of the app's logger for lines whose fields are all at the top and hold no object (the
 * request line, request-line.ts): the secret fields are censored where such a line has them, at
 * its top. The app's own `redact` also looks one and two levels into every line, and pino's
 * wildcard paths cost about 40 µs a line, more than a kept API read takes to answer; a flat
 * line has nothing there to look at.
 */
export function flatLineLogger(log: FastifyBaseLogger): FastifyBaseLogger {
  return log.child({}, { redact: { paths: TOP_LEVEL_PATHS, censor: REDACTED } });
}

/**
 * The logger options the app is built with: the caller's, with a `req` serializer that writes
 * what Fastify's does (method, address, host, client) with the address masked, and `redact`.
 */
export function redactingLogger(
  logger: FastifyServerOptions["logger"],
  tokenPaths: readonly string[],
): FastifyServerOptions["logger"] {
  if (!logger) return false;
  const options = logger === true ? {} : logger;
  const requestForLog = (req: LoggedRequest) => ({
    method: req.method,
    url: req.url === undefined ? undefined : loggableUrl(req.url, tokenPaths),
    version: req.headers?.["accept-version"] as string | undefined,
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket ? req.socket.remotePort : undefined,
  });
  return {
    ...options,
    serializers: { ...options.serializers, req: requestForLog },
    redact: { paths: REDACT_PATHS, censor: REDACTED },
  };
}

// The admin's session cookie (docs/security.md, "Sessions"): the only cookie the admin sets.
// `HttpOnly`, `SameSite=Strict`, `Path=/`, host-only (no Domain); over HTTPS also `Secure`, under
// the `__Host-` prefix, which browsers accept only so. It is read on the admin's host alone
// (SVC_ADMIN_HOST): on every other host, a site's pages included, it is ignored.
import type { FastifyReply, FastifyRequest } from "fastify";
import { parseCookie, stringifySetCookie } from "cookie";
import { hostOf } from "../site/addresses.ts";
import { SESSION_MAX_AGE_MS } from "../site/sessions.ts";

const PLAIN = "svc_session";
const SECURE = "__Host-svc_session";

const overHttps = (request: FastifyRequest) => request.protocol === "https";

/** Whether the call came to the admin's host. */
export function onAdminHost(request: FastifyRequest, adminHost: string): boolean {
  return hostOf(request.host) === adminHost;
}

/** The session secret a call to the admin's host carries, or null (none, or another host). */
export function sessionSecretOf(request: FastifyRequest, adminHost: string): string | null {
  const header = request.headers.cookie;
  if (typeof header !== "string" || !onAdminHost(request, adminHost)) return null;
  const cookies = parseCookie(header);
  return (overHttps(request) ? cookies[SECURE] : cookies[PLAIN]) ?? null;
}

function cookieHeader(request: FastifyRequest, value: string, maxAgeSeconds: number): string {
  const https = overHttps(request);
  return stringifySetCookie({
    name: https ? SECURE : PLAIN,
    value,
    path: "/",
    httpOnly: true,
    sameSite: "strict",
    secure: https,
    maxAge: maxAgeSeconds,
  });
}

/** Sets the cookie of a new session: it lasts as long as the session may. */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, secret: string): void {
  reply.header("Set-Cookie", cookieHeader(request, secret, SESSION_MAX_AGE_MS / 1000));
}

/** The header that clears the cookie: on sign-out, and on any answer to a cookie whose session ended. */
export function clearedSessionCookie(request: FastifyRequest): string {
  return cookieHeader(request, "", 0);
}

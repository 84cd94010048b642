// The gate every /api call passes before its handler, in this order:
// 1. an address locked by failed authentications answers 429, valid token or not;
// 2. the token is read (Authorization: Bearer, or X-Svc-Key) and resolved;
// 3. the request is counted against the caller's limit (its user, whichever of the user's tokens
//    it sends, so minting tokens buys no extra budget; its address without a valid token) and the
//    rate-limit headers are set;
// 4. a missing or bad token answers 401; a bad one counts toward the lockout.
import type { FastifyContextConfig, FastifyReply, FastifyRequest } from "fastify";
import { fail } from "./errors.ts";
import type { Limits, RequestAllowance } from "./limits.ts";
import type { Db } from "../store/database.ts";
import { callerByToken, type Caller } from "../site/callers.ts";

declare module "fastify" {
  interface FastifyRequest {
    caller: Caller | null;
  }
  interface FastifyContextConfig {
    /** `none`: no token needed (login, OpenAPI); default `token`. */
    auth?: "none" | "token";
  }
}

export function presentedToken(request: FastifyRequest): string | null {
  const authorization = request.headers.authorization;
  if (typeof authorization === "string" && authorization.trim() !== "") {
    const match = /^Bearer\s+(.*)$/i.exec(authorization.trim());
    return match ? match[1].trim() : authorization.trim();
  }
  const key = request.headers["x-svc-key"];
  if (typeof key === "string" && key.trim() !== "") return key.trim();
  return null;
}

function setRateHeaders(reply: FastifyReply, allowance: RequestAllowance): void {
  reply.header("X-RateLimit-Limit", String(allowance.limit));
  reply.header("X-RateLimit-Remaining", String(allowance.remaining));
  reply.header("X-RateLimit-Reset", String(allowance.resetSeconds));
  // draft-ietf-httpapi-ratelimit-headers
  reply.header("RateLimit-Policy", `"default";q=${allowance.limit};w=60`);
  reply.header("RateLimit", `"default";r=${allowance.remaining};t=${allowance.resetSeconds}`);
}

/** The gate; `config` is the route's (`request.routeOptions.config`, read once by the caller: Fastify builds it anew on each read). */
export function apiGuard(db: Db, limits: Limits) {
  return async function guard(request: FastifyRequest, reply: FastifyReply, config: FastifyContextConfig | undefined): Promise<void> {
    request.caller = null;
    const address = request.ip;

    const lockout = await limits.lockoutOf(address);
    if (lockout.locked) {
      throw fail("too_many_auth_failures", { retry_after: lockout.retryAfterSeconds }, undefined, {
        "Retry-After": String(lockout.retryAfterSeconds),
      });
    }

    const needsToken = config?.auth !== "none";
    const token = needsToken ? presentedToken(request) : null;
    const caller = token === null ? null : await callerByToken(db, token);

    const allowance = await limits.consumeRequest(caller ? `user:${caller.userId}` : `addr:${address}`);
    setRateHeaders(reply, allowance);
    if (!allowance.allowed) {
      throw fail("too_many_requests", { retry_after: allowance.resetSeconds }, undefined, {
        "Retry-After": String(allowance.resetSeconds),
      });
    }

    if (!needsToken) return;
    if (token === null) throw fail("missing_token");
    if (caller === null) {
      await limits.recordAuthFailure(address);
      throw fail("invalid_token");
    }
    request.caller = caller;
  };
}

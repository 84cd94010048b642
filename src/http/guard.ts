// The gate every /api call passes before its handler, in this order:
// 1. the token is read (Authorization: Bearer, or X-Svc-Key) and resolved;
// 2. a call without a valid token from an address locked by failed authentications answers 429.
//    A valid token is served whatever its address has done (docs/security.md, "Lockout"): the
//    lockout is there to stop guessing, and a caller holding a valid token has nothing left to
//    guess, while refusing it locked out everyone behind the attacker's NAT or /64. So the login
//    route (no token read) is refused from a locked address, and a bad or missing token gets 429
//    there instead of 401;
// 3. the request is counted against the caller's limit (its user, whichever of the user's tokens
//    it sends, so minting tokens buys no extra budget; its address without a valid token) and the
//    rate-limit headers are set;
// 4. a missing or bad token answers 401; a bad one counts toward the lockout;
// 5. a read-only token's write answers 403 read_only_token, before any handler reads its body
//    (docs/security.md, "Read-only tokens"): here, once, so no write route can forget it.
// A call without a token to the admin's host that carries its session cookie takes the same steps
// for the cookie's session instead, and a write must also send its CSRF token (session-gate.ts).
// Password sign-in is also counted per login (`passwordSignIn`, called by the login route).
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type { FastifyContextConfig, FastifyReply, FastifyRequest } from "fastify";
import { fail } from "./errors.ts";
import { isInnerCall } from "./inner-calls.ts";
import type { Limits, Lockout, RequestAllowance } from "./limits.ts";
import { addressGroup } from "./address-group.ts";
import type { ServiceContext } from "../write/context.ts";
import { sessionGate, type SessionGateSteps } from "./session-gate.ts";
import { sessionSecretOf } from "./session-cookie.ts";
import { thenOf, type MaybePromise } from "../store/kept-reads.ts";
import { callerByToken, type Caller } from "../site/callers.ts";

declare module "fastify" {
  interface FastifyRequest {
    caller: Caller | null;
  }
  interface FastifyContextConfig {
    /** `none`: no token needed (login, OpenAPI); default `token`. */
    auth?: "none" | "token";
    /** A POST that writes nothing (a check, a preview, MCP's own route): open to read-only tokens. */
    writesNothing?: true;
  }
}

/** The token a request carries (Authorization: Bearer, or X-Svc-Key), or null. */
export function presentedToken({ headers }: { headers: IncomingHttpHeaders }): string | null {
  const authorization = headers.authorization;
  if (typeof authorization === "string" && authorization.trim() !== "") {
    const match = /^Bearer\s+(.*)$/i.exec(authorization.trim());
    return match ? match[1].trim() : authorization.trim();
  }
  const key = headers["x-svc-key"];
  if (typeof key === "string" && key.trim() !== "") return key.trim();
  return null;
}

/** The headers of a limit that do not change from call to call, made once per limit. */
const policyHeaders = new Map<number, { limit: string; policy: string }>();

/** The rate-limit headers of a counted call (draft-ietf-httpapi-ratelimit-headers). */
export function rateHeaders(allowance: RequestAllowance): Record<string, string> {
  let policy = policyHeaders.get(allowance.limit);
  if (policy === undefined) {
    policy = { limit: String(allowance.limit), policy: `"default";q=${allowance.limit};w=60` };
    policyHeaders.set(allowance.limit, policy);
  }
  return {
    "x-ratelimit-limit": policy.limit,
    "x-ratelimit-remaining": String(allowance.remaining),
    "x-ratelimit-reset": String(allowance.resetSeconds),
    "ratelimit-policy": policy.policy,
    ratelimit: `"default";r=${allowance.remaining};t=${allowance.resetSeconds}`,
  };
}

/**
 * Calls counted before Fastify saw them (kept-api.ts counts a call it then finds past the limit and
 * leaves to Fastify to refuse): the gate takes that count instead of counting the call twice.
 */
const countedBefore = new WeakMap<IncomingMessage, RequestAllowance>();

export function countBefore(req: IncomingMessage, allowance: RequestAllowance): void {
  countedBefore.set(req, allowance);
}

/** What a call inside a counted call is allowed (inner-calls.ts): it is not counted again. */
const UNCOUNTED: RequestAllowance = Object.freeze({ allowed: true, limit: 0, remaining: 0, resetSeconds: 1 });

function consumeOnce(limits: Limits, request: FastifyRequest, key: string): MaybePromise<RequestAllowance> {
  if (isInnerCall()) return UNCOUNTED;
  const before = countedBefore.get(request.raw);
  if (before === undefined) return limits.consumeRequest(key);
  countedBefore.delete(request.raw);
  return before;
}

/** 429 too_many_auth_failures with Retry-After, for a locked address or login. */
function tooManyFailures(lockout: Lockout, message?: string) {
  return fail("too_many_auth_failures", { retry_after: lockout.retryAfterSeconds }, message, {
    "Retry-After": String(lockout.retryAfterSeconds),
  });
}

/**
 * A password sign-in under both lockouts (docs/security.md, "Lockout"): an address locked by failed
 * authentications was refused by the gate already; here the login's own count, from any address, is
 * taken before `check` runs, and past it the answer is 429 too_many_auth_failures with Retry-After,
 * the password unchecked. `check` answers null for a wrong password or an unknown login: 401
 * invalid_credentials, a failure of the address, and the login keeps the attempt it took. Any other
 * outcome gives the attempt back, so only failures count. Every login string is counted and refused
 * alike, so no answer tells whether the login exists; without a login, only the address counts.
 */
export async function passwordSignIn<T>(
  limits: Limits,
  address: string,
  login: string,
  check: () => Promise<T | null>,
): Promise<T> {
  if (login !== "") {
    const lockout = await limits.takeSignIn(login);
    if (lockout.locked)
      throw tooManyFailures(
        lockout,
        "Too many failed sign-ins for this login; wait and retry. Its API tokens keep working.",
      );
  }
  const giveBack = () => (login === "" ? Promise.resolve() : limits.giveBackSignIn(login));
  let result: T | null;
  try {
    result = await check();
  } catch (error) {
    await giveBack();
    throw error;
  }
  if (result === null) {
    await limits.recordAuthFailure(address);
    throw fail("invalid_credentials");
  }
  await giveBack();
  return result;
}

/** Whether the call is a write a read-only caller is refused: every method but GET and HEAD, on a route that writes. */
function refusedReadOnly(request: FastifyRequest, config: FastifyContextConfig | undefined, caller: Caller): boolean {
  if (!caller.readOnly || request.method === "GET" || request.method === "HEAD") return false;
  return config?.writesNothing !== true && !request.is404;
}

/** Sets the rate-limit headers and refuses a caller past its limit. */
function counted(reply: FastifyReply, allowance: RequestAllowance): void {
  if (allowance === UNCOUNTED) return;
  reply.headers(rateHeaders(allowance));
  if (!allowance.allowed) {
    throw fail("too_many_requests", { retry_after: allowance.resetSeconds }, undefined, {
      "Retry-After": String(allowance.resetSeconds),
    });
  }
}

/**
 * The gate; `config` is the route's (`request.routeOptions.config`, read once by the caller:
 * Fastify builds it anew on each read). A caller whose token was resolved before and whose count
 * is kept in memory passes without a promise (kept reads answer at once, store/kept-reads.ts):
 * each promise awaited is a turn of the microtask queue on every call (bench/README.md, "API
 * reads"). Every other call takes the same steps, awaited.
 */
export interface GuardDeps {
  ctx: ServiceContext;
  limits: Limits;
  /** SVC_ADMIN_HOST: where the admin's session cookie signs calls in (session-gate.ts). */
  adminHost: string;
}

export function apiGuard({ ctx, limits, adminHost }: GuardDeps) {
  const db = ctx.db;
  const sessionSteps: SessionGateSteps = {
    ctx,
    limits,
    count: (request, key) => consumeOnce(limits, request, key),
    counted,
    tooManyFailures,
  };
  async function guardAwaiting(
    request: FastifyRequest,
    reply: FastifyReply,
    config: FastifyContextConfig | undefined,
    token: string | null,
    resolving: MaybePromise<Caller | null>,
  ): Promise<void> {
    const needsToken = config?.auth !== "none";
    const address = request.ip;
    const caller = await resolving;
    if (caller === null) {
      const lockout = await limits.lockoutOf(address);
      if (lockout.locked) throw tooManyFailures(lockout);
    }
    counted(
      reply,
      await consumeOnce(limits, request, caller ? `user:${caller.userId}` : `addr:${addressGroup(address)}`),
    );
    if (!needsToken) return;
    if (token === null) throw fail("missing_token");
    if (caller === null) {
      await limits.recordAuthFailure(address);
      throw fail("invalid_token");
    }
    if (refusedReadOnly(request, config, caller)) throw fail("read_only_token");
    request.caller = caller;
  }

  return function guard(
    request: FastifyRequest,
    reply: FastifyReply,
    config: FastifyContextConfig | undefined,
  ): MaybePromise<void> {
    request.caller = null;
    request.session = null;
    const needsToken = config?.auth !== "none";
    const token = needsToken ? presentedToken(request) : null;
    if (token === null && needsToken) {
      const secret = sessionSecretOf(request, adminHost);
      if (secret !== null) return sessionGate(sessionSteps, request, reply, secret);
    }
    const resolving = token === null ? null : callerByToken(db, token);
    if (resolving === null || resolving instanceof Promise)
      return guardAwaiting(request, reply, config, token, resolving);
    const caller = resolving;
    return thenOf(consumeOnce(limits, request, `user:${caller.userId}`), (allowance) => {
      counted(reply, allowance);
      if (needsToken && refusedReadOnly(request, config, caller)) throw fail("read_only_token");
      request.caller = caller;
    });
  };
}

// The gate's step for a call signed in by the admin's session cookie (docs/security.md,
// "Sessions"), taken only on the admin's host and only when the call sends no token (a token wins):
// 1. the cookie's session must be live, else 401 session_expired, and the answer clears the cookie;
//    a secret no session has counts toward the address's lockout, as a bad token does;
// 2. the call is counted against the user's limit, as a token's call is;
// 3. a POST, PUT, PATCH or DELETE must send X-CSRF-Token with the session's csrf_token
//    (GET /api/session), else 403 invalid_csrf_token and nothing is done: another site's page can
//    make the browser send the cookie, never read the token;
// 4. a session whose recorded last use is over a minute old records this one (a write).
import type { FastifyReply, FastifyRequest } from "fastify";
import { fail } from "./errors.ts";
import type { Limits, Lockout, RequestAllowance } from "./limits.ts";
import { clearedSessionCookie } from "./session-cookie.ts";
import { addressGroup } from "./address-group.ts";
import { csrfMatches, csrfTokenOf, isLive, SESSION_SEEN_STEP_MS, sessionBySecret } from "../site/sessions.ts";
import { gmt } from "../clock.ts";
import type { ServiceContext } from "../write/context.ts";
import { runWrite } from "../write/pipeline.ts";
import type { MaybePromise } from "../store/kept-reads.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The session of a call signed in by the admin's cookie; null for any other call. */
    session: { id: number; csrfToken: string } | null;
  }
}

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

export interface SessionGateSteps {
  ctx: ServiceContext;
  limits: Limits;
  /** The count of the call (the gate's, which takes a count made before Fastify). */
  count: (request: FastifyRequest, key: string) => MaybePromise<RequestAllowance>;
  /** Sets the count's headers and refuses a call past the limit. */
  counted: (reply: FastifyReply, allowance: RequestAllowance) => void;
  tooManyFailures: (lockout: Lockout) => Error;
}

export async function sessionGate(
  steps: SessionGateSteps,
  request: FastifyRequest,
  reply: FastifyReply,
  secret: string,
): Promise<void> {
  const { ctx, limits } = steps;
  const session = await sessionBySecret(ctx.db, secret);
  const now = ctx.clock();
  if (session === null) {
    const lockout = await limits.lockoutOf(request.ip);
    if (lockout.locked) throw steps.tooManyFailures(lockout);
  }
  if (session === null || !isLive(session, now)) {
    const key = session === null ? `addr:${addressGroup(request.ip)}` : `user:${session.caller.userId}`;
    steps.counted(reply, await steps.count(request, key));
    if (session === null) await limits.recordAuthFailure(request.ip);
    throw fail("session_expired", {}, undefined, { "Set-Cookie": clearedSessionCookie(request) });
  }
  steps.counted(reply, await steps.count(request, `user:${session.caller.userId}`));
  const csrfToken = csrfTokenOf(secret);
  if (!READS.has(request.method) && !csrfMatches(csrfToken, headerOf(request, "x-csrf-token")))
    throw fail("invalid_csrf_token");
  if (now - session.seenMs >= SESSION_SEEN_STEP_MS) {
    await runWrite(ctx, {
      siteId: null,
      apply: async (trx) => {
        await trx
          .updateTable("sessions")
          .set({ seen_at_gmt: gmt(now) })
          .where("id", "=", session.id)
          .execute();
        return { value: null, wrote: [{ kind: "session", id: String(session.id), action: "updated" }] };
      },
    });
  }
  request.caller = session.caller;
  request.session = { id: session.id, csrfToken };
}

function headerOf(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === "string" ? value : undefined;
}

// The admin's sign-in sessions (docs/security.md, "Sessions"): started by a password sign-in on the
// admin's host, ended by signing out, by 12 hours idle or 7 days of age (site/sessions.ts), and by
// a password change, which ends every other session of that user. A user's password is changed
// here too: by the user, who also sends the current one, or by a super-administrator.
import { gmt } from "../clock.ts";
import { fail } from "../errors.ts";
import type { Caller } from "../site/callers.ts";
import { hashSessionSecret, newSessionSecret, SESSION_IDLE_MS, SESSION_MAX_AGE_MS } from "../site/sessions.ts";
import type { Db } from "../store/database.ts";
import type { Written } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { runWrite } from "../write/pipeline.ts";
import { optionalString } from "./input.ts";
import { hashPassword } from "./passwords.ts";
import { existingUser, requireSelfOrSuperAdmin, userIdOf, userRecord, type UserRecord } from "./users-service.ts";

const sessionWritten = (id: number, action: Written["action"]): Written => ({
  kind: "session",
  id: String(id),
  action,
});

/** The user's sessions that have ended by age or idleness: removed when the user signs in again. */
function endedSessionsOf(trx: Db, userId: number, now: number) {
  return trx
    .deleteFrom("sessions")
    .where("user_id", "=", userId)
    .where((where) =>
      where.or([
        where("created_at_gmt", "<=", gmt(now - SESSION_MAX_AGE_MS)),
        where("seen_at_gmt", "<=", gmt(now - SESSION_IDLE_MS)),
      ]),
    )
    .returning("id");
}

/** A new session of the user; answers the cookie's secret (only its hash is stored). */
export async function startSession(ctx: ServiceContext, userId: number): Promise<string> {
  const secret = newSessionSecret();
  const now = ctx.clock();
  await runWrite(ctx, {
    siteId: null,
    apply: async (trx) => {
      const ended = await endedSessionsOf(trx, userId, now).execute();
      const row = await trx
        .insertInto("sessions")
        .values({ user_id: userId, hash: hashSessionSecret(secret), created_at_gmt: gmt(now), seen_at_gmt: gmt(now) })
        .returning("id")
        .executeTakeFirstOrThrow();
      const wrote = ended.map((old) => sessionWritten(old.id, "deleted"));
      return { value: null, wrote: [...wrote, sessionWritten(row.id, "created")] };
    },
  });
  return secret;
}

/** Signing out: the session ends; its cookie answers 401 session_expired from then on. */
export async function endSession(ctx: ServiceContext, sessionId: number): Promise<void> {
  await runWrite(ctx, {
    siteId: null,
    apply: async (trx) => {
      await trx.deleteFrom("sessions").where("id", "=", sessionId).execute();
      return { value: null, wrote: [sessionWritten(sessionId, "deleted")] };
    },
  });
}

/**
 * PATCH /api/users/{id} `password`: sets a user's password and ends every session of that user
 * but the caller's own. The caller is the user, whose current password `checkCurrent` checks once
 * the call is known to be allowed, or a super-administrator, who needs none. Login tokens and API
 * tokens stay: they are revoked on their own.
 */
export async function setPassword(
  ctx: ServiceContext,
  caller: Caller,
  ref: string,
  body: Record<string, unknown>,
  checkCurrent: (current: string) => Promise<unknown>,
): Promise<UserRecord> {
  const userId = userIdOf(ref, caller);
  requireSelfOrSuperAdmin(caller, userId);
  await existingUser(ctx, userId);
  const password = optionalString(body.password, "password", 1000);
  if (password === undefined) throw fail("invalid_field", { field: "password" }, "Send the new password.");
  if (password.length < 8) throw fail("weak_password", { min_length: 8 });
  if (!caller.superAdmin) await checkCurrent(optionalString(body.current_password, "current_password", 1000) ?? "");
  const passwordHash = await hashPassword(password);
  const done = await runWrite(ctx, {
    siteId: null,
    apply: async (trx) => {
      const row = await trx
        .updateTable("users")
        .set({ password_hash: passwordHash })
        .where("id", "=", userId)
        .returningAll()
        .executeTakeFirst();
      if (!row) throw fail("user_not_found");
      let others = trx.deleteFrom("sessions").where("user_id", "=", userId);
      if (caller.sessionId !== null) others = others.where("id", "!=", caller.sessionId);
      const ended = await others.returning("id").execute();
      const wrote: Written[] = [{ kind: "user", id: String(userId), action: "updated" }];
      return { value: row, wrote: [...wrote, ...ended.map((old) => sessionWritten(old.id, "deleted"))] };
    },
  });
  return userRecord(done.value);
}

// Sign-in sessions of the admin (docs/security.md, "Sessions"): who a session cookie names, and
// whether that session is still live. The cookie holds a random secret; only its SHA-256 is stored,
// and the CSRF token a session's writes carry is derived from the secret, so nothing else is kept.
//
// A live session is kept until the database changes, as a token's caller is (callers.ts): ending a
// session, changing a password or removing a user is a write, so it takes effect on the next call.
// Its age and idle time are checked on every call against the clock.
import { hash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Db } from "../store/database.ts";
import { keptUntilWrite, type KeepOptions, type MaybePromise } from "../store/kept-reads.ts";
import type { Caller } from "./callers.ts";

/** A session ends after this long without a call. */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
/** A session ends this long after its sign-in, however busy. */
export const SESSION_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/**
 * How stale a session's last-use time may be before a call records it again: a write, so not on
 * every call. The idle time is counted from the recorded time, so a session ends at most this much
 * earlier than 12 hours after its last call, never later.
 */
export const SESSION_SEEN_STEP_MS = 60 * 1000;

const SECRET = /^[A-Za-z0-9_-]{43}$/;

/** A fresh cookie secret: 32 random bytes. */
export function newSessionSecret(): string {
  return randomBytes(32).toString("base64url");
}

export function hashSessionSecret(secret: string): string {
  return hash("sha256", secret, "hex");
}

/** The CSRF token of a session: derived from its secret, which only the cookie and the server hold. */
export function csrfTokenOf(secret: string): string {
  return hash("sha256", `csrf:${secret}`, "base64url");
}

/** Whether `sent` is the session's CSRF token `csrfToken`, compared in constant time. */
export function csrfMatches(csrfToken: string, sent: string | undefined): boolean {
  if (sent === undefined) return false;
  const expected = Buffer.from(csrfToken);
  const given = Buffer.from(sent);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export interface Session {
  id: number;
  caller: Caller;
  createdMs: number;
  seenMs: number;
}

const KEEP_SESSION: KeepOptions<Session | null> = { keep: (session) => session !== null };

/** The session a cookie's secret names, live or not; null for none. Kept until the database changes. */
export function sessionBySecret(db: Db, secret: string): MaybePromise<Session | null> {
  if (!SECRET.test(secret)) return null;
  const hashed = hashSessionSecret(secret);
  return keptUntilWrite(db, `session:${hashed}`, () => readSession(db, { hashed }), KEEP_SESSION);
}

/** Session `id` as the database holds it now, live or not; null once it has ended (events/stream-hub.ts). */
export function sessionById(db: Db, id: number): Promise<Session | null> {
  return readSession(db, { id });
}

async function readSession(db: Db, by: { hashed: string } | { id: number }): Promise<Session | null> {
  const query = db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .select([
      "sessions.id",
      "sessions.hash",
      "sessions.created_at_gmt",
      "sessions.seen_at_gmt",
      "users.id as user_id",
      "users.login",
      "users.super_admin",
    ]);
  const row = await ("id" in by
    ? query.where("sessions.id", "=", by.id)
    : query.where("sessions.hash", "=", by.hashed)
  ).executeTakeFirst();
  if (!row) return null;
  if ("hashed" in by && !timingSafeEqual(Buffer.from(row.hash, "hex"), Buffer.from(by.hashed, "hex"))) return null;
  return Object.freeze({
    id: row.id,
    caller: Object.freeze({
      userId: row.user_id,
      login: row.login,
      superAdmin: row.super_admin === 1,
      tokenId: null,
      sessionId: row.id,
      readOnly: false,
    }),
    createdMs: msOf(row.created_at_gmt),
    seenMs: msOf(row.seen_at_gmt),
  });
}

const msOf = (gmt: string) => Date.parse(`${gmt.replace(" ", "T")}Z`);

/** Whether a session is live at `now`: used within 12 hours, and signed in within 7 days. */
export function isLive(session: Session, now: number): boolean {
  return now - session.seenMs < SESSION_IDLE_MS && now - session.createdMs < SESSION_MAX_AGE_MS;
}

// Who is calling: a token resolved to its user. Tokens are looked up by their SHA-256 hash
// and the stored hash is compared again in constant time, so no timing tells how much of a
// guessed hash matched.
//
// Every API call needs this, so a resolved caller is kept until the database changes
// (store/kept-reads.ts): revoking or reissuing a token is a write, so a revoked token is refused
// from the next call on. On PostgreSQL every call reads the database.
import { timingSafeEqual } from "node:crypto";
import type { Db } from "../store/database.ts";
import { keptOnly, keptUntilWrite, thenOf, type KeepOptions, type MaybePromise } from "../store/kept-reads.ts";
import { hashToken, isWellFormedToken } from "../tokens.ts";
import { siteRoleFrom, type SiteRole } from "./roles.ts";

export interface Caller {
  userId: number;
  login: string;
  superAdmin: boolean;
  /** The token the call sent, or null for a call signed in by the admin's session cookie. */
  tokenId: number | null;
  /** The session of a call signed in by the admin's session cookie (site/sessions.ts), else null. */
  sessionId: number | null;
  /** A read-only token's call: refused every write (http/guard.ts; docs/security.md, "Read-only tokens"). */
  readOnly: boolean;
}

export function callerByToken(db: Db, token: string): MaybePromise<Caller | null> {
  if (!isWellFormedToken(token)) return null;
  const hash = hashToken(token);
  return keptUntilWrite(db, callerKey(hash), () => readCaller(db, { hash }), KEEP_CALLER);
}

/** The caller of token `id` as the database holds it now; null once the token is revoked (events/stream-hub.ts). */
export function callerByTokenId(db: Db, id: number): Promise<Caller | null> {
  return readCaller(db, { id });
}

const callerKey = (hash: string) => `caller:${hash}`;
const membershipKey = (userId: number, siteId: number) => `role:${userId}:${siteId}`;

/**
 * The caller of `token` and their role on `siteId` when both are kept (store/kept-reads.ts), else
 * null: never reads, so a caller of it that finds nothing leaves the call to the path that reads.
 */
export function keptCallerOn(db: Db, token: string, siteId: number): { caller: Caller; role: SiteRole } | null {
  if (!isWellFormedToken(token)) return null;
  const caller = keptOnly<Caller | null>(db, callerKey(hashToken(token)));
  if (!caller) return null;
  if (caller.superAdmin) return { caller, role: "administrator" };
  const role = siteRoleFrom(keptOnly<string | null>(db, membershipKey(caller.userId, siteId)) ?? null);
  return role === null ? null : { caller, role };
}

/** Unknown tokens are not kept: a stream of guesses must not push the callers out. Made once (see frames/read-service.ts). */
const KEEP_CALLER: KeepOptions<Caller | null> = { keep: (caller) => caller !== null };

async function readCaller(db: Db, by: { hash: string } | { id: number }): Promise<Caller | null> {
  const query = db
    .selectFrom("tokens")
    .innerJoin("users", "users.id", "tokens.user_id")
    .select([
      "tokens.id as token_id",
      "tokens.hash",
      "users.id as user_id",
      "users.login",
      "users.super_admin",
      "tokens.read_only",
    ]);
  const row = await ("id" in by
    ? query.where("tokens.id", "=", by.id)
    : query.where("tokens.hash", "=", by.hash)
  ).executeTakeFirst();
  if (!row) return null;
  if ("hash" in by && !timingSafeEqual(Buffer.from(row.hash, "hex"), Buffer.from(by.hash, "hex"))) return null;
  return Object.freeze({
    userId: row.user_id,
    login: row.login,
    superAdmin: row.super_admin === 1,
    tokenId: row.token_id,
    sessionId: null,
    readOnly: row.read_only === 1,
  });
}

/** The caller's role on a site, or null. A super-administrator administers every site. */
export function roleOn(db: Db, caller: Caller, siteId: number): MaybePromise<string | null> {
  const membership = keptUntilWrite(db, membershipKey(caller.userId, siteId), async () => {
    const row = await db
      .selectFrom("memberships")
      .select("role")
      .where("site_id", "=", siteId)
      .where("user_id", "=", caller.userId)
      .executeTakeFirst();
    return row?.role ?? null;
  });
  return thenOf(membership, (role) => role ?? (caller.superAdmin ? "administrator" : null));
}

export function administers(db: Db, caller: Caller, siteId: number): MaybePromise<boolean> {
  if (caller.superAdmin) return true;
  return thenOf(roleOn(db, caller, siteId), (role) => role === "administrator");
}

/**
 * The role the caller acts with on a site, or null when it has none: a super-administrator is an
 * administrator of every site, at once; anyone else holds the role of their membership. Answers at
 * once, not in a promise, when the membership is kept (store/kept-reads.ts).
 */
export function siteRoleOf(db: Db, caller: Caller, siteId: number): MaybePromise<SiteRole | null> {
  if (caller.superAdmin) return "administrator";
  return thenOf(roleOn(db, caller, siteId), siteRoleFrom);
}

/**
 * The highest role the caller holds on any site, or null for none: what a list of calls offered
 * across sites (MCP's tools, docs/mcp.md) is filtered by. Each call is still checked on its site.
 */
export async function highestRoleOf(db: Db, caller: Caller): Promise<SiteRole | null> {
  if (caller.superAdmin) return "administrator";
  const rows = await db.selectFrom("memberships").select("role").where("user_id", "=", caller.userId).execute();
  const roles = rows.map((row) => siteRoleFrom(row.role));
  return roles.includes("administrator") ? "administrator" : roles.includes("editor") ? "editor" : null;
}

// Who is calling: a token resolved to its user. Tokens are looked up by their SHA-256 hash
// and the stored hash is compared again in constant time, so no timing tells how much of a
// guessed hash matched.
//
// Every API call needs this, so on SQLite (one service process) a resolved caller is kept for
// one second by its token's hash. A revoked or reissued token is never let through: the token
// service calls `forgetCallers` once its write is done, which drops them all, and a lookup that
// was under way meanwhile does not keep its answer. Unknown and bad tokens are never kept. On
// PostgreSQL another process may revoke a token, so every call reads the database there.
import { timingSafeEqual } from "node:crypto";
import { SqliteAdapter } from "kysely";
import type { Db } from "../store/database.ts";
import { hashToken, isWellFormedToken } from "./token-format.ts";

export interface Caller {
  userId: number;
  login: string;
  superAdmin: boolean;
  tokenId: number;
}

export const CALLER_TTL_MS = 1_000;

interface KeptCallers {
  generation: number;
  byHash: Map<string, { caller: Caller; until: number }>;
}

const kept = new WeakMap<Db, KeptCallers>();

function keptFor(db: Db): KeptCallers | null {
  if (db.isTransaction || !(db.getExecutor().adapter instanceof SqliteAdapter)) return null;
  let entry = kept.get(db);
  if (!entry) kept.set(db, (entry = { generation: 0, byHash: new Map() }));
  return entry;
}

/** After a token was revoked or reissued (or a user's rights changed): no kept caller is used again. */
export function forgetCallers(db: Db): void {
  const entry = kept.get(db);
  if (!entry) return;
  entry.generation++;
  entry.byHash.clear();
}

export async function callerByToken(db: Db, token: string): Promise<Caller | null> {
  if (!isWellFormedToken(token)) return null;
  const hash = hashToken(token);
  const cache = keptFor(db);
  if (cache) {
    const hit = cache.byHash.get(hash);
    if (hit && hit.until > performance.now()) return hit.caller;
    const generation = cache.generation;
    const caller = await readCaller(db, hash);
    if (caller && cache.generation === generation) {
      if (cache.byHash.size >= 10_000) cache.byHash.clear();
      cache.byHash.set(hash, { caller: Object.freeze(caller), until: performance.now() + CALLER_TTL_MS });
    }
    return caller;
  }
  return readCaller(db, hash);
}

async function readCaller(db: Db, hash: string): Promise<Caller | null> {
  const row = await db
    .selectFrom("tokens")
    .innerJoin("users", "users.id", "tokens.user_id")
    .select(["tokens.id as token_id", "tokens.hash", "users.id as user_id", "users.login", "users.super_admin"])
    .where("tokens.hash", "=", hash)
    .executeTakeFirst();
  if (!row) return null;
  if (!timingSafeEqual(Buffer.from(row.hash, "hex"), Buffer.from(hash, "hex"))) return null;
  return { userId: row.user_id, login: row.login, superAdmin: row.super_admin === 1, tokenId: row.token_id };
}

/** The caller's role on a site, or null. A super-administrator administers every site. */
export async function roleOn(db: Db, caller: Caller, siteId: number): Promise<string | null> {
  const row = await db
    .selectFrom("memberships")
    .select("role")
    .where("site_id", "=", siteId)
    .where("user_id", "=", caller.userId)
    .executeTakeFirst();
  if (row) return row.role;
  return caller.superAdmin ? "administrator" : null;
}

export async function administers(db: Db, caller: Caller, siteId: number): Promise<boolean> {
  if (caller.superAdmin) return true;
  return (await roleOn(db, caller, siteId)) === "administrator";
}

// API tokens: issued, listed, revoked and reissued, and login by password (docs/foundation.md).
// The secret is shown once, in the answer that creates it; only its SHA-256 is stored.
// A user holds at most TOKENS_PER_USER live tokens (docs/security.md): minting past it
// is 409 token_limit_reached; a reissue keeps its place, a revoke frees one. The count and the
// insert share one write (write/pipeline.ts), which first locks the user's row on PostgreSQL
// (SQLite runs one transaction at a time), so two mints at once never both take the last place.
import { gmt } from "../clock.ts";
import { fail } from "../errors.ts";
import { isPostgres, type Db } from "../store/database.ts";
import { listWindow, type ListWindow } from "../store/lists.ts";
import type { Caller } from "../site/callers.ts";
import type { Written, WrittenAction } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { runWrite } from "../write/pipeline.ts";
import { optionalString } from "./input.ts";
import { DUMMY_HASH, verifyPassword } from "./passwords.ts";
import { generateToken, hashToken } from "../tokens.ts";
import {
  existingUser,
  requireSelfOrSuperAdmin,
  userIdOf,
  userRecord,
  type UserRecord,
  type UserRow,
} from "./users-service.ts";

export interface IssuedToken {
  token_id: number;
  token: string;
}

/** The most live tokens one user may hold, as GitHub caps fine-grained personal tokens. */
export const TOKENS_PER_USER = 50;

/** The label of the tokens login makes; at the cap, login replaces the oldest of them. */
const LOGIN_LABEL = "login";

/**
 * Stores a token for a user, uncapped: for the first start and SVC_ADMIN_TOKEN (the operator's
 * token is always taken). `secret` is given only when the operator chose it.
 */
export async function storeToken(
  db: Db,
  now: number,
  userId: number,
  label: string | null,
  secret = generateToken(),
  readOnly = false,
): Promise<IssuedToken> {
  const at = gmt(now);
  const row = await db
    .insertInto("tokens")
    .values({
      user_id: userId,
      label,
      hash: hashToken(secret),
      created_at_gmt: at,
      last_issued_at_gmt: at,
      read_only: readOnly ? 1 : 0,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { token_id: row.id, token: secret };
}

async function tokenOwnedBy(ctx: ServiceContext, userId: number, tokenRef: string) {
  const id = /^[1-9]\d{0,9}$/.test(tokenRef) ? Number(tokenRef) : 0;
  const row = await ctx.db
    .selectFrom("tokens")
    .select(["id", "label"])
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row) throw fail("token_not_found");
  return row;
}

function tokenWritten(id: number, action: WrittenAction): Written {
  return { kind: "token", id: String(id), action };
}

/** Inside a transaction: locks the user's row until it ends (PostgreSQL), or answers user_not_found. */
async function lockUser(trx: Db, userId: number): Promise<void> {
  const query = trx.selectFrom("users").select("id").where("id", "=", userId);
  const row = await (isPostgres(trx) ? query.forUpdate() : query).executeTakeFirst();
  if (!row) throw fail("user_not_found");
}

async function liveTokens(trx: Db, userId: number): Promise<number> {
  const row = await trx
    .selectFrom("tokens")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Mints a token within the cap, in one transaction with the count. At the cap a mint is refused
 * with 409 token_limit_reached, except a login (`rotate`), which first revokes the user's oldest
 * login token, the way GitHub replaces the oldest OAuth token of a user past its limit; with no
 * login token to replace, a login is refused too.
 */
async function mintToken(
  ctx: ServiceContext,
  userId: number,
  label: string | null,
  { rotate = false, readOnly = false }: { rotate?: boolean; readOnly?: boolean } = {},
): Promise<IssuedToken> {
  // A user's tokens belong to no site.
  const done = await runWrite(ctx, {
    siteId: null,
    apply: async (trx) => {
      await lockUser(trx, userId);
      const used = await liveTokens(trx, userId);
      const wrote: Written[] = [];
      if (used >= TOKENS_PER_USER) {
        // A user past the cap (tokens made before it existed) sheds as many as it takes.
        const excess = used - TOKENS_PER_USER + 1;
        const oldest = rotate
          ? await trx
              .selectFrom("tokens")
              .select("id")
              .where("user_id", "=", userId)
              .where("label", "=", LOGIN_LABEL)
              .orderBy("id")
              .limit(excess)
              .execute()
          : [];
        if (oldest.length < excess) throw fail("token_limit_reached", { limit: TOKENS_PER_USER, used });
        await trx
          .deleteFrom("tokens")
          .where(
            "id",
            "in",
            oldest.map((row) => row.id),
          )
          .execute();
        wrote.push(...oldest.map((row) => tokenWritten(row.id, "deleted")));
      }
      const issued = await storeToken(trx, ctx.clock(), userId, label, generateToken(), readOnly);
      return { value: issued, wrote: [...wrote, tokenWritten(issued.token_id, "created")] };
    },
  });
  return done.value;
}

export async function issueToken(
  ctx: ServiceContext,
  caller: Caller,
  userRef: string,
  body: Record<string, unknown>,
): Promise<IssuedToken> {
  const userId = userIdOf(userRef, caller);
  requireSelfOrSuperAdmin(caller, userId);
  const label = optionalString(body.label, "label", 200)?.trim() || null;
  return mintToken(ctx, userId, label, { readOnly: body.read_only === true });
}

/** GET /api/users/{id}/tokens: one page of a user's tokens, by id (at most TOKENS_PER_USER). */
export async function listTokens(ctx: ServiceContext, caller: Caller, userRef: string, window: ListWindow) {
  const userId = userIdOf(userRef, caller);
  requireSelfOrSuperAdmin(caller, userId);
  await existingUser(ctx, userId);
  const { total, rows } = await listWindow(
    ctx.db
      .selectFrom("tokens")
      .select(["id", "label", "created_at_gmt", "last_issued_at_gmt", "read_only"])
      .where("user_id", "=", userId)
      .orderBy("id"),
    window,
  );
  return {
    total,
    tokens: rows.map((row) => ({
      token_id: row.id,
      label: row.label,
      created_at_gmt: row.created_at_gmt,
      issued_at_gmt: row.last_issued_at_gmt,
      read_only: row.read_only === 1,
    })),
  };
}

/** `dryRun` (`?dry_run=1`): the same refusals and answer; the token keeps working. */
export async function revokeToken(
  ctx: ServiceContext,
  caller: Caller,
  userRef: string,
  tokenRef: string,
  options: { dryRun?: boolean } = {},
): Promise<number> {
  const userId = userIdOf(userRef, caller);
  requireSelfOrSuperAdmin(caller, userId);
  const token = await tokenOwnedBy(ctx, userId, tokenRef);
  await runWrite(ctx, {
    siteId: null,
    dryRun: options.dryRun === true,
    apply: async (trx) => {
      await trx.deleteFrom("tokens").where("id", "=", token.id).execute();
      return { value: null, wrote: [tokenWritten(token.id, "deleted")] };
    },
  });
  return token.id;
}

export async function reissueToken(
  ctx: ServiceContext,
  caller: Caller,
  userRef: string,
  tokenRef: string,
): Promise<IssuedToken> {
  const userId = userIdOf(userRef, caller);
  requireSelfOrSuperAdmin(caller, userId);
  const token = await tokenOwnedBy(ctx, userId, tokenRef);
  const secret = generateToken();
  await runWrite(ctx, {
    siteId: null,
    apply: async (trx) => {
      await trx
        .updateTable("tokens")
        .set({ hash: hashToken(secret), last_issued_at_gmt: gmt(ctx.clock()) })
        .where("id", "=", token.id)
        .execute();
      return { value: null, wrote: [tokenWritten(token.id, "updated")] };
    },
  });
  return { token_id: token.id, token: secret };
}

/** The login a sign-in names, as `login` looks it up ("" when it names none): what its lockout counts. */
export function loginNameOf(body: Record<string, unknown>): string {
  return typeof body.login === "string" ? body.login.trim() : "";
}

/**
 * The user a login and password name, or null: an unknown login, a user without a password and a
 * wrong password alike (the caller counts null as a failed authentication). An unknown login or a
 * user without a password still pays for one scrypt run, so the timing does not tell which exist.
 */
export async function userByPassword(
  ctx: ServiceContext,
  loginName: string,
  password: string,
): Promise<UserRow | null> {
  const row = loginName
    ? await ctx.db.selectFrom("users").selectAll().where("login", "=", loginName).executeTakeFirst()
    : undefined;
  const ok = await verifyPassword(password, row?.password_hash ?? DUMMY_HASH);
  return row?.password_hash && ok ? row : null;
}

/** Checks a password and mints a login token; null for a failed authentication. */
export async function login(
  ctx: ServiceContext,
  body: Record<string, unknown>,
): Promise<{ user: UserRecord; token: IssuedToken } | null> {
  const row = await userByPassword(ctx, loginNameOf(body), passwordOf(body));
  if (row === null) return null;
  const token = await mintToken(ctx, row.id, LOGIN_LABEL, { rotate: true });
  return { user: userRecord(row), token };
}

/** The password a sign-in sends ("" for none). */
export function passwordOf(body: Record<string, unknown>): string {
  return typeof body.password === "string" ? body.password : "";
}

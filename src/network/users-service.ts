// Users, their roles on sites, and the profile (docs/foundation.md, "Sites and users").
import type { Selectable } from "kysely";
import { gmt } from "../clock.ts";
import { fail } from "../errors.ts";
import type { Db } from "../store/database.ts";
import { listWindow, type ListWindow } from "../store/lists.ts";
import type { UsersTable } from "../store/schema.ts";
import type { Caller } from "../site/callers.ts";
import { SITE_ROLES } from "../site/roles.ts";
import type { Written, WrittenAction } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { runWrite } from "../write/pipeline.ts";
import { optionalBoolean, optionalString, requireSuperAdmin } from "./input.ts";
import { hashPassword } from "./passwords.ts";

export interface UserRecord {
  id: number;
  login: string;
  email: string | null;
  super_admin: boolean;
  created_at_gmt: string;
}

export type UserRow = Selectable<UsersTable>;

const LOGIN = /^[A-Za-z0-9._@-]{1,60}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function userRecord(row: UserRow): UserRecord {
  return {
    id: row.id,
    login: row.login,
    email: row.email,
    super_admin: row.super_admin === 1,
    created_at_gmt: row.created_at_gmt,
  };
}

export async function createUser(
  ctx: ServiceContext,
  caller: Caller,
  body: Record<string, unknown>,
): Promise<UserRecord> {
  requireSuperAdmin(caller);
  const login = optionalString(body.login, "login", 200)?.trim();
  if (!login) throw fail("login_required");
  if (!LOGIN.test(login)) throw fail("invalid_login", { login });
  const email = optionalString(body.email, "email", 254)?.trim() || null;
  if (email !== null && !EMAIL.test(email)) throw fail("invalid_email", { email });
  const password = optionalString(body.password, "password", 1000);
  if (password !== undefined && password.length < 8) throw fail("weak_password", { min_length: 8 });
  const superAdmin = optionalBoolean(body.super_admin, "super_admin") ?? false;

  const passwordHash = password === undefined ? null : await hashPassword(password);
  // A user's row belongs to no site.
  const done = await runWrite(ctx, {
    siteId: null,
    taken: async () => fail("login_taken", { login }),
    apply: async (trx) => {
      const row = await trx
        .insertInto("users")
        .values({
          login,
          email,
          password_hash: passwordHash,
          super_admin: superAdmin ? 1 : 0,
          created_at_gmt: gmt(ctx.clock()),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { value: row, wrote: [{ kind: "user", id: String(row.id), action: "created" }] };
    },
  });
  return userRecord(done.value);
}

/** GET /api/users (super-administrators): one page of every user, by id. */
export async function listUsers(
  ctx: ServiceContext,
  caller: Caller,
  window: ListWindow,
): Promise<{ total: number; users: UserRecord[] }> {
  requireSuperAdmin(caller);
  const { total, rows } = await listWindow(ctx.db.selectFrom("users").selectAll().orderBy("id"), window);
  return { total, users: rows.map(userRecord) };
}

/** A user's role on one site, as GET /api/site/{site_id}/users lists it. */
export interface MemberRecord {
  id: number;
  login: string;
  role: string;
}

/** GET /api/site/{site_id}/users (the site's administrators): one page of its members, by user id. */
export async function listMembers(
  ctx: ServiceContext,
  siteId: number,
  window: ListWindow,
): Promise<{ total: number; users: MemberRecord[] }> {
  const { total, rows } = await listWindow(
    ctx.db
      .selectFrom("memberships")
      .innerJoin("users", "users.id", "memberships.user_id")
      .select(["users.id", "users.login", "memberships.role"])
      .where("memberships.site_id", "=", siteId)
      .orderBy("users.id"),
    window,
  );
  return { total, users: rows.map((row) => ({ id: row.id, login: row.login, role: row.role })) };
}

/** `me` names the caller. Anything else must be a positive integer id. */
export function userIdOf(ref: string, caller: Caller): number {
  if (ref === "me") return caller.userId;
  if (!/^[1-9]\d{0,9}$/.test(ref)) throw fail("user_not_found");
  return Number(ref);
}

export async function existingUser(ctx: ServiceContext, id: number): Promise<UserRow> {
  const row = await ctx.db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) throw fail("user_not_found");
  return row;
}

/** A user may act on itself; a super-administrator on anyone. */
export function requireSelfOrSuperAdmin(caller: Caller, userId: number): void {
  if (caller.userId !== userId && !caller.superAdmin) {
    throw fail("insufficient_role", {}, "Only the user itself or a super-administrator may do this.");
  }
}

export async function getUser(ctx: ServiceContext, caller: Caller, ref: string): Promise<UserRecord> {
  const id = userIdOf(ref, caller);
  requireSelfOrSuperAdmin(caller, id);
  return userRecord(await existingUser(ctx, id));
}

/**
 * Whether a site administrator may see this user: it holds a role on a site the caller
 * administers (this one included). A super-administrator sees every user.
 */
async function visibleTo(db: Db, caller: Caller, userId: number): Promise<boolean> {
  if (caller.superAdmin || caller.userId === userId) return true;
  const row = await db
    .selectFrom("memberships as theirs")
    .innerJoin("memberships as mine", "mine.site_id", "theirs.site_id")
    .select("theirs.site_id")
    .where("theirs.user_id", "=", userId)
    .where("mine.user_id", "=", caller.userId)
    .where("mine.role", "=", "administrator")
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** A user's role on the site written (the write's site names the site). */
function membershipWritten(userId: number, action: WrittenAction): Written {
  return { kind: "membership", id: String(userId), action };
}

/**
 * PUT /api/site/{site_id}/users/{user_id}. A site administrator may give a role only to a user
 * it can already see: anyone else answers 404 user_not_found, as an unknown id does,
 * and nothing is written, so the call does not tell which users exist. Checked inside the
 * write's transaction, so a membership removed meanwhile is not relied on.
 */
export async function setRole(
  ctx: ServiceContext,
  siteId: number,
  userRef: string,
  caller: Caller,
  body: Record<string, unknown>,
) {
  const role = body.role;
  if (typeof role !== "string" || !(SITE_ROLES as readonly string[]).includes(role))
    throw fail("invalid_role", { allowed: SITE_ROLES });
  const userId = userIdOf(userRef, caller);
  await runWrite(ctx, {
    siteId,
    apply: async (trx) => {
      const user = await trx.selectFrom("users").select("id").where("id", "=", userId).executeTakeFirst();
      if (!user || !(await visibleTo(trx, caller, userId))) throw fail("user_not_found");
      const updated = await trx
        .updateTable("memberships")
        .set({ role })
        .where("site_id", "=", siteId)
        .where("user_id", "=", userId)
        .executeTakeFirst();
      const given = Number(updated.numUpdatedRows) > 0;
      if (!given) await trx.insertInto("memberships").values({ site_id: siteId, user_id: userId, role }).execute();
      return { value: null, wrote: [membershipWritten(userId, given ? "updated" : "created")] };
    },
  });
  return { user_id: userId, role };
}

/** DELETE /api/site/{site_id}/users/{user_id}; `dryRun` (`?dry_run=1`): the same refusal and answer, the role kept. */
export async function removeRole(
  ctx: ServiceContext,
  siteId: number,
  userRef: string,
  caller: Caller,
  options: { dryRun?: boolean } = {},
) {
  const userId = userIdOf(userRef, caller);
  const done = await runWrite(ctx, {
    siteId,
    dryRun: options.dryRun === true,
    apply: async (trx) => {
      const removed = await trx
        .deleteFrom("memberships")
        .where("site_id", "=", siteId)
        .where("user_id", "=", userId)
        .returning("role")
        .executeTakeFirst();
      if (!removed) throw fail("membership_not_found");
      return { value: removed.role, wrote: [membershipWritten(userId, "deleted")] };
    },
  });
  return { user_id: userId, role: done.value };
}

export async function profile(ctx: ServiceContext, caller: Caller) {
  const user = await existingUser(ctx, caller.userId);
  const rows = await ctx.db
    .selectFrom("sites")
    .leftJoin("memberships", (join) =>
      join.onRef("memberships.site_id", "=", "sites.id").on("memberships.user_id", "=", caller.userId),
    )
    .select(["sites.id", "sites.name", "memberships.role"])
    .orderBy("sites.id")
    .execute();
  // A super-administrator administers every site, member or not.
  const sites = rows
    .filter((row) => row.role !== null || caller.superAdmin)
    .map((row) => ({ id: row.id, name: row.name, role: row.role ?? "administrator" }));
  return { user: userRecord(user), sites };
}

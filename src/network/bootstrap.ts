// First start creates the network (README.md, docs/deploy.md): main site 1 and super-administrator
// `admin` (id 1) with a token. Later starts reuse the stored state; a SVC_ADMIN_TOKEN given on a
// later start is made one of admin's tokens if it is not already.
// Several processes may start at once on one PostgreSQL database: the transaction first takes a
// transaction-scoped advisory lock, so one process creates the network while the others wait
// and then read it (READ COMMITTED: each statement after the lock sees the winner's commit).
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "kysely";
import { gmt } from "../clock.ts";
import type { PublicFront } from "../config.ts";
import { siteOrigin } from "../site/addresses.ts";
import { isPostgres, type Db } from "../store/database.ts";
import { storeToken } from "./tokens-service.ts";
import { hashToken } from "../tokens.ts";

export interface BootstrapOptions {
  publicHost: string;
  adminToken: string | null;
  dataDir: string;
  now: number;
  /** How addresses are printed (the service's config): the main site's printed origin is that of a
   * site with nothing printed yet, so the start after it republishes nothing (printed-origins.ts). */
  front?: PublicFront;
}

export interface BootstrapResult {
  created: boolean;
  /** Set only when a token was generated on this start: it is printed once. */
  generatedToken: string | null;
}

export const ADMIN_USER_ID = 1;

/** Advisory lock key of the first-start bootstrap ("svc boot" in ASCII); per database. */
const BOOTSTRAP_LOCK = 0x73766320626f6f74n;

export async function bootstrapNetwork(db: Db, options: BootstrapOptions): Promise<BootstrapResult> {
  const result = await db.transaction().execute(async (trx) => {
    if (isPostgres(db)) await sql`select pg_advisory_xact_lock(${sql.lit(BOOTSTRAP_LOCK)})`.execute(trx);
    const existing = await trx.selectFrom("users").select("id").where("id", "=", ADMIN_USER_ID).executeTakeFirst();
    if (existing) {
      if (options.adminToken) {
        const known = await trx
          .selectFrom("tokens")
          .select("id")
          .where("hash", "=", hashToken(options.adminToken))
          .executeTakeFirst();
        if (!known) {
          // A new SVC_ADMIN_TOKEN rotates the one the environment gave before: admin's tokens
          // labelled SVC_ADMIN_TOKEN are revoked (an operator changes the variable to retire a
          // leaked token), tokens made through the API and the one generated at first start stay.
          await trx
            .deleteFrom("tokens")
            .where("user_id", "=", ADMIN_USER_ID)
            .where("label", "=", "SVC_ADMIN_TOKEN")
            .execute();
          await storeToken(trx, options.now, ADMIN_USER_ID, "SVC_ADMIN_TOKEN", options.adminToken);
        }
      }
      return { created: false, generatedToken: null };
    }
    const at = gmt(options.now);
    // On empty tables the first rows get id 1 in both dialects; no explicit id is written,
    // so PostgreSQL's sequences stay in step.
    const site = await trx
      .insertInto("sites")
      .values({
        name: "Main site",
        domain: options.publicHost,
        created_at_gmt: at,
        printed_origin: options.front ? siteOrigin({ domain: options.publicHost, https: null }, options.front) : null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx
      .insertInto("site_domains")
      .values({ domain: options.publicHost, site_id: site.id, is_primary: 1 })
      .execute();
    const user = await trx
      .insertInto("users")
      .values({ login: "admin", email: null, password_hash: null, super_admin: 1, created_at_gmt: at })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (site.id !== 1 || user.id !== ADMIN_USER_ID)
      throw new Error("the network's first rows did not get id 1: the database is not empty");
    const issued = options.adminToken
      ? await storeToken(trx, options.now, ADMIN_USER_ID, "SVC_ADMIN_TOKEN", options.adminToken)
      : await storeToken(trx, options.now, ADMIN_USER_ID, "generated at first start");
    return { created: true, generatedToken: options.adminToken ? null : issued.token };
  });
  if (result.generatedToken) {
    mkdirSync(options.dataDir, { recursive: true });
    const file = join(options.dataDir, "admin-token");
    writeFileSync(file, `${result.generatedToken}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  return result;
}

// Migration 0080_domains on a database that already has sites: every site gets its
// primary row from `sites.domain` (lower-cased), a domain is held once whatever its case, and a
// site has at most one primary row. Run on the migration alone, after 0001 (which makes `sites`),
// on SQLite and, under `npm run test:pg`, on PostgreSQL.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import SQLite from "better-sqlite3";
import pg from "pg";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import { up as foundation } from "../../src/store/migrations/0001_foundation.ts";
import { up as domains } from "../../src/store/migrations/0080_domains.ts";
import { freshDatabase, testServerUrl } from "../support/database.ts";

async function withDatabase(work: (db: Kysely<any>, dialect: "sqlite" | "postgres") => Promise<void>): Promise<void> {
  if (!testServerUrl) {
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new SQLite(":memory:") }) });
    try {
      return await work(db, "sqlite");
    } finally {
      await db.destroy();
    }
  }
  const database = await freshDatabase();
  const db = new Kysely<any>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url! }) }),
  });
  try {
    await work(db, "postgres");
  } finally {
    await db.destroy();
    await database.drop();
  }
}

describe(`migration 0080_domains (${testServerUrl ? "PostgreSQL" : "SQLite"})`, () => {
  it("fills site_domains from sites.domain: one primary row per site, normalised; then holds each domain once", async () => {
    await withDatabase(async (db, dialect) => {
      await foundation(db, dialect);
      const at = "2026-01-01 00:00:00";
      await db
        .insertInto("sites")
        .values([
          { name: "Main", domain: "localhost", created_at_gmt: at },
          { name: "Blog", domain: "Blog.Localhost", created_at_gmt: at },
        ])
        .execute();
      await domains(db, dialect);
      const rows = await db.selectFrom("site_domains").selectAll().orderBy("site_id").execute();
      assert.deepEqual(
        rows.map((r) => [r.domain, Number(r.site_id), Number(r.is_primary)]),
        [
          ["localhost", 1, 1],
          ["blog.localhost", 2, 1],
        ],
      );
      await assert.rejects(
        db.insertInto("site_domains").values({ domain: "blog.localhost", site_id: 1, is_primary: 0 }).execute(),
        "a domain is held once",
      );
      await assert.rejects(
        db.insertInto("site_domains").values({ domain: "second.localhost", site_id: 1, is_primary: 1 }).execute(),
        "one primary per site",
      );
      await db.insertInto("site_domains").values({ domain: "www.localhost", site_id: 1, is_primary: 0 }).execute();
      await db.insertInto("site_domains").values({ domain: "old.localhost", site_id: 1, is_primary: 0 }).execute();
      assert.equal(
        (await db.selectFrom("site_domains").select("domain").where("site_id", "=", 1).execute()).length,
        3,
        "any number of aliases",
      );
    });
  });
});

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, sql } from "kysely";
import { Migrator } from "kysely/migration";
import { openStore } from "../../src/store/database.ts";
import { RoutedSqliteDialect } from "../../src/store/sqlite-driver.ts";
import { ReusedStatements } from "../../src/store/sqlite-statements.ts";

describe("embedded SQLite store", () => {
  it("opens <dataDir>/svc.db in WAL mode with foreign keys enforced, migrated to the latest version", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-store-"));
    const store = await openStore({ dataDir: dir, databaseUrl: null });
    try {
      assert.equal(store.dialect, "sqlite");
      const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(store.db);
      assert.equal(mode.rows[0].journal_mode, "wal");
      const fk = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(store.db);
      assert.equal(fk.rows[0].foreign_keys, 1);
      await assert.rejects(
        store.db.insertInto("memberships").values({ site_id: 999, user_id: 999, role: "editor" }).execute(),
        /FOREIGN KEY/,
      );
      const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(store.db);
      assert.ok(applied.rows.length >= 4);
      assert.equal(applied.rows[0].name, "0001_foundation");
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a second open of the same file runs no migration twice and keeps the data", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-store-"));
    const first = await openStore({ dataDir: dir, databaseUrl: null });
    await first.db
      .insertInto("sites")
      .values({ name: "Kept", domain: "kept.localhost", created_at_gmt: "2026-01-01 00:00:00" })
      .execute();
    await first.close();
    const second = await openStore({ dataDir: dir, databaseUrl: null });
    try {
      const rows = await second.db.selectFrom("sites").select("name").execute();
      assert.deepEqual(
        rows.map((r) => r.name),
        ["Kept"],
      );
    } finally {
      await second.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("pending migrations run in one transaction: one that fails leaves neither its own changes nor those of the migrations before it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-store-"));
    // The store's own dialect on a database of its own, with two migrations: the second fails.
    const db = new Kysely<any>({
      dialect: new RoutedSqliteDialect(new ReusedStatements(new SQLite(join(dir, "migrated.db"))), null),
    });
    try {
      const migrations = {
        "0001_adds_a_table": {
          up: async (trx: Kysely<any>) =>
            void (await trx.schema.createTable("added_first").addColumn("id", "integer").execute()),
        },
        "0002_fails": {
          up: async (trx: Kysely<any>) => {
            await trx.schema.createTable("added_second").addColumn("id", "integer").execute();
            await sql`select * from no_such_table`.execute(trx);
          },
        },
      };
      const { error, results } = await new Migrator({
        db,
        provider: { getMigrations: async () => migrations },
      }).migrateToLatest();
      assert.match(String(error), /no such table: no_such_table/);
      assert.deepEqual(
        results?.map((r) => [r.migrationName, r.status]),
        [
          ["0001_adds_a_table", "Success"],
          ["0002_fails", "Error"],
        ],
      );
      const tables = await sql<{
        name: string;
      }>`select name from sqlite_master where name in ('added_first', 'added_second')`.execute(db);
      assert.deepEqual(tables.rows, []);
      const recorded = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
      assert.deepEqual(recorded.rows, []);
    } finally {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

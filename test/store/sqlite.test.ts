import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { openStore } from "../../src/store/database.ts";

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
    await first.db.insertInto("sites").values({ name: "Kept", domain: "kept.localhost", created_at_gmt: "2026-01-01 00:00:00" }).execute();
    await first.close();
    const second = await openStore({ dataDir: dir, databaseUrl: null });
    try {
      const rows = await second.db.selectFrom("sites").select("name").execute();
      assert.deepEqual(rows.map((r) => r.name), ["Kept"]);
    } finally {
      await second.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

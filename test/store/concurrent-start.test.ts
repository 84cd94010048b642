// Several service processes may start at once on one empty PostgreSQL database (docs/deploy.md): the
// migrations run once (Kysely's migrator takes an advisory lock) and the network is created once
// (bootstrap takes its own advisory lock); every start succeeds and sees the same network.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { openStore, type Store } from "../../src/store/database.ts";
import { bootstrapNetwork } from "../../src/network/bootstrap.ts";
import { generateToken, hashToken } from "../../src/tokens.ts";
import { freshDatabase, testServerUrl } from "../support/database.ts";

describe("concurrent first starts", {
  skip: testServerUrl ? false : "needs TEST_DATABASE_URL (npm run test:pg)",
}, () => {
  it("six starts at once on one empty database all succeed: migrations applied once, one main site, one admin, the shared admin token stored once", async () => {
    const database = await freshDatabase();
    const dirs = Array.from({ length: 6 }, () => mkdtempSync(join(tmpdir(), "svc-start-")));
    const token = generateToken();
    const stores: Store[] = [];
    try {
      const results = await Promise.all(
        dirs.map(async (dataDir) => {
          const store = await openStore({ dataDir, databaseUrl: database.url });
          stores.push(store);
          return bootstrapNetwork(store.db, { publicHost: "localhost", adminToken: token, dataDir, now: Date.now() });
        }),
      );
      assert.equal(results.filter((r) => r.created).length, 1, "exactly one start created the network");
      assert.ok(results.every((r) => r.generatedToken === null));
      const db = stores[0].db;
      const migrations = await sql<{
        name: string;
        n: string;
      }>`select name, count(*) as n from kysely_migration group by name order by name`.execute(db);
      assert.ok(migrations.rows.length >= 5);
      assert.ok(
        migrations.rows.every((row) => Number(row.n) === 1),
        "each migration recorded once",
      );
      assert.deepEqual(await db.selectFrom("sites").select(["id", "name", "domain"]).execute(), [
        { id: 1, name: "Main site", domain: "localhost" },
      ]);
      assert.deepEqual(await db.selectFrom("users").select(["id", "login"]).execute(), [{ id: 1, login: "admin" }]);
      const tokens = await db.selectFrom("tokens").select("user_id").where("hash", "=", hashToken(token)).execute();
      assert.deepEqual(tokens, [{ user_id: 1 }]);
    } finally {
      for (const store of stores) await store.close();
      await database.drop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  });
});

// Answers kept until the database changes (src/store/kept-reads.ts) and the reused prepared
// statements under them (src/store/sqlite-statements.ts). A kept answer must never outlive a
// write: the service's own, a raw one on the same connection, or another connection's commit.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { sql } from "kysely";
import { openStore, type Store } from "../../src/store/database.ts";
import { KEPT_READS_BUDGET, keptUntilWrite } from "../../src/store/kept-reads.ts";
import { ReusedStatements } from "../../src/store/sqlite-statements.ts";
import { freshDatabase, testServerUrl, type TestDatabase } from "../support/database.ts";

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe("answers kept until the database changes", () => {
  let dir: string;
  let database: TestDatabase;
  let store: Store;
  let computed = 0;
  /** The name of site 1, counting how often it was read from the database. */
  const siteName = () =>
    keptUntilWrite(store.db, "site-name", async () => {
      computed++;
      return (await store.db.selectFrom("sites").select("name").where("id", "=", 1).executeTakeFirstOrThrow()).name;
    });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-kept-"));
    database = await freshDatabase();
    store = await openStore({ dataDir: dir, databaseUrl: database.url });
    await store.db
      .insertInto("sites")
      .values({ name: "First", domain: "kept.localhost", created_at_gmt: "2026-01-01 00:00:00" })
      .execute();
  });
  after(async () => {
    await store.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  if (testServerUrl) {
    it("on PostgreSQL nothing is kept: every call reads", async () => {
      computed = 0;
      await siteName();
      await siteName();
      assert.equal(computed, 2);
    });
    return;
  }

  it("an answer is read once while nothing is written", async () => {
    computed = 0;
    assert.equal(await siteName(), "First");
    assert.equal(await siteName(), "First");
    await nextTurn();
    assert.equal(await siteName(), "First");
    assert.equal(computed, 1);
  });

  it("a write through the store drops it: the next call reads again", async () => {
    await store.db.updateTable("sites").set({ name: "Second" }).where("id", "=", 1).execute();
    assert.equal(await siteName(), "Second");
  });

  it("a raw SQL write through the store drops it too, and so does an insert with RETURNING", async () => {
    await sql`update sites set name = 'Third' where id = 1`.execute(store.db);
    assert.equal(await siteName(), "Third");
    let reads = 0;
    const count = () =>
      keptUntilWrite(store.db, "sites", async () => {
        reads++;
        return (await store.db.selectFrom("sites").select("id").execute()).length;
      });
    assert.equal(await count(), 1);
    const added = await store.db
      .insertInto("sites")
      .values({ name: "Other", domain: "other.localhost", created_at_gmt: "2026-01-01 00:00:00" })
      .returning("id")
      .executeTakeFirstOrThrow();
    assert.equal(await count(), 2);
    assert.equal(reads, 2);
    await store.db.deleteFrom("sites").where("id", "=", added.id).execute();
    assert.equal(await count(), 1);
  });

  it("another connection's commit shows from the next turn of the event loop", async () => {
    await siteName();
    const other = new SQLite(join(dir, "svc.db"));
    try {
      other.prepare("update sites set name = 'Fourth' where id = 1").run();
    } finally {
      other.close();
    }
    await nextTurn();
    assert.equal(await siteName(), "Fourth");
  });

  it("inside a transaction nothing is kept, and the transaction's own writes are seen", async () => {
    await store.db.transaction().execute(async (trx) => {
      await trx.updateTable("sites").set({ name: "Fifth" }).where("id", "=", 1).execute();
      let inside = 0;
      const read = () =>
        keptUntilWrite(trx, "site-name", async () => {
          inside++;
          return (await trx.selectFrom("sites").select("name").where("id", "=", 1).executeTakeFirstOrThrow()).name;
        });
      assert.equal(await read(), "Fifth");
      await read();
      assert.equal(inside, 2);
    });
    assert.equal(await siteName(), "Fifth");
  });

  it("an answer computed while a write landed is not kept past it", async () => {
    await siteName();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = keptUntilWrite(store.db, "slow", async () => {
      await gate;
      return "read before the write";
    });
    await store.db.updateTable("sites").set({ name: "Sixth" }).where("id", "=", 1).execute();
    assert.equal(await siteName(), "Sixth", "a call after the write sees the new stamp");
    release();
    await slow;
    let again = 0;
    await keptUntilWrite(store.db, "slow", async () => {
      again++;
      return "read after the write";
    });
    assert.equal(again, 1, "the slow answer was not kept under the new stamp");
  });

  it("a failed computation keeps nothing", async () => {
    await assert.rejects(
      keptUntilWrite(store.db, "fails", async () => Promise.reject(new Error("no"))),
      /no/,
    );
    assert.equal(await keptUntilWrite(store.db, "fails", async () => "now"), "now");
  });

  it("answers beyond the budget push the oldest out; one heavier than a quarter of it is never kept", async () => {
    const big = KEPT_READS_BUDGET / 4;
    let reads = 0;
    const read = (key: string, weight: number) =>
      keptUntilWrite(
        store.db,
        key,
        async () => {
          reads++;
          return key;
        },
        { weight: () => weight },
      );
    for (const key of ["a", "b", "c", "d", "e"]) await read(key, big);
    reads = 0;
    await read("e", big);
    await read("b", big);
    assert.equal(reads, 0, "the newest are kept");
    await read("a", big);
    assert.equal(reads, 1, "the oldest was pushed out");
    reads = 0;
    await read("huge", KEPT_READS_BUDGET / 4 + 1);
    await read("huge", KEPT_READS_BUDGET / 4 + 1);
    assert.equal(reads, 2);
  });
});

describe("reused prepared statements", () => {
  it("a SQL text is prepared once, the least recently used is dropped beyond capacity, and a kept statement follows schema changes", () => {
    const database = new SQLite(":memory:");
    let prepared = 0;
    const prepare = database.prepare.bind(database);
    database.prepare = ((text: string) => {
      prepared++;
      return prepare(text);
    }) as typeof database.prepare;
    const statements = new ReusedStatements(database, 2);
    statements.prepare("create table t (a integer)").run([]);
    statements.prepare("insert into t (a) values (?)").run([1]);
    statements.prepare("insert into t (a) values (?)").run([2]);
    assert.equal(prepared, 2);
    assert.deepEqual(statements.prepare("select * from t order by a").all([]), [{ a: 1 }, { a: 2 }]);
    assert.equal(prepared, 3);
    assert.equal(statements.size, 2);
    statements.prepare("insert into t (a) values (?)").run([3]);
    assert.equal(prepared, 3, "still kept: used more recently than the create");
    statements.prepare("create table u (b integer)");
    assert.equal(prepared, 4);
    statements.prepare("select * from t order by a");
    assert.equal(prepared, 5, "pushed out by the two before it");
    database.exec("alter table t add column b text default 'x'");
    assert.deepEqual(statements.prepare("select * from t order by a").all([])[0], { a: 1, b: "x" });
    statements.close();
  });
});

// The SQLite store's second, read-only connection (src/store/sqlite-driver.ts): while one write's
// transaction is open (its render trial may last up to the time budget), reads from outside it
// are answered at once with the last committed state; writes from outside wait for it; and what
// the transaction wrote is read (and kept-read) once it commits, never before.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, type Store } from "../../src/store/database.ts";
import { keptUntilWrite } from "../../src/store/kept-reads.ts";

const AT = "2026-01-01 00:00:00";

/** Whether `promise` settles within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

describe("SQLite: reads are not held by an open write transaction", () => {
  let dir: string;
  let store: Store;
  const domains = async () =>
    (await store.db.selectFrom("sites").select("domain").orderBy("domain").execute()).map((r) => r.domain);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-reader-"));
    store = await openStore({ dataDir: dir, databaseUrl: null });
    await store.db.insertInto("sites").values({ name: "A", domain: "a.localhost", created_at_gmt: AT }).execute();
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a read from outside an open transaction answers at once with the committed state; a write from outside waits for the commit; after it both see the transaction's rows", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inside!: () => void;
    const opened = new Promise<void>((resolve) => (inside = resolve));
    const transaction = store.db.transaction().execute(async (trx) => {
      await trx.insertInto("sites").values({ name: "B", domain: "b.localhost", created_at_gmt: AT }).execute();
      inside();
      await held;
    });
    await opened;

    const read = domains();
    assert.equal(await settlesWithin(read, 1_000), true, "the read was answered while the transaction is open");
    assert.deepEqual(await read, ["a.localhost"], "it does not see what the open transaction wrote");
    const kept = keptUntilWrite(store.db, "domains", domains);
    assert.deepEqual(await kept, ["a.localhost"]);

    const write = store.db
      .insertInto("sites")
      .values({ name: "C", domain: "c.localhost", created_at_gmt: AT })
      .execute();
    assert.equal(await settlesWithin(write, 200), false, "a write from outside waits for the transaction");

    release();
    await transaction;
    await write;
    assert.deepEqual(await domains(), ["a.localhost", "b.localhost", "c.localhost"]);
    assert.deepEqual(
      await keptUntilWrite(store.db, "domains", domains),
      ["a.localhost", "b.localhost", "c.localhost"],
      "the kept answer went with the commit",
    );
  });

  it("a rolled-back transaction leaves nothing to read, and the next transaction runs after it", async () => {
    await assert.rejects(
      store.db.transaction().execute(async (trx) => {
        await trx.insertInto("sites").values({ name: "D", domain: "d.localhost", created_at_gmt: AT }).execute();
        throw new Error("refused");
      }),
      /refused/,
    );
    await store.db.transaction().execute(async (trx) => {
      await trx.insertInto("sites").values({ name: "E", domain: "e.localhost", created_at_gmt: AT }).execute();
    });
    assert.deepEqual(await domains(), ["a.localhost", "b.localhost", "c.localhost", "e.localhost"]);
  });

  it("transactions take turns: two opened at once run one after the other, never interleaved", async () => {
    const order: string[] = [];
    const one = store.db.transaction().execute(async (trx) => {
      order.push("one begins");
      await new Promise((resolve) => setTimeout(resolve, 50));
      await trx.insertInto("sites").values({ name: "F", domain: "f.localhost", created_at_gmt: AT }).execute();
      order.push("one ends");
    });
    const two = store.db.transaction().execute(async (trx) => {
      order.push("two begins");
      await trx.insertInto("sites").values({ name: "G", domain: "g.localhost", created_at_gmt: AT }).execute();
      order.push("two ends");
    });
    await Promise.all([one, two]);
    assert.deepEqual(order, ["one begins", "one ends", "two begins", "two ends"]);
  });
});

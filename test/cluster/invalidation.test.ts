// Cross-process invalidation (docs/deploy.md): what the caches report, the NOTIFY payloads, and two
// PostgresInvalidation instances (two "processes") on one database, including a LISTEN
// connection that drops and comes back. The real two-process run is two-processes.test.ts.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { PageCache, type CacheFlush } from "../../src/publish/page-cache.ts";
import { SiteDirectory } from "../../src/publish/site-directory.ts";
import {
  CHANNEL,
  MAX_PAYLOAD_BYTES,
  PostgresInvalidation,
  encodeMessages,
  parseMessage,
  singleProcess,
  type Invalidated,
} from "../../src/publish/invalidation.ts";
import { openStore, type Db, type Store } from "../../src/store/database.ts";
import { Marks } from "../../src/publish/invalidation-marks.ts";
import { freshDatabase, testServerUrl, type TestDatabase } from "../support/database.ts";
import { CuttableProxy } from "../support/tcp-proxy.ts";

const entry = (siteId: number, address: string, pageId: number, text = "x") => ({
  siteId,
  address,
  pageId,
  body: Buffer.from(text),
  printed: "on_request" as const,
});

/** Waits for an event, failing the test rather than hanging when it never comes. */
function next(emitter: NodeJS.EventEmitter, event: string, ms = 5_000): Promise<unknown[]> {
  return once(emitter, event, { signal: AbortSignal.timeout(ms) });
}

/** Collects every flush an invalidation applies from now on; `until` waits for one that matches. */
function appliedFrom(invalidation: PostgresInvalidation) {
  const seen: Invalidated[] = [];
  let wake = () => {};
  invalidation.on("applied", (flushes: Invalidated[]) => {
    seen.push(...flushes);
    wake();
  });
  return {
    seen,
    async until(test: (flush: Invalidated) => boolean, ms = 5_000): Promise<void> {
      const deadline = Date.now() + ms;
      while (!seen.some(test)) {
        if (Date.now() > deadline) assert.fail(`not applied; saw ${JSON.stringify(seen)}`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 50);
        });
      }
    },
  };
}

describe("marks: which told flushes are applied", () => {
  it("a mark counts as applied only once every earlier mark of its scope is, whatever order they arrive in", () => {
    const marks = new Marks(null as unknown as pg.Pool);
    marks.told({ 1: 1 });
    assert.equal(marks.covered(1, 1), true);
    marks.told({ 1: 3 });
    assert.equal(marks.covered(1, 3), false, "2 has not arrived: 3 may not be relied on");
    assert.equal(marks.covered(1, 2), false);
    marks.told({ 1: 2 });
    assert.equal(marks.covered(1, 2), true);
    assert.equal(marks.covered(1, 3), true, "the gap is filled");
    assert.equal(marks.covered(2, 1), false, "scopes are apart");
    assert.equal(marks.covered(1, undefined), false, "a message without marks is always applied");
  });
});

describe("page cache and host directory report their flushes", () => {
  it("every local flush is reported whole (cached or not); a flush applied from another process is not reported again", () => {
    const cache = new PageCache();
    const told: CacheFlush[] = [];
    cache.onFlush((flush) => told.push(flush));
    cache.put(entry(1, "/a/", 10));
    cache.put(entry(1, "/b/", 11));
    assert.deepEqual(cache.flushPages(1, [10, 99]), ["/a/"]);
    assert.deepEqual(cache.flushAddresses(1, ["/b/", "/elsewhere/"]), ["/b/"]);
    cache.flushSite(2);
    cache.flushSite();
    cache.flushPages(1, []);
    assert.deepEqual(told, [
      { kind: "pages", site: 1, pages: [10, 99] },
      { kind: "addresses", site: 1, addresses: ["/b/", "/elsewhere/"] },
      { kind: "site", site: 2 },
      { kind: "all" },
    ]);
    cache.put(entry(3, "/c/", 30));
    assert.deepEqual(cache.apply({ kind: "pages", site: 3, pages: [30] }), ["/c/"]);
    assert.equal(told.length, 4, "applied flushes are not told again");
  });

  it("a page read before a flush of its site is answered but not kept; other sites keep caching", () => {
    const cache = new PageCache();
    const ticket = cache.ticket();
    cache.apply({ kind: "pages", site: 1, pages: [5] });
    const answered = cache.put(entry(1, "/old/", 6, "read before the flush"), ticket);
    assert.equal(answered.body.toString(), "read before the flush");
    assert.equal(cache.get(1, "/old/"), undefined, "not kept: it may hold what the flush replaced");
    cache.put(entry(2, "/other/", 6), ticket);
    assert.ok(cache.get(2, "/other/"), "a flush of site 1 does not stop site 2");
    cache.put(entry(1, "/new/", 6), cache.ticket());
    assert.ok(cache.get(1, "/new/"), "read after the flush: kept");
    const beforeAll = cache.ticket();
    cache.flushSite();
    cache.put(entry(2, "/late/", 7), beforeAll);
    assert.equal(cache.get(2, "/late/"), undefined, "a flush of every site stops every site");
  });

  it("the host directory reports its clears, not the applied ones", () => {
    const directory = new SiteDirectory(null as unknown as Db);
    let told = 0;
    directory.onClear(() => told++);
    directory.clear();
    directory.applyClear();
    assert.equal(told, 1);
  });

  it("on SQLite (one process) the invalidation does nothing and is always settled", async () => {
    singleProcess.attach(new PageCache(), new SiteDirectory(null as unknown as Db));
    await singleProcess.settled();
    await singleProcess.close();
  });
});

describe("NOTIFY payloads", () => {
  const origin = "1234-abcdef012345";

  it("stay under PostgreSQL's 8000-byte limit: a long page list travels in several messages that together carry every page", () => {
    const pages = Array.from({ length: 5000 }, (_, i) => 100_000 + i);
    const payloads = encodeMessages(origin, [{ kind: "pages", site: 7, pages }, { kind: "directory" }]);
    assert.ok(payloads.length > 1);
    const carried: number[] = [];
    let directory = 0;
    for (const payload of payloads) {
      assert.ok(
        Buffer.byteLength(payload) <= MAX_PAYLOAD_BYTES && MAX_PAYLOAD_BYTES < 8000,
        `${Buffer.byteLength(payload)} bytes`,
      );
      const message = parseMessage(payload)!;
      assert.equal(message.origin, origin);
      for (const flush of message.flushes) {
        if (flush.kind === "pages") carried.push(...flush.pages);
        else if (flush.kind === "directory") directory++;
        else assert.fail(`unexpected ${flush.kind}`);
      }
    }
    assert.deepEqual(carried, pages);
    assert.equal(directory, 1);
  });

  it("long addresses in many bytes of UTF-8 are split by bytes, not characters", () => {
    const addresses = Array.from({ length: 300 }, (_, i) => `/страница-${i}-${"ж".repeat(40)}/`);
    const payloads = encodeMessages(origin, [{ kind: "addresses", site: 2, addresses }]);
    for (const payload of payloads) assert.ok(Buffer.byteLength(payload) <= MAX_PAYLOAD_BYTES);
    const carried = payloads.flatMap((p) =>
      parseMessage(p)!.flushes.flatMap((f) => (f.kind === "addresses" ? f.addresses : [])),
    );
    assert.deepEqual(carried, addresses);
  });

  it("an address too long to travel at all becomes a flush of its whole site", () => {
    const payloads = encodeMessages(origin, [
      { kind: "addresses", site: 3, addresses: ["/short/", `/${"x".repeat(9000)}/`] },
    ]);
    assert.deepEqual(
      payloads.map((p) => parseMessage(p)!.flushes),
      [[{ kind: "site", site: 3 }]],
    );
  });

  it("a message from another version or a stranger is read defensively: unknown or malformed flushes are left out", () => {
    assert.equal(parseMessage("not json"), null);
    assert.equal(parseMessage(JSON.stringify({ flushes: [] })), null);
    const message = parseMessage(
      JSON.stringify({
        origin: "x",
        flushes: [
          { kind: "pages", site: 1, pages: [1, "2"] },
          { kind: "later" },
          { kind: "site", site: 4 },
          { kind: "all" },
        ],
      }),
    );
    assert.deepEqual(message, { origin: "x", flushes: [{ kind: "site", site: 4 }, { kind: "all" }] });
  });
});

describe("two processes' caches on one PostgreSQL database", {
  skip: testServerUrl ? false : "needs TEST_DATABASE_URL (npm run test:pg)",
}, () => {
  let database: TestDatabase;
  let store: Store;
  let dir: string;
  const started: PostgresInvalidation[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-inval-"));
    database = await freshDatabase();
    store = await openStore({ dataDir: dir, databaseUrl: database.url });
  });
  after(async () => {
    for (const invalidation of started) await invalidation.close();
    await store.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A "process": its own page cache and host directory, wired to its own invalidation. */
  async function processOn(clientConfig: pg.ClientConfig = store.postgres!.clientConfig) {
    const invalidation = new PostgresInvalidation({
      pool: store.postgres!.pool,
      clientConfig,
      reconnectMinMs: 20,
      reconnectMaxMs: 200,
    });
    await invalidation.start();
    started.push(invalidation);
    const pages = new PageCache();
    const directory = new SiteDirectory(store.db);
    invalidation.attach(pages, directory);
    return { invalidation, pages, directory };
  }

  async function rawListener(): Promise<{ client: pg.Client; messages: string[] }> {
    const client = new pg.Client(store.postgres!.clientConfig);
    await client.connect();
    const messages: string[] = [];
    client.on("notification", (m) => messages.push(m.payload ?? ""));
    await client.query(`LISTEN ${CHANNEL}`);
    return { client, messages };
  }

  it("a process whose NOTIFY has not arrived yet still drops what another process's flush made stale before answering from memory (marks)", async () => {
    const a = await processOn();
    // B hears nothing: its LISTEN session is never opened, as if every NOTIFY were late.
    const b = new PostgresInvalidation({ pool: store.postgres!.pool, clientConfig: store.postgres!.clientConfig });
    started.push(b);
    const bPages = new PageCache();
    b.attach(bPages, new SiteDirectory(store.db));
    await b.fresh(3);
    bPages.put(entry(3, "/about/", 30, "old copy"));
    bPages.put(entry(4, "/other/", 40, "another site"));
    await b.fresh(3);
    assert.ok(bPages.get(3, "/about/"), "nothing was flushed: the page stays");
    a.pages.flushPages(3, [30]);
    await a.invalidation.settled();
    assert.ok(bPages.get(3, "/about/"), "no NOTIFY reached B");
    await b.fresh(3);
    assert.equal(bPages.get(3, "/about/"), undefined, "the check before answering dropped it");
    assert.ok(bPages.get(4, "/other/"), "other sites stay");
    // A flush of every site reaches every site's pages (a host-directory change drops hosts only: test/security/public-cache-pg.test.ts).
    a.pages.flushSite();
    await a.invalidation.settled();
    await b.fresh(3);
    assert.equal(bPages.get(4, "/other/"), undefined);
  });

  it("a flush in one process is told with NOTIFY svc_invalidate and applied by the other; the teller ignores its own message", async () => {
    const a = await processOn();
    const b = await processOn();
    const raw = await rawListener();
    try {
      a.pages.put(entry(1, "/about/", 7, "A's copy"));
      b.pages.put(entry(1, "/about/", 7, "B's copy"));
      b.pages.put(entry(1, "/kept/", 8));
      let aApplied = 0;
      a.invalidation.on("applied", () => aApplied++);
      const applied = next(b.invalidation, "applied");
      a.pages.flushPages(1, [7]);
      const [flushes, origin] = await applied;
      assert.deepEqual(flushes, [{ kind: "pages", site: 1, pages: [7] }]);
      assert.equal(origin, a.invalidation.origin);
      assert.equal(b.pages.get(1, "/about/"), undefined, "gone in the other process");
      assert.ok(b.pages.get(1, "/kept/"), "other pages stay");
      await a.invalidation.settled();
      assert.equal(aApplied, 0, "its own message is not applied again");
      // What went over the wire: one payload naming its origin and the flush.
      while (raw.messages.length === 0) await new Promise((r) => setImmediate(r));
      const told = JSON.parse(raw.messages[0]);
      // The message carries the mark the teller bumped for site 1 (invalidation-marks.ts).
      assert.ok(Number.isSafeInteger(told.marks?.["1"]) && told.marks["1"] > 0, raw.messages[0]);
      assert.deepEqual(told, {
        origin: a.invalidation.origin,
        marks: { "1": told.marks["1"] },
        flushes: [{ kind: "pages", site: 1, pages: [7] }],
      });
    } finally {
      await raw.client.end();
    }
  });

  it("a cleared host directory and a flushed site are applied in the other process, other sites untouched", async () => {
    const a = await processOn();
    const b = await processOn();
    b.pages.put(entry(2, "/x/", 1));
    b.pages.put(entry(3, "/y/", 1));
    let cleared = 0;
    const clear = b.directory.applyClear.bind(b.directory);
    b.directory.applyClear = () => {
      cleared++;
      clear();
    };
    const applied = appliedFrom(b.invalidation);
    a.directory.clear();
    a.pages.flushSite(2);
    // One message or two, depending on when the sender picked them up.
    await applied.until((f) => f.kind === "directory");
    await applied.until((f) => f.kind === "site" && f.site === 2);
    assert.equal(cleared, 1, "the other process's host directory was cleared");
    assert.equal(b.pages.get(2, "/x/"), undefined);
    assert.ok(b.pages.get(3, "/y/"), "another site stays");
  });

  it("settled() resolves once every flush made so far has been told", async () => {
    const a = await processOn();
    const raw = await rawListener();
    try {
      for (let i = 1; i <= 50; i++) a.pages.flushPages(4, [i]);
      await a.invalidation.settled();
      // The NOTIFYs have been executed; their delivery to a listener follows.
      const pages = new Set<number>();
      for (let tries = 0; pages.size < 50 && tries < 200; tries++) {
        for (const payload of raw.messages.splice(0))
          for (const f of parseMessage(payload)!.flushes) if (f.kind === "pages") for (const p of f.pages) pages.add(p);
        if (pages.size < 50) await new Promise((r) => setTimeout(r, 10));
      }
      assert.equal(pages.size, 50, "every flushed page was told");
    } finally {
      await raw.client.end();
    }
  });

  it("the LISTEN connection comes back by itself after it drops; the process then drops its caches (it may have missed messages) and hears the others again", async () => {
    const target = new URL(database.url!);
    const proxy = new CuttableProxy(target.hostname, Number(target.port));
    await proxy.open();
    const viaProxy = new URL(database.url!);
    viaProxy.port = String(proxy.port);
    try {
      const a = await processOn();
      const b = await processOn({ ...store.postgres!.clientConfig, connectionString: viaProxy.toString() });
      assert.ok(b.invalidation.listening);
      const lost = next(b.invalidation, "lost");
      await proxy.cut();
      await lost;
      assert.equal(b.invalidation.listening, false);
      // Meanwhile B caches a page, and A flushes it: B cannot hear that.
      b.pages.put(entry(1, "/stale/", 9));
      a.pages.flushPages(1, [9]);
      await a.invalidation.settled();
      const back = next(b.invalidation, "listening");
      await proxy.restore();
      const [state] = await back;
      assert.deepEqual(state, { reconnect: true });
      assert.equal(b.pages.get(1, "/stale/"), undefined, "dropped on reconnecting");
      b.pages.put(entry(1, "/fresh/", 10));
      const applied = next(b.invalidation, "applied");
      a.pages.flushPages(1, [10]);
      await applied;
      assert.equal(b.pages.get(1, "/fresh/"), undefined, "heard again after the reconnect");
    } finally {
      await proxy.restore();
      await proxy.cut();
    }
  });
});

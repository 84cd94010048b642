// The page cache (docs/security.md), on PostgreSQL with several processes: creating or changing one
// site never empties another site's cached pages in any process. The host directory's change
// travels as `{kind: "directory", site}` with the mark of the directory's own scope (-1), never the
// mark of every site (0), so another process, even one whose NOTIFY is late, drops hosts, never
// pages.
// Runs under `npm run test:pg`.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import pg from "pg";
import { makeSite, startTestApp, type TestApp } from "../support/app.ts";
import { testServerUrl } from "../support/database.ts";
import { PageCache } from "../../src/publish/page-cache.ts";
import { SiteDirectory } from "../../src/publish/site-directory.ts";
import {
  CHANNEL,
  PostgresInvalidation,
  encodeMessages,
  parseMessage,
  type Invalidated,
} from "../../src/publish/invalidation.ts";
import { Outbox } from "../../src/publish/invalidation-messages.ts";
import { call, eventually, startCluster, type Cluster } from "../cluster/helpers.ts";
import { live } from "./cache-helpers.ts";

const skip = testServerUrl ? false : "needs TEST_DATABASE_URL (npm run test:pg)";

const entry = (siteId: number, address: string) => ({
  siteId,
  address,
  pageId: 1,
  body: Buffer.from(`page of ${siteId}`),
  printed: "on_request" as const,
});

/** A LISTEN session on the invalidation channel: every payload told, parsed. */
async function listenTo(
  connectionString: string,
): Promise<{ client: pg.Client; messages: Array<{ marks?: Record<number, number>; flushes: Invalidated[] }> }> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  const messages: Array<{ marks?: Record<number, number>; flushes: Invalidated[] }> = [];
  client.on("notification", (m) => {
    const parsed = parseMessage(m.payload ?? "");
    if (parsed) messages.push(parsed);
  });
  await client.query(`LISTEN ${CHANNEL}`);
  return { client, messages };
}

describe("host-directory messages", () => {
  it("a site's forgotten hosts travel with its id; a clear of every host takes them in; the directory's mark is scope -1", () => {
    const box = new Outbox();
    for (const site of [3, 4, 3]) box.add({ kind: "directory", site });
    box.add({ kind: "pages", site: 3, pages: [7] });
    assert.deepEqual(box.flushes(), [
      { kind: "directory", site: 3 },
      { kind: "directory", site: 4 },
      { kind: "pages", site: 3, pages: [7] },
    ]);
    box.add({ kind: "directory" });
    box.add({ kind: "directory", site: 5 });
    assert.deepEqual(
      box.flushes().filter((flush) => flush.kind === "directory"),
      [{ kind: "directory" }],
    );
    const [payload] = encodeMessages("p1", [{ kind: "directory", site: 3 }], undefined, { [-1]: 9 });
    assert.deepEqual(parseMessage(payload), {
      origin: "p1",
      marks: { [-1]: 9 },
      flushes: [{ kind: "directory", site: 3 }],
    });
  });

  it("is read defensively: a malformed site is left out; without a site it is a clear of every host (as an older process tells it)", () => {
    const message = parseMessage(
      JSON.stringify({
        origin: "x",
        flushes: [{ kind: "directory", site: "3" }, { kind: "directory", site: 0 }, { kind: "directory" }],
      }),
    );
    assert.deepEqual(message?.flushes, [{ kind: "directory" }]);
  });
});

describe("site changes across processes: caches of one PostgreSQL database", { skip }, () => {
  let t: TestApp;
  let blog = 0;
  const started: PostgresInvalidation[] = [];

  before(async () => {
    t = await startTestApp();
    blog = await makeSite(t, "Blog", "blog.localhost");
  });
  after(async () => {
    for (const invalidation of started) await invalidation.close();
    await t.close();
  });

  /** A "process": its own page cache and host directory over the app's database. */
  async function processOn(listening = true) {
    const invalidation = new PostgresInvalidation({
      pool: t.store.postgres!.pool,
      clientConfig: t.store.postgres!.clientConfig,
    });
    if (listening) await invalidation.start();
    started.push(invalidation);
    const pages = new PageCache();
    const directory = new SiteDirectory(t.store.db);
    invalidation.attach(pages, directory);
    // Marks bumped before this process started are not news to it.
    if (!listening) await invalidation.fresh(1);
    for (const host of ["localhost", "blog.localhost", "new.localhost"]) await directory.resolve(host);
    pages.put(entry(1, "/kept/"));
    pages.put(entry(blog, "/post/"));
    return { invalidation, pages, directory };
  }

  it("a site's hosts forgotten in one process are forgotten in the other, and only those: `{kind: directory, site}` with the directory's mark", async () => {
    const a = await processOn();
    const b = await processOn();
    const raw = await listenTo(t.store.postgres!.clientConfig.connectionString!);
    try {
      const applied = new Promise((resolve) => b.invalidation.once("applied", resolve));
      a.directory.forgetSite(blog);
      await applied;
      assert.equal(b.directory.peek("blog.localhost"), undefined, "the changed site's host is looked up again");
      assert.equal(b.directory.peek("new.localhost"), undefined, "so is a host that had matched no domain");
      assert.equal(b.directory.peek("localhost")?.id, 1, "another site's host stays known");
      assert.ok(b.pages.has(1, "/kept/") && b.pages.has(blog, "/post/"), "no page goes");
      await eventually(
        async () => raw.messages.length,
        (n) => n > 0,
      );
      assert.deepEqual(raw.messages[0].flushes, [{ kind: "directory", site: blog }]);
      assert.deepEqual(Object.keys(raw.messages[0].marks ?? {}), ["-1"], "the directory's scope, not every site's (0)");
    } finally {
      await raw.client.end();
    }
  });

  it("a process whose NOTIFY is late drops its host directory before answering (marks), never a page", async () => {
    const a = await processOn();
    const late = await processOn(false);
    a.directory.forgetSite(blog);
    await a.invalidation.settled();
    assert.ok(late.directory.peek("localhost"), "nothing heard yet");
    await late.invalidation.fresh(1);
    assert.equal(late.directory.size, 0, "hosts are looked up again: which site changed is not known there");
    assert.ok(late.pages.has(1, "/kept/") && late.pages.has(blog, "/post/"), "every page stays");
    // The same for a clear of every host, as an older process tells it.
    for (const host of ["localhost", "blog.localhost"]) await late.directory.resolve(host);
    a.directory.clear();
    await a.invalidation.settled();
    await late.invalidation.fresh(1);
    assert.equal(late.directory.size, 0);
    assert.ok(late.pages.has(1, "/kept/") && late.pages.has(blog, "/post/"));
  });
});

describe("two real processes: creating or re-domaining a site through one leaves the other's cached pages of other sites in memory", {
  skip,
}, () => {
  let cluster: Cluster;
  let a = 0;
  let b = 0;
  const api = (port: number, method: string, path: string, body?: unknown) =>
    call(port, method, path, { token: cluster.token, body });
  const visit = (port: number, path: string, host = "localhost") => call(port, "GET", path, { host });

  before(async () => {
    cluster = await startCluster(2, { SVC_RATE_LIMIT_PER_MIN: "100000" });
    [a, b] = cluster.processes.map((p) => p.port);
    assert.equal((await api(a, "POST", "/api/site/1/frames", { slug: "live", html: live })).status, 201);
    assert.equal((await api(a, "POST", "/api/site/1/pages", { title: "Kept", frame: "live" })).status, 201);
  });
  after(() => cluster?.close());

  it("site writes through A: B's page of the main site is still answered from memory, and B knows the new domains at once", async () => {
    const raw = await listenTo(cluster.database.url!);
    try {
      assert.equal((await visit(b, "/kept/")).headers["x-svc-printed"], "on_request");
      assert.equal((await visit(b, "/kept/")).headers["x-svc-printed"], "cache");
      assert.equal(
        (await visit(b, "/", "shop.localhost")).status,
        404,
        "an unknown host: the main site, without a home page",
      );

      const created = await api(a, "POST", "/api/sites", { name: "Shop", domain: "shop.localhost" });
      assert.equal(created.status, 201, created.text);
      const shop = created.body.site.id as number;
      assert.equal(
        (await visit(b, "/kept/")).headers["x-svc-printed"],
        "cache",
        "creating a site kept B's page in memory",
      );
      assert.equal((await api(a, "POST", `/api/site/${shop}/frames`, { slug: "live", html: live })).status, 201);
      assert.equal((await api(a, "POST", `/api/site/${shop}/pages`, { title: "Cart", frame: "live" })).status, 201);
      assert.equal((await visit(b, "/cart/", "shop.localhost")).status, 200, "B answers the new site on its domain");

      assert.equal((await api(a, "PATCH", `/api/sites/${shop}`, { domain: "store.localhost" })).status, 200);
      assert.equal(
        (await visit(b, "/kept/")).headers["x-svc-printed"],
        "cache",
        "re-domaining another site kept B's page in memory",
      );
      assert.equal((await visit(b, "/cart/", "store.localhost")).status, 200, "the new domain answers on B at once");
      assert.equal((await visit(b, "/cart/", "shop.localhost")).status, 404, "the old one no longer does");

      // Nothing told named every site: no `all` flush, no mark of scope 0.
      await eventually(
        async () => raw.messages.length,
        (n) => n >= 2,
      );
      for (const message of raw.messages) {
        assert.ok(!message.flushes.some((flush) => flush.kind === "all"), JSON.stringify(message));
        assert.equal(message.marks?.[0], undefined, JSON.stringify(message));
      }
    } finally {
      await raw.client.end();
    }
  });
});

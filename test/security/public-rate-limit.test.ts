// Public rate limit (docs/security.md): the public site had no rate limit at all, so one client
// could ask for pages as fast as it liked (pages in memory cost nothing to ask for, the others a
// render each). Now every public request, those answered from memory included, counts against its
// client address's SVC_PUBLIC_RATE_LIMIT_PER_MIN, apart from the API limit; past it, 429 with
// Retry-After in whole seconds. Windows move on node:test's mocked Date: no test waits a minute.
import { after, afterEach, before, beforeEach, describe, it, mock } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { rawHeader, rawRequest, type Raw } from "../support/raw-http.ts";
import { startTestApp, type TestApp } from "../support/app.ts";
import { assign, bind, frame, page } from "../support/site.ts";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { runToExit } from "../support/process.ts";
import { testServerUrl } from "../support/database.ts";
import { call, startCluster, type Cluster } from "../cluster/helpers.ts";

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);

/** A GET over a real socket, so pages held in memory are answered by the raw listener. */
const get = (port: number, path: string, headers: Record<string, string> = {}): Promise<Raw> =>
  rawRequest(port, path, { headers });

const header = rawHeader;
/** Headers that differ between any two answers: the request id, the date, the connection's. */
const comparable = (raw: Raw) =>
  raw.headers.filter(([key]) => !["x-request-id", "date", "connection", "keep-alive"].includes(key));

function assertRefused(status: number, retryAfter: string | undefined, type: string | undefined, what: string): number {
  assert.equal(status, 429, what);
  assert.match(retryAfter ?? "", /^\d+$/, `${what}: Retry-After in whole seconds`);
  const seconds = Number(retryAfter);
  assert.ok(seconds >= 1 && seconds <= 60, `${what}: Retry-After ${seconds}`);
  assert.equal(type, "text/html; charset=utf-8", what);
  return seconds;
}

describe("security: SVC_PUBLIC_RATE_LIMIT_PER_MIN", () => {
  it("defaults to 600; a value outside 1 to 10,000,000 or not a whole number is refused naming the variable", () => {
    assert.equal(loadConfig({}).publicRateLimitPerMin, 600);
    assert.equal(loadConfig({ SVC_PUBLIC_RATE_LIMIT_PER_MIN: "1" }).publicRateLimitPerMin, 1);
    assert.equal(loadConfig({ SVC_PUBLIC_RATE_LIMIT_PER_MIN: "10000000" }).publicRateLimitPerMin, 10_000_000);
    for (const bad of ["0", "10000001", "-5", "many", "1.5"]) {
      assert.throws(
        () => loadConfig({ SVC_PUBLIC_RATE_LIMIT_PER_MIN: bad }),
        (error: unknown) => error instanceof ConfigError && error.variable === "SVC_PUBLIC_RATE_LIMIT_PER_MIN",
        bad,
      );
    }
  });

  it("a bad value stops start-up with one line naming the variable", async () => {
    const r = await runToExit({
      SVC_DATA_DIR: mkdtempSync(join(tmpdir(), "svc-sec-")),
      SVC_PUBLIC_RATE_LIMIT_PER_MIN: "0",
    });
    assert.notEqual(r.code, 0);
    const lines = r.stderr.trim().split("\n");
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0], /\bSVC_PUBLIC_RATE_LIMIT_PER_MIN\b/);
  });
});

describe("security: the public site is rate limited per client address", () => {
  let t: TestApp;
  beforeEach(async () => {
    mock.timers.enable({ apis: ["Date"], now: T0 });
    t = await startTestApp({ env: { SVC_PUBLIC_RATE_LIMIT_PER_MIN: "3", SVC_RATE_LIMIT_PER_MIN: "5" } });
  });
  afterEach(async () => {
    await t.close();
    mock.timers.reset();
  });

  const visit = (path: string, ip = "203.0.113.1") =>
    t.app.inject({ method: "GET", url: path, headers: { host: "localhost" }, remoteAddress: ip });

  it("past the limit every public address answers 429 with Retry-After in whole seconds, until the window passes", async () => {
    const p = await page(t, { title: "Counted" });
    await frame(t, "plain", "<p>counted</p>");
    await assign(t, "plain", p.id);
    const statuses = [];
    for (const path of ["/counted/", "/nowhere/", "/counted/"]) statuses.push((await visit(path)).statusCode);
    assert.deepEqual(statuses, [200, 404, 200], "404s count as well");

    mock.timers.tick(20_000);
    for (const path of ["/counted/", "/nowhere/", "/"]) {
      const refused = await visit(path);
      const seconds = assertRefused(
        refused.statusCode,
        refused.headers["retry-after"] as string,
        refused.headers["content-type"] as string,
        path,
      );
      assert.equal(seconds, 40);
      assert.equal(refused.headers["cache-control"], "no-store");
    }
    assert.equal((await visit("/counted/", "203.0.113.2")).statusCode, 200, "another address has its own budget");

    mock.timers.tick(40_001);
    assert.equal((await visit("/counted/")).statusCode, 200, "a new window");
  });

  it("is counted apart from the API limit: public requests spend no API budget, and API calls none of the public one", async () => {
    const ip = "203.0.113.9";
    for (let i = 0; i < 3; i++) assert.equal((await t.call("GET", "/api/profile", { ip })).status, 200);
    for (let i = 0; i < 3; i++) assert.equal((await visit("/nowhere/", ip)).statusCode, 404, `public ${i + 1}`);
    assert.equal((await visit("/nowhere/", ip)).statusCode, 429);
    const api = await t.call("GET", "/api/profile", { ip });
    assert.equal(api.status, 200, "the API still answers the same address");
    assert.equal(
      api.headers["x-ratelimit-remaining"],
      "1",
      "only the four API calls were counted against the API limit",
    );
  });
});

describe("security: pages answered from memory count against the public limit", () => {
  let t: TestApp;
  let port = 0;
  let routed = 0;
  before(async () => {
    mock.timers.enable({ apis: ["Date"], now: T0 });
    t = await startTestApp({
      env: { SVC_PUBLIC_RATE_LIMIT_PER_MIN: "4" },
      beforeReady: (app) => app.addHook("onRequest", async () => void routed++),
    });
    await frame(t, "plain", `<!DOCTYPE html><html><body><h1 ${bind("text", "site.name")}>x</h1></body></html>`);
    await assign(t, "plain", (await page(t, { title: "Held" })).id);
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    port = (t.app.server.address() as { port: number }).port;
  });
  after(async () => {
    await t.close();
    mock.timers.reset();
  });

  it("the fifth request of a minute is 429 though the page is in memory; the refusal is the same bytes from memory and through Fastify", async () => {
    const statuses: number[] = [];
    const before = routed;
    for (let i = 0; i < 4; i++) statuses.push((await get(port, "/held/")).status);
    assert.deepEqual(statuses, [200, 200, 200, 200]);
    assert.ok(routed - before <= 1, "after the first, the page came from memory");

    const atRouted = routed;
    const fromMemory = await get(port, "/held/");
    assert.equal(routed, atRouted, "refused by the raw listener, without Fastify");
    assertRefused(
      fromMemory.status,
      header(fromMemory, "retry-after"),
      header(fromMemory, "content-type"),
      "from memory",
    );
    const throughFastify = await get(port, "/not-in-memory/");
    assert.equal(routed, atRouted + 1, "a page not in memory goes through Fastify");
    assert.deepEqual(
      [throughFastify.status, comparable(throughFastify), throughFastify.body],
      [fromMemory.status, comparable(fromMemory), fromMemory.body],
    );

    mock.timers.tick(60_001);
    assert.equal((await get(port, "/held/")).status, 200);
  });
});

describe("security: stylesheet bundles (/styles/<name>.<hash>.css) count against the public limit", () => {
  let t: TestApp;
  beforeEach(async () => {
    mock.timers.enable({ apis: ["Date"], now: T0 });
    t = await startTestApp({ env: { SVC_PUBLIC_RATE_LIMIT_PER_MIN: "3" } });
  });
  afterEach(async () => {
    await t.close();
    mock.timers.reset();
  });

  const fetchStyle = (url: string, ip: string, method: "GET" | "HEAD" = "GET") =>
    t.app.inject({ method, url, headers: { host: "localhost" }, remoteAddress: ip });

  it("past the limit a stylesheet answers 429 with Retry-After in whole seconds, shares the window with pages, and answers again once the window passes", async () => {
    const put = await t.call("PUT", "/api/site/1/styles/main", { body: { css: "body { color: #ff0000 }" } });
    assert.ok(put.status === 200 || put.status === 201, put.text);
    const url = put.body.style.url as string;
    assert.match(url, /^\/styles\/main\.[0-9a-f]{16}\.css$/);
    const ip = "203.0.113.40";

    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetchStyle(url, ip, i === 1 ? "HEAD" : "GET")).statusCode);
    assert.deepEqual(statuses, [200, 200, 200], "GET and HEAD each count");

    mock.timers.tick(15_000);
    const refused = await fetchStyle(url, ip);
    const seconds = assertRefused(
      refused.statusCode,
      refused.headers["retry-after"] as string,
      refused.headers["content-type"] as string,
      "stylesheet",
    );
    assert.equal(seconds, 45);
    assert.equal(refused.headers["cache-control"], "no-store");
    assert.doesNotMatch(refused.body, /color/, "no stylesheet bytes in the refusal");
    const unknown = await fetchStyle("/styles/main.0123456789abcdef.css", ip);
    assert.equal(unknown.statusCode, 429, "an address naming no bundle is counted and refused the same way");
    assert.equal((await fetchStyle("/nowhere/", ip)).statusCode, 429, "pages and stylesheets share the window");
    assert.equal((await fetchStyle(url, "203.0.113.41")).statusCode, 200, "another address has its own budget");

    mock.timers.tick(45_001);
    assert.equal((await fetchStyle(url, ip)).statusCode, 200, "a new window");
  });

  it("stylesheet requests spend the budget of the pages that follow: two bundles and a page, then the page is refused", async () => {
    const put = await t.call("PUT", "/api/site/1/styles/main", { body: { css: "a { color: blue }" } });
    const url = put.body.style.url as string;
    const ip = "203.0.113.42";
    assert.equal((await fetchStyle(url, ip)).statusCode, 200);
    assert.equal((await fetchStyle(url, ip)).statusCode, 200);
    assert.equal((await fetchStyle("/nowhere/", ip)).statusCode, 404);
    const refused = await fetchStyle("/nowhere/", ip);
    assertRefused(
      refused.statusCode,
      refused.headers["retry-after"] as string,
      refused.headers["content-type"] as string,
      "page after stylesheets",
    );
  });
});

describe("security: behind a proxy (SVC_TRUST_PROXY) the public limit counts the forwarded address on both paths", () => {
  let t: TestApp;
  let port = 0;
  before(async () => {
    mock.timers.enable({ apis: ["Date"], now: T0 });
    t = await startTestApp({ env: { SVC_PUBLIC_RATE_LIMIT_PER_MIN: "2", SVC_TRUST_PROXY: "true" } });
    await frame(t, "plain", "<p>held</p>");
    await assign(t, "plain", (await page(t, { title: "Proxied" })).id);
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    port = (t.app.server.address() as { port: number }).port;
  });
  after(async () => {
    await t.close();
    mock.timers.reset();
  });

  it("two clients behind one proxy have a budget each; the first entry of X-Forwarded-For is the client, as Fastify reads it", async () => {
    const a = { "x-forwarded-for": "198.51.100.1, 10.0.0.1" };
    const b = { "x-forwarded-for": "198.51.100.2" };
    assert.equal((await get(port, "/proxied/", a)).status, 200, "through Fastify, then held in memory");
    assert.equal(
      (await get(port, "/proxied/", { "x-forwarded-for": " 198.51.100.1 " })).status,
      200,
      "from memory, the same client",
    );
    assert.equal((await get(port, "/proxied/", a)).status, 429);
    assert.equal((await get(port, "/nowhere/", a)).status, 429, "through Fastify, the same client");
    assert.equal((await get(port, "/proxied/", b)).status, 200);
  });
});

describe("security: on PostgreSQL the public limit is counted across processes", {
  skip: testServerUrl ? false : "needs TEST_DATABASE_URL (npm run test:pg)",
}, () => {
  let cluster: Cluster;
  let a: number;
  let b: number;
  before(async () => {
    cluster = await startCluster(2, { SVC_PUBLIC_RATE_LIMIT_PER_MIN: "6", SVC_TRUST_PROXY: "true" });
    [a, b] = cluster.processes.map((p) => p.port);
  });
  after(() => cluster?.close());

  it("six requests in all through the two, then 429 from either; past the limit a process refuses from memory, without a round trip per request", async () => {
    const from = { "x-forwarded-for": "192.0.2.77" };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await call(i % 2 ? b : a, "GET", "/nowhere/", { headers: from })).status);
    assert.deepEqual(statuses, Array(6).fill(404));
    for (let i = 0; i < 10; i++) {
      const refused = await call(i % 2 ? b : a, "GET", "/nowhere/", { headers: from });
      assertRefused(
        refused.status,
        refused.headers["retry-after"] as string,
        refused.headers["content-type"] as string,
        `refusal ${i + 1}`,
      );
    }
    assert.equal(
      (await call(a, "GET", "/nowhere/", { headers: { "x-forwarded-for": "192.0.2.78" } })).status,
      404,
      "another address",
    );

    const client = new pg.Client({ connectionString: cluster.database.url! });
    await client.connect();
    try {
      const { rows } = await client.query<{ key: string; points: number }>(
        "select key, points from rate_limits where key like 'pub:%' order by key",
      );
      const row = rows.find((r) => r.key === "pub:192.0.2.77");
      assert.ok(row, JSON.stringify(rows));
      // Each process went to the database once past the limit (7 and 8), then refused in memory.
      assert.ok(row.points <= 8, `points ${row.points}: the database was asked for every refusal`);
    } finally {
      await client.end();
    }
  });
});

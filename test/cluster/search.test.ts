// Site search on two real service processes over one PostgreSQL database (docs/search.md): the
// index is kept in each page write's transaction, so a page published, changed or unpublished
// through one process is found (or not) through the other on the very next request — by
// GET /_search and by a page printing svc/search — with no waiting on the other's caches.
// Runs under `npm run test:pg`.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { call, SITE, startCluster, type Cluster, type Reply } from "./helpers.ts";
import { testServerUrl } from "../support/database.ts";

const skip = testServerUrl ? false : "needs TEST_DATABASE_URL (npm run test:pg)";

function ok(reply: Reply, what: string, status = 200): any {
  assert.equal(reply.status, status, `${what}: ${reply.status} ${reply.text.slice(0, 400)}`);
  return reply.body;
}

describe("site search on two processes", { skip }, () => {
  let cluster: Cluster;
  let a: number;
  let b: number;
  const api = (port: number, method: string, path: string, body?: unknown) =>
    call(port, method, `${SITE}${path}`, { token: cluster.token, body });
  const titles = async (port: number, q: string) =>
    (
      ok(await call(port, "GET", `/_search?q=${encodeURIComponent(q)}`), "search").results as Array<{ title: string }>
    ).map((result) => result.title);

  before(async () => {
    cluster = await startCluster(2, { SVC_RATE_LIMIT_PER_MIN: "100000", SVC_PUBLIC_RATE_LIMIT_PER_MIN: "100000" });
    [a, b] = cluster.processes.map((p) => p.port);
    ok(
      await api(a, "POST", "/frames", {
        slug: "plain",
        html: '<main data-op-bind=\'{"html":"page.content"}\'></main>',
      }),
      "frame",
      201,
    );
    ok(
      await api(a, "POST", "/frames", { slug: "search", html: "<main><h1>Search</h1><!-- svc/search /--></main>" }),
      "frame",
      201,
    );
    ok(
      await api(a, "POST", "/pages", { title: "Search", slug: "search", frame: "search", status: "publish" }),
      "page",
      201,
    );
  });
  after(() => cluster?.close());

  it("a page published through one process is found through the other on the next request", async () => {
    assert.deepEqual(await titles(b, "cassowary"), []);
    const before = await call(b, "GET", "/search/?q=cassowary", {});
    assert.match(before.text, /No results found\./);
    const made = ok(
      await api(a, "POST", "/pages", {
        title: "Cassowary café",
        frame: "plain",
        status: "publish",
        content: "<p>Tall birds.</p>",
      }),
      "page",
      201,
    );
    assert.deepEqual(await titles(b, "cafe"), ["Cassowary café"], "accents folded on PostgreSQL too");
    const after = await call(b, "GET", "/search/?q=cassowary", {});
    assert.equal(after.headers["cache-control"], "no-store");
    assert.match(after.text, /<a href="http:\/\/localhost(:\d+)?\/cassowary-cafe\/">Cassowary café<\/a>/);

    ok(await api(b, "PATCH", `/pages/${made.page.id}`, { title: "Emu café" }), "rename through the other");
    assert.deepEqual(await titles(a, "cassowary"), []);
    assert.deepEqual(await titles(a, "emu"), ["Emu café"]);
    ok(await api(b, "PATCH", `/pages/${made.page.id}`, { status: "draft" }), "unpublish through the other");
    assert.deepEqual(await titles(a, "emu"), []);
    assert.match((await call(a, "GET", "/search/?q=emu", {})).text, /No results found\./);
  });

  it("German pages are read with PostgreSQL's german configuration: a stem finds its other forms", async () => {
    ok(await api(a, "POST", "/languages", { code: "en" }), "en", 201);
    ok(await api(a, "POST", "/languages", { code: "de" }), "de", 201);
    ok(
      await api(a, "POST", "/pages", {
        title: "Die Häuser am See",
        frame: "plain",
        status: "publish",
        lang: "de",
        content: "<p>Wir wohnen in kleinen Häusern.</p>",
      }),
      "page",
      201,
    );
    const found = ok(await call(b, "GET", "/_search?q=haus&lang=de"), "search");
    assert.deepEqual(
      found.results.map((r: { title: string }) => r.title),
      ["Die Häuser am See"],
    );
  });
});

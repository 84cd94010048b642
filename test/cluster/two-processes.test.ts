// Two real service processes on different ports serve ONE PostgreSQL database (docs/deploy.md).
// A write through one shows at once on the public pages the other serves (cache invalidation by
// LISTEN/NOTIFY), limits are counted across both, and concurrent writes to one frame or one menu
// through both never mix or silently lose data. Runs under `npm run test:pg`.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { call, eventually, SITE, startCluster, type Cluster, type Reply } from "./helpers.ts";
import { testServerUrl } from "../support/database.ts";

const skip = testServerUrl ? false : "needs TEST_DATABASE_URL (npm run test:pg)";
const bind = (target: string, token: string) => `data-op-bind='{"${target}": "${token}"}'`;

function ok(reply: Reply, what: string, status = 200): any {
  assert.equal(reply.status, status, `${what}: ${reply.status} ${reply.text.slice(0, 400)}`);
  return reply.body;
}

/** The links a menu prints, by title. */
const linkTitles = (html: string) => [...html.matchAll(/<a href="[^"]*"[^>]*>([^<]*)<\/a>/g)].map((m) => m[1]);

describe("two processes on one PostgreSQL database", { skip }, () => {
  let cluster: Cluster;
  let a: number;
  let b: number;
  const api = (port: number, method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    call(port, method, `${SITE}${path}`, { token: cluster.token, body, headers });
  const visit = (port: number, path: string, host = "localhost") => call(port, "GET", path, { host });

  before(async () => {
    cluster = await startCluster(2, { SVC_RATE_LIMIT_PER_MIN: "100000" });
    [a, b] = cluster.processes.map((p) => p.port);
  });
  after(() => cluster?.close());

  it("both, started at the same moment on an empty database, serve the one network the first start created", async () => {
    assert.notEqual(a, b);
    for (const port of [a, b]) {
      const profile = ok(await call(port, "GET", "/api/profile", { token: cluster.token }), "profile");
      assert.deepEqual([profile.user.id, profile.user.login], [1, "admin"]);
      const sites = ok(await call(port, "GET", "/api/sites", { token: cluster.token }), "sites");
      assert.deepEqual(
        sites.sites.map((s: any) => [s.id, s.name]),
        [[1, "Main site"]],
      );
    }
  });

  it("a frame PUT through one process shows at once on the other's page, whose static copy it had loaded into memory", async () => {
    ok(await api(a, "POST", "/frames", { slug: "plain", html: "<main>version one</main>" }), "frame", 201);
    ok(await api(a, "POST", "/pages", { title: "About", frame: "plain" }), "page", 201);
    for (let i = 0; i < 2; i++) {
      const seen = await visit(b, "/about/");
      assert.equal(seen.status, 200);
      assert.equal(seen.headers["x-svc-printed"], "static");
      assert.match(seen.text, /version one/);
    }
    ok(await api(a, "PUT", "/frames/plain", { html: "<main>version two</main>" }), "PUT frame");
    const after = await eventually(
      () => visit(b, "/about/"),
      (r) => /version two/.test(r.text),
    );
    assert.match(after.text, /version two/, "the other process serves the new output");
    assert.match((await visit(a, "/about/")).text, /version two/);
  });

  it("a page title PATCH through one process shows at once on the other's on-request page, which it had cached", async () => {
    ok(
      await api(b, "POST", "/frames", { slug: "titled", html: `<h1 ${bind("text", "page.title")}></h1>` }),
      "frame",
      201,
    );
    ok(await api(b, "POST", "/pages", { title: "News", frame: "titled" }), "page", 201);
    assert.equal((await visit(a, "/news/")).headers["x-svc-printed"], "on_request");
    const cached = await visit(a, "/news/");
    assert.equal(cached.headers["x-svc-printed"], "cache");
    assert.match(cached.text, /<h1>News<\/h1>/);
    ok(await api(b, "PATCH", "/pages/news", { title: "Latest news" }), "PATCH page");
    const after = await eventually(
      () => visit(a, "/news/"),
      (r) => /Latest news/.test(r.text),
    );
    assert.match(after.text, /<h1>Latest news<\/h1>/);
    assert.equal(after.headers["x-svc-printed"], "on_request", "rendered again, not served from the old cache entry");
  });

  it("a menu items PUT through one process shows at once on the other's pages that print the menu", async () => {
    ok(
      await api(a, "POST", "/frames", { slug: "navbar", html: `<nav><!-- svc/menu {"location": "header"} /--></nav>` }),
      "frame",
      201,
    );
    ok(await api(a, "POST", "/pages", { title: "Start", frame: "navbar" }), "page", 201);
    ok(
      await api(a, "POST", "/menus", { name: "Main", location: "header", items: [{ url: "/one", title: "One" }] }),
      "menu",
      201,
    );
    assert.deepEqual(linkTitles((await visit(b, "/start/")).text), ["One"]);
    assert.deepEqual(linkTitles((await visit(b, "/start/")).text), ["One"], "served from memory");
    ok(
      await api(a, "PUT", "/menus/main/items", {
        items: [
          { url: "/two", title: "Two" },
          { url: "/three", title: "Three" },
        ],
      }),
      "PUT items",
    );
    const after = await eventually(
      () => visit(b, "/start/"),
      (r) => linkTitles(r.text).length === 2,
    );
    assert.deepEqual(linkTitles(after.text), ["Two", "Three"]);
  });

  it("POST /cache/flush through one process empties the other's cache too", async () => {
    ok(await api(a, "POST", "/frames", { slug: "clock", html: `<p ${bind("text", "page.title")}></p>` }), "frame", 201);
    ok(await api(a, "POST", "/pages", { title: "Ticker", frame: "clock" }), "page", 201);
    await visit(b, "/ticker/");
    assert.equal((await visit(b, "/ticker/")).headers["x-svc-printed"], "cache");
    const flushed = ok(await api(a, "POST", "/cache/flush", { urls: ["/ticker/"] }), "flush");
    assert.deepEqual(flushed.flushed.urls, ["/ticker/"]);
    const after = await eventually(
      () => visit(b, "/ticker/"),
      (r) => r.headers["x-svc-printed"] !== "cache",
    );
    assert.equal(after.headers["x-svc-printed"], "on_request");
  });

  it("a site's new domain is known at once by the other process (its host directory is cleared)", async () => {
    const site = ok(
      await call(a, "POST", "/api/sites", { token: cluster.token, body: { name: "Blog", domain: "blog.localhost" } }),
      "site",
      201,
    ).site;
    ok(
      await call(a, "POST", `/api/site/${site.id}/frames`, {
        token: cluster.token,
        body: { slug: "front", html: "<p>blog front</p>" },
      }),
      "blog frame",
      201,
    );
    ok(
      await call(a, "POST", `/api/site/${site.id}/pages`, {
        token: cluster.token,
        body: { title: "Hello", frame: "front" },
      }),
      "blog page",
      201,
    );
    assert.match((await visit(b, "/hello/", "blog.localhost")).text, /blog front/);
    assert.equal(
      (await visit(b, "/hello/", "journal.localhost")).status,
      404,
      "an unknown host gets the main site, which has no such page",
    );
    ok(
      await call(a, "PATCH", `/api/sites/${site.id}`, { token: cluster.token, body: { domain: "journal.localhost" } }),
      "re-domain",
    );
    const moved = await eventually(
      () => visit(b, "/hello/", "journal.localhost"),
      (r) => r.status === 200,
    );
    assert.match(moved.text, /blog front/, "the new domain answers on the other process");
    assert.equal((await visit(b, "/hello/", "blog.localhost")).status, 404, "the old domain no longer does");
  });

  it("a token revoked and a membership removed through one process take effect on the other's very next call", async () => {
    const user = ok(
      await call(a, "POST", "/api/users", { token: cluster.token, body: { login: "moved-on" } }),
      "user",
      201,
    ).user;
    const first = ok(
      await call(a, "POST", `/api/users/${user.id}/tokens`, { token: cluster.token, body: {} }),
      "token",
      201,
    );
    const second = ok(
      await call(a, "POST", `/api/users/${user.id}/tokens`, { token: cluster.token, body: {} }),
      "token",
      201,
    );
    ok(
      await call(a, "PUT", `${SITE}/users/${user.id}`, { token: cluster.token, body: { role: "administrator" } }),
      "membership",
    );
    for (const token of [first.token, second.token]) ok(await call(b, "GET", `${SITE}/frames`, { token }), "read on b");
    ok(await call(a, "DELETE", `/api/users/${user.id}/tokens/${first.token_id}`, { token: cluster.token }), "revoke");
    const revoked = await call(b, "GET", `${SITE}/frames`, { token: first.token });
    assert.equal(revoked.status, 401);
    assert.equal(revoked.body.code, "invalid_token");
    ok(await call(a, "DELETE", `${SITE}/users/${user.id}`, { token: cluster.token }), "remove membership");
    const removed = await call(b, "GET", `${SITE}/frames`, { token: second.token });
    assert.equal(removed.status, 404);
    assert.equal(removed.body.code, "site_not_found");
  });

  it("concurrent PUTs of one frame with the same If-Match through both: each round exactly one wins and the other gets 412; the stored frame and both public pages hold the last winner", async () => {
    ok(await api(a, "POST", "/frames", { slug: "contended", html: "<p>start</p>" }), "frame", 201);
    ok(
      await api(a, "POST", "/pages", { title: "Contended page", slug: "contended-page", frame: "contended" }),
      "page",
      201,
    );
    let winner = "<p>start</p>";
    for (let round = 1; round <= 8; round++) {
      const etag = String((await api(round % 2 ? a : b, "GET", "/frames/contended")).headers.etag);
      const bodies = [`<p>round ${round} via a</p>`, `<p>round ${round} via b</p>`];
      const replies = await Promise.all([
        api(a, "PUT", "/frames/contended", { html: bodies[0] }, { "if-match": etag }),
        api(b, "PUT", "/frames/contended", { html: bodies[1] }, { "if-match": etag }),
      ]);
      const statuses = replies.map((r) => r.status).sort();
      assert.deepEqual(statuses, [200, 412], `round ${round}: ${replies.map((r) => r.text.slice(0, 200)).join(" | ")}`);
      for (const reply of replies) if (reply.status === 412) assert.equal(reply.body.error, "precondition_failed");
      winner = bodies[replies.findIndex((r) => r.status === 200)];
    }
    for (const port of [a, b]) {
      assert.equal(ok(await api(port, "GET", "/frames/contended"), "GET frame").frame.html, winner);
      const shown = await eventually(
        () => visit(port, "/contended-page/"),
        (r) => r.text.includes(winner),
      );
      assert.ok(shown.text.includes(winner), `port ${port} serves the winner`);
    }
  });

  it("a burst of unconditional PUTs of one frame through both: every write lands as its own revision (an overtaken one is written again), the last one stays", async () => {
    ok(await api(a, "POST", "/frames", { slug: "stormy", html: "<p>calm</p>" }), "frame", 201);
    ok(await api(a, "POST", "/pages", { title: "Storm", frame: "stormy" }), "page", 201);
    const revisionOf = (etag: unknown) => Number(/^"r(\d+)-/.exec(String(etag))![1]);
    const first = revisionOf((await api(a, "GET", "/frames/stormy")).headers.etag);
    const writes = Array.from({ length: 16 }, (_, i) => ({ port: i % 2 ? b : a, html: `<p>storm ${i}</p>` }));
    const replies = await Promise.all(writes.map((w) => api(w.port, "PUT", "/frames/stormy", { html: w.html })));
    for (const reply of replies) assert.equal(reply.status, 200, reply.text.slice(0, 200));
    const landed = replies.map((r, i) => ({ r, html: writes[i].html }));
    const revisions = landed.map(({ r }) => revisionOf(r.headers.etag)).sort((x, y) => x - y);
    assert.equal(new Set(revisions).size, revisions.length, "each accepted write has a revision of its own");
    const stored = await api(b, "GET", "/frames/stormy");
    assert.equal(
      revisionOf(stored.headers.etag),
      first + landed.length,
      "one revision per accepted write, no more, no fewer",
    );
    const last = landed.find(({ r }) => revisionOf(r.headers.etag) === revisions.at(-1))!;
    assert.equal(stored.body.frame.html, last.html, "the stored markup is that of the last accepted write");
  });

  it("concurrent PUTs of one menu tree through both never mix: the stored tree is exactly one of the submitted trees, whole", async () => {
    ok(await api(b, "POST", "/menus", { name: "Contended menu", items: [{ url: "/x", title: "X" }] }), "menu", 201);
    const trees = Array.from({ length: 12 }, (_, i) => {
      const n = 2 + (i % 4);
      return Array.from({ length: n }, (_, j) => ({
        url: `/t${i}/${j}`,
        title: `T${i}-${j}`,
        children:
          j === 0
            ? Array.from({ length: i % 3 }, (_, k) => ({ url: `/t${i}/${j}/${k}`, title: `T${i}-${j}-${k}` }))
            : [],
      }));
    });
    const replies = await Promise.all(
      trees.map((items, i) => api(i % 2 ? a : b, "PUT", "/menus/contended-menu/items", { items })),
    );
    for (const reply of replies) ok(reply, "PUT items");
    const shape = (items: any[]): string =>
      items.map((item) => `${item.title}${item.children?.length ? `[${shape(item.children)}]` : ""}`).join(",");
    const submitted = trees.map(shape);
    for (const port of [a, b]) {
      const menu = ok(await api(port, "GET", "/menus/contended-menu"), "GET menu");
      const flat: any[] = menu.items;
      const nested = (parent: number): any[] =>
        flat
          .filter((item) => item.parent === parent)
          .sort((x, y) => x.order - y.order)
          .map((item) => ({ title: item.title, children: nested(item.id) }));
      const stored = shape(nested(0));
      assert.ok(submitted.includes(stored), `stored ${stored} is one of the submitted trees`);
      for (const level of new Set(flat.map((item) => item.parent))) {
        const positions = flat
          .filter((item) => item.parent === level)
          .map((item) => item.order)
          .sort((x, y) => x - y);
        assert.deepEqual(
          positions,
          positions.map((_, i) => i + 1),
          "positions 1..n in every level",
        );
      }
    }
  });
});

describe("limits across two processes on one PostgreSQL database", { skip }, () => {
  let cluster: Cluster;
  let a: number;
  let b: number;

  before(async () => {
    // X-Forwarded-For is trusted (as behind nginx), so each test counts against an address of its own.
    cluster = await startCluster(2, {
      SVC_RATE_LIMIT_PER_MIN: "30",
      SVC_AUTH_FAILURES_PER_MIN: "6",
      SVC_TRUST_PROXY: "true",
    });
    [a, b] = cluster.processes.map((p) => p.port);
  });
  after(() => cluster?.close());

  it("requests are counted across both: with 30 a minute, a token gets 30 answers in all through the two, then 429 from either", async () => {
    const user = ok(
      await call(a, "POST", "/api/users", { token: cluster.token, body: { login: "counted" } }),
      "user",
      201,
    ).user;
    const issued = ok(
      await call(b, "POST", `/api/users/${user.id}/tokens`, { token: cluster.token, body: {} }),
      "token",
      201,
    );
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++)
      statuses.push((await call(i % 2 ? b : a, "GET", "/api/profile", { token: issued.token })).status);
    assert.deepEqual(statuses, Array(30).fill(200));
    for (const port of [a, b]) {
      const refused = await call(port, "GET", "/api/profile", { token: issued.token });
      assert.equal(refused.status, 429);
      assert.equal(refused.body.code, "too_many_requests");
      assert.ok(Number(refused.headers["retry-after"]) >= 1);
    }
  });

  it("failed authentications are counted across both: after 6 split over the two, the address is locked on both (a valid token is still served); another address is not", async () => {
    const from = { "x-forwarded-for": "198.51.100.7" };
    const bad = `op_${"0".repeat(64)}`;
    for (let i = 0; i < 6; i++) {
      const reply = await call(i % 2 ? b : a, "GET", "/api/profile", { token: bad, headers: from });
      assert.equal(reply.status, 401, `failure ${i + 1}`);
    }
    for (const port of [a, b]) {
      const locked = await call(port, "GET", "/api/profile", { token: bad, headers: from });
      assert.equal(locked.status, 429);
      assert.equal(locked.body.code, "too_many_auth_failures");
      assert.equal(
        (await call(port, "GET", "/api/profile", { token: cluster.token, headers: from })).status,
        200,
        "a valid token is served from a locked address",
      );
    }
    assert.equal(
      (await call(b, "GET", "/api/profile", { token: bad, headers: { "x-forwarded-for": "198.51.100.8" } })).status,
      401,
    );
  });
});

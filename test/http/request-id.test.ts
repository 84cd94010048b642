// Request ids and the one log line of every request (src/http/request-id.ts,
// src/http/request-line.ts; docs/foundation.md, "Request ids and logs"). A caller's valid
// X-Request-Id is the request's id, echoed on every answer and recorded on the events of a write;
// any other gets a new one. Every request, answered by Fastify or before it (a kept API read, a page held in
// memory), writes exactly one line at `info`, with its id, site, user, route, method, status and
// time, and Fastify's own two lines are not written.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import type { AddressInfo } from "node:net";
import { startTestApp, type TestApp } from "../support/app.ts";
import { rawHeader, rawRequest } from "../support/raw-http.ts";
import { assign, bind, frame, page } from "../support/site.ts";
import { testServerUrl } from "../support/database.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const LINE_FIELDS = [
  "level",
  "time",
  "pid",
  "hostname",
  "request_id",
  "site_id",
  "user_id",
  "route",
  "method",
  "status",
  "duration_ms",
  "msg",
];

describe("request ids and request lines", () => {
  const lines: Array<Record<string, unknown>> = [];
  let t: TestApp;
  let port = 0;
  /** Requests that went through Fastify's hooks. */
  let routed = 0;
  const S = "/api/site/1";
  let counter = 0;
  /** A fresh valid id for each request, so each line is found by it. */
  const nextId = (label: string) => `t.${label}_${++counter}`;

  /** The request lines of `id`, once written (a line follows the answer's last byte). */
  async function linesOf(id: string): Promise<Array<Record<string, unknown>>> {
    for (let wait = 0; wait < 50; wait++) {
      const found = lines.filter((line) => line.request_id === id);
      if (found.length > 0) {
        await new Promise((resolve) => setTimeout(resolve, 20)); // a second line would be there by now
        return lines.filter((line) => line.request_id === id);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return [];
  }

  /** The one line of `id`, with exactly the fields of a request line. */
  async function lineOf(id: string): Promise<Record<string, unknown>> {
    const found = await linesOf(id);
    assert.equal(found.length, 1, `one line for ${id}: ${JSON.stringify(found)}`);
    const [line] = found;
    assert.deepEqual(Object.keys(line), LINE_FIELDS);
    assert.equal(line.level, 30, "written at info");
    assert.equal(line.msg, "request");
    assert.equal(typeof line.duration_ms, "number");
    assert.ok((line.duration_ms as number) >= 0);
    return line;
  }

  before(async () => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    t = await startTestApp({
      build: { logger: { level: "info", stream } },
      beforeReady: (app) => app.addHook("onRequest", async () => void routed++),
    });
    await frame(t, "card", "<div>card</div>");
    await frame(t, "plain", `<!DOCTYPE html><html><body><h1 ${bind("text", "site.name")}>x</h1></body></html>`);
    await assign(t, "plain", (await page(t, { title: "Still" })).id);
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  after(() => t.close());

  it("a caller's valid id is the request's: echoed, and recorded on the events of its write", async () => {
    const id = "client-42.retry_1-ABC";
    const made = await t.call("POST", `${S}/frames`, {
      body: { slug: "traced", html: "<p>traced</p>" },
      headers: { "x-request-id": id },
    });
    assert.equal(made.status, 201, made.text);
    assert.equal(made.headers["x-request-id"], id);
    const events = (await t.call("GET", `${S}/events?type=frame.created&limit=1000`)).body.events as any[];
    const created = events.find((event) => event.object.slug === "traced");
    assert.equal(created?.request_id, id);
    const line = await lineOf(id);
    assert.equal(line.route, "/api/site/:site_id/frames");
    assert.equal(line.method, "POST");
    assert.equal(line.status, 201);
    assert.equal(line.site_id, 1);
    assert.equal(line.user_id, 1);
  });

  it("128 characters of letters, digits, `.`, `_` and `-` are taken as they are", async () => {
    const id = `A-z_0.9${"x".repeat(121)}`;
    assert.equal(id.length, 128);
    assert.equal(
      (await t.call("GET", "/api/profile", { headers: { "x-request-id": id } })).headers["x-request-id"],
      id,
    );
  });

  it("an id that is not one (129 characters, a space, é, empty) is replaced by a new one, recorded as made", async () => {
    for (const sent of ["a".repeat(129), "has space", "caf\u00e9", "", "a/b", "a,b"]) {
      const answer = await t.call("POST", `${S}/frames`, {
        body: { slug: `replaced-${++counter}`, html: "<p>x</p>" },
        headers: { "x-request-id": sent },
      });
      assert.equal(answer.status, 201, answer.text);
      const id = String(answer.headers["x-request-id"]);
      assert.match(id, UUID, JSON.stringify(sent));
      const events = (await t.call("GET", `${S}/events?type=frame.created&limit=1000`)).body.events as any[];
      assert.equal(events.find((event) => event.object.slug === `replaced-${counter}`)?.request_id, id);
    }
  });

  it("errors carry the caller's id too: 404, 401, 400 on a field, 413, and the router's 400", async () => {
    const cases: Array<[number, string, Parameters<TestApp["call"]>[2]]> = [
      [404, "GET /api/no/such/route", {}],
      [404, "GET /api/site/999/frames", {}],
      [401, "GET /api/profile", { token: null }],
      [401, "GET /api/profile", { token: "op_not-a-token" }],
      [400, "POST /api/users", { body: { login: "typed", super_admin: { not: "a boolean" } } }],
      [400, "POST /api/sites", { payload: "{not json" }],
      [413, "POST /api/sites", { payload: JSON.stringify({ name: "x".repeat(13 * 1024 * 1024) }) }],
    ];
    for (const [status, call, options] of cases) {
      const [method, url] = call.split(" ");
      const id = nextId("error");
      const answer = await t.call(method, url, { ...options, headers: { "x-request-id": id } });
      assert.equal(answer.status, status, `${call}: ${answer.text.slice(0, 200)}`);
      assert.equal(answer.headers["x-request-id"], id, call);
      assert.equal((await lineOf(id)).status, status, call);
    }
    // Malformed percent-encoding is refused by the router, before any hook.
    const id = nextId("router");
    const refused = await rawRequest(port, "/media/x/%E0%A4%A", { headers: { "x-request-id": id } });
    assert.equal(refused.status, 400);
    assert.equal(rawHeader(refused, "x-request-id"), id);
    const line = await lineOf(id);
    assert.equal(line.route, "/media/x/%E0%A4%A");
    assert.equal(line.status, 400);
  });

  it("a caller past its limit is 429 with its id", async () => {
    const limited = await startTestApp({ env: { SVC_RATE_LIMIT_PER_MIN: "1" } });
    try {
      await limited.call("GET", "/api/profile");
      const answer = await limited.call("GET", "/api/profile", { headers: { "x-request-id": "over-the-limit" } });
      assert.equal(answer.status, 429);
      assert.equal(answer.headers["x-request-id"], "over-the-limit");
    } finally {
      await limited.close();
    }
  });

  it("a kept API read answered before Fastify: the caller's id, and one line with its route, site and user", {
    skip: testServerUrl ? "nothing is kept on PostgreSQL" : false,
  }, async () => {
    const path = `${S}/frames/card`;
    const auth = { authorization: `Bearer ${t.adminToken}` };
    await t.settled();
    await rawRequest(port, path, { headers: auth });
    const before = routed;
    const id = nextId("kept");
    const kept = await rawRequest(port, path, { headers: { ...auth, "x-request-id": id } });
    assert.equal(routed, before, "answered before Fastify");
    assert.equal(kept.status, 200);
    assert.equal(rawHeader(kept, "x-request-id"), id);
    const line = await lineOf(id);
    assert.deepEqual(
      { site_id: line.site_id, user_id: line.user_id, route: line.route, method: line.method, status: line.status },
      { site_id: 1, user_id: 1, route: "/api/site/:site_id/frames/:ref", method: "GET", status: 200 },
    );
    const made = await rawRequest(port, path, { headers: { ...auth, "x-request-id": "not valid!" } });
    assert.equal(routed, before, "answered before Fastify");
    assert.match(rawHeader(made, "x-request-id") ?? "", UUID);
    assert.equal((await lineOf(rawHeader(made, "x-request-id")!)).status, 200);
  });

  it("a public page held in memory: the caller's id, and one line with the host's site", async () => {
    t.deps.publicSite.cache.flushSite();
    const throughFastify = nextId("page");
    // With a query: the site's redirects by query are read then too (docs/seo.md), so the next
    // address with a query is answered from memory.
    assert.equal(
      (await rawRequest(port, "/still/?warm=1", { headers: { "x-request-id": throughFastify } })).status,
      200,
    );
    const before = routed;
    const id = nextId("page");
    const fromMemory = await rawRequest(port, "/still/?utm_source=x", { headers: { "x-request-id": id } });
    assert.equal(routed, before, "answered from memory");
    assert.equal(fromMemory.status, 200);
    assert.equal(rawHeader(fromMemory, "x-request-id"), id);
    for (const each of [throughFastify, id]) {
      const line = await lineOf(each);
      assert.deepEqual(
        { site_id: line.site_id, user_id: line.user_id, route: line.route, method: line.method, status: line.status },
        { site_id: 1, user_id: null, route: "/*", method: "GET", status: 200 },
      );
    }
  });

  it("a request no route takes logs its path without the query, secrets masked; no site, no Fastify lines", async () => {
    const api = nextId("unrouted");
    // Without a token: 401, the gate answering before the route is known to be none.
    assert.equal(
      (await rawRequest(port, "/api/no/such?token=Secret-Query-1234", { headers: { "x-request-id": api } })).status,
      401,
    );
    const apiLine = await lineOf(api);
    assert.equal(apiLine.route, "/api/no/such");
    assert.equal(apiLine.site_id, null);
    assert.equal(apiLine.user_id, null);
    const preview = nextId("unrouted");
    const answer = await rawRequest(port, "/_preview/Secret-Preview-5678/x", {
      method: "POST",
      headers: { "x-request-id": preview },
    });
    assert.equal(answer.status, 404);
    assert.equal((await lineOf(preview)).route, "/_preview/[redacted]/x");
    const all = JSON.stringify(lines);
    assert.ok(!all.includes("Secret-Query-1234") && !all.includes("Secret-Preview-5678"));
    assert.ok(!lines.some((line) => line.msg === "incoming request" || line.msg === "request completed"));
  });
});

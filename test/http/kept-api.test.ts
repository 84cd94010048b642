// API reads whose whole answer is kept are answered by the server's request listener before Fastify
// (src/http/kept-api.ts). Over real HTTP: the same bytes and headers as Fastify's answer, each call
// counted once, and every check as strict as through Fastify: a write, a revoked token, a removed
// membership or a caller past its limit takes effect on the very next call.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { rawHeader, rawRequest, type Raw } from "../support/raw-http.ts";
import { makeSite, makeUser, startTestApp, type TestApp } from "../support/app.ts";
import { frame, page } from "../support/site.ts";
import { testServerUrl } from "../support/database.ts";

/** Headers that differ between any two answers: the request id, the date and the caller's count. */
const PER_CALL = new Set(["x-request-id", "date", "x-ratelimit-remaining", "ratelimit"]);
const comparable = (raw: Raw) => raw.headers.map(([key, value]) => [key, PER_CALL.has(key) ? "" : value]);
const remaining = (raw: Raw) => Number(rawHeader(raw, "x-ratelimit-remaining"));

async function listening(limitPerMinute: string): Promise<{ t: TestApp; port: number; routed: () => number }> {
  let routed = 0;
  const t = await startTestApp({
    env: { SVC_RATE_LIMIT_PER_MIN: limitPerMinute },
    beforeReady: (app) => app.addHook("onResponse", async () => void routed++),
  });
  await t.app.listen({ host: "127.0.0.1", port: 0 });
  return { t, port: (t.app.server.address() as { port: number }).port, routed: () => routed };
}

// On PostgreSQL nothing is kept (store/kept-reads.ts): every read goes through Fastify.
describe("API reads answered before Fastify", { skip: testServerUrl ? "nothing is kept on PostgreSQL" : false }, () => {
  let t: TestApp;
  let port = 0;
  let routed: () => number;
  let site: number;
  let editor: { id: number; token: string };
  const get = (path: string, token: string, headers: Record<string, string> = {}) =>
    rawRequest(port, path, { headers: { authorization: `Bearer ${token}`, ...headers } });
  /**
   * The writes' own later steps are writes too, done before a read is kept: the outbox rows paid
   * deleted, and their events marked dispatched by the webhook worker (webhooks/dispatch.ts).
   */
  const settled = async () => {
    await t.settled();
    for (let waited = 0; waited < 200; waited++) {
      const waiting = await t.store.db
        .selectFrom("events")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("dispatched", "=", 0)
        .executeTakeFirstOrThrow();
      if (Number(waiting.n) === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };

  before(async () => {
    ({ t, port, routed } = await listening("1000000"));
    site = await makeSite(t, "Kept", "kept.example");
    editor = await makeUser(t, "kept-editor");
    assert.equal(
      (await t.call("PUT", `/api/site/${site}/users/${editor.id}`, { body: { role: "editor" } })).status,
      200,
    );
    await frame(t, "card", "<div>first</div>", `/api/site/${site}`);
    for (let i = 0; i < 3; i++) await page(t, { title: `Page ${i}` }, `/api/site/${site}`);
  });
  after(() => t.close());

  it("a kept frame read answers the same bytes and headers, in the same order, without Fastify", async () => {
    const path = `/api/site/${site}/frames/card`;
    await settled();
    const routedAnswer = await get(path, t.adminToken);
    const before = routed();
    const kept = await get(path, t.adminToken);
    assert.equal(routed(), before, "the second read was answered before Fastify");
    assert.equal(kept.status, 200);
    assert.equal(kept.body, routedAnswer.body);
    assert.deepEqual(comparable(kept), comparable(routedAnswer));
    assert.match(rawHeader(kept, "x-request-id") ?? "", /^[0-9a-f-]{36}$/);
    assert.notEqual(rawHeader(kept, "x-request-id"), rawHeader(routedAnswer, "x-request-id"));
  });

  it("a page list keeps its paging headers and the warning of an unknown parameter", async () => {
    const path = `/api/site/${site}/pages?per_page=2&colour=red`;
    await settled();
    const routedAnswer = await get(path, t.adminToken);
    const before = routed();
    const kept = await get(path, t.adminToken);
    assert.equal(routed(), before);
    assert.equal(JSON.parse(kept.body).warnings[0].code, "unknown_parameter");
    assert.equal(rawHeader(kept, "x-wp-totalpages"), "2");
    assert.match(rawHeader(kept, "link") ?? "", /rel="next"/);
    assert.deepEqual(comparable(kept), comparable(routedAnswer));
    assert.equal(kept.body, routedAnswer.body);
  });

  it("each call answered before Fastify is counted once against the caller's limit", async () => {
    const path = `/api/site/${site}/frames/card`;
    await settled();
    await get(path, editor.token);
    const counts: number[] = [];
    for (let i = 0; i < 4; i++) counts.push(remaining(await get(path, editor.token)));
    assert.deepEqual(
      counts.map((n) => counts[0] - n),
      [0, 1, 2, 3],
    );
  });

  it("a write shows on the very next read", async () => {
    const path = `/api/site/${site}/frames/card`;
    await get(path, t.adminToken);
    const put = await t.call("PUT", path, { body: { html: "<div>second</div>" } });
    assert.equal(put.status, 200);
    const next = await get(path, t.adminToken);
    assert.equal(JSON.parse(next.body).frame.html, "<div>second</div>");
  });

  it("a caller with no role on the site gets 404 site_not_found, not the kept answer", async () => {
    const path = `/api/site/${site}/frames/card`;
    const stranger = await makeUser(t, "kept-stranger");
    await settled();
    await get(path, t.adminToken);
    await get(path, stranger.token); // the stranger's caller, and their lack of a role, now kept too
    const before = routed();
    const refused = await get(path, stranger.token);
    assert.equal(refused.status, 404);
    assert.equal(JSON.parse(refused.body).code, "site_not_found");
    assert.equal(routed(), before + 1);
  });

  it("If-None-Match and a call without a token go to Fastify: 304, and 401 missing_token", async () => {
    const path = `/api/site/${site}/frames/card`;
    const etag = rawHeader(await get(path, t.adminToken), "etag")!;
    const before = routed();
    assert.equal((await get(path, t.adminToken, { "if-none-match": etag })).status, 304);
    const anonymous = await rawRequest(port, path);
    assert.equal(anonymous.status, 401);
    assert.equal(JSON.parse(anonymous.body).code, "missing_token");
    assert.equal(routed(), before + 2);
  });

  it("a removed membership answers 404 on the very next call", async () => {
    const member = await makeUser(t, "kept-member");
    const S = `/api/site/${site}`;
    assert.equal((await t.call("PUT", `${S}/users/${member.id}`, { body: { role: "editor" } })).status, 200);
    await settled();
    await get(`${S}/frames/card`, member.token);
    const before = routed();
    assert.equal((await get(`${S}/frames/card`, member.token)).status, 200);
    assert.equal(routed(), before, "answered before Fastify until then");
    assert.equal((await t.call("DELETE", `${S}/users/${member.id}`)).status, 200);
    const refused = await get(`${S}/frames/card`, member.token);
    assert.equal(refused.status, 404);
    assert.equal(JSON.parse(refused.body).code, "site_not_found");
  });

  it("a revoked token is refused on the very next call: 401 invalid_token", async () => {
    const holder = await makeUser(t, "kept-holder");
    const S = `/api/site/${site}`;
    assert.equal((await t.call("PUT", `${S}/users/${holder.id}`, { body: { role: "editor" } })).status, 200);
    await settled();
    await get(`${S}/frames/card`, holder.token);
    const before = routed();
    assert.equal((await get(`${S}/frames/card`, holder.token)).status, 200);
    assert.equal(routed(), before, "answered before Fastify until then");
    const tokens = await t.call("GET", `/api/users/${holder.id}/tokens`);
    const tokenId = tokens.body.tokens[0].token_id;
    assert.equal((await t.call("DELETE", `/api/users/${holder.id}/tokens/${tokenId}`)).status, 200);
    const refused = await get(`${S}/frames/card`, holder.token);
    assert.equal(refused.status, 401);
    assert.equal(JSON.parse(refused.body).code, "invalid_token");
  });
});

describe("a kept API read past the caller's limit", () => {
  it("is refused by Fastify with 429 too_many_requests, the call counted once", async () => {
    const { t, port, routed } = await listening("30");
    try {
      const site = await makeSite(t, "Limited", "limited.example");
      const editor = await makeUser(t, "limited-editor");
      assert.equal(
        (await t.call("PUT", `/api/site/${site}/users/${editor.id}`, { body: { role: "editor" } })).status,
        200,
      );
      const path = `/api/site/${site}/pages`;
      const get = () => rawRequest(port, path, { headers: { authorization: `Bearer ${editor.token}` } });
      const counts: number[] = [];
      for (let i = 0; i < 30; i++) counts.push(remaining(await get()));
      assert.deepEqual(
        counts,
        counts.map((_, i) => 29 - i),
      );
      const before = routed();
      const refused = await get();
      assert.equal(refused.status, 429);
      assert.equal(JSON.parse(refused.body).code, "too_many_requests");
      assert.equal(remaining(refused), 0);
      assert.ok(Number(rawHeader(refused, "retry-after")) >= 1);
      assert.equal(routed(), before + 1, "the refusal came from Fastify");
    } finally {
      await t.close();
    }
  });
});

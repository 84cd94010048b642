// The typed client against the real service over a socket (docs/client.md): typed calls end to
// end, site-scoped calls, refusals as ApiError in both envelopes, at most 4 calls in flight
// counted on the server, and 503 database_unavailable retried.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ApiError, createSiteClient, unwrap, type Wait } from "../../src/client/index.ts";
import { makeSite } from "../support/app.ts";
import { serveApp, type ServedApp } from "./server.ts";

const embed = (slug: string) => `<!-- svc/frame {"name": "${slug}"} /-->`;

describe("typed client: calls end to end", () => {
  let t: ServedApp;
  before(async () => {
    t = await serveApp();
  });
  after(() => t.close());

  it("creates a frame on the option's site and reads it back, typed", async () => {
    const svc = createSiteClient({ url: t.origin, token: t.adminToken });
    assert.equal(svc.site.siteId, 1);
    const created = await svc.site.POST("/frames", { body: { slug: "hello", html: "<p>Hello</p>" } });
    assert.equal(created.response.status, 201);
    assert.equal(created.data?.frame.slug, "hello");
    const etag = created.response.headers.get("etag");
    assert.ok(etag);

    const { frame } = await unwrap(svc.site.GET("/frames/{ref}", { params: { path: { ref: "hello" } } }));
    assert.equal(frame.html, "<p>Hello</p>");
    const sha: string = frame.sha256;
    assert.match(sha, /^[0-9a-f]{64}$/);

    const list = await unwrap(svc.site.GET("/frames", { params: { query: { q: "hel" } } }));
    assert.equal(list.total, 1);
    assert.deepEqual(
      list.frames.map((f) => f.slug),
      ["hello"],
    );

    // If-Match carried as a header of one call; a stale one is 412 precondition_failed.
    const put = await unwrap(
      svc.site.PUT("/frames/{ref}", {
        params: { path: { ref: "hello" } },
        headers: { "If-Match": etag },
        body: { html: "<p>Hi</p>" },
      }),
    );
    assert.equal(put.frame.bytes, 9);
    const stale = await svc.site.PUT("/frames/{ref}", {
      params: { path: { ref: "hello" } },
      headers: { "If-Match": etag },
      body: { html: "<p>Hey</p>" },
    });
    const error = ApiError.from(stale.error, stale.response);
    assert.equal(error.status, 412);
    assert.equal(error.code, "precondition_failed");
  });

  it("reaches every path by its full address, and another site through forSite", async () => {
    const svc = createSiteClient({ url: `${t.origin}/`, token: t.adminToken });
    const other = await makeSite(t, "Other", "other.example");
    const sites = await unwrap(svc.GET("/api/sites"));
    assert.ok(sites.sites.some((site) => site.id === other));
    await unwrap(svc.forSite(other).POST("/frames", { body: { slug: "there", html: "<p>there</p>" } }));
    const full = await unwrap(svc.GET("/api/site/{site_id}/frames", { params: { path: { site_id: other } } }));
    assert.deepEqual(
      full.frames.map((f) => f.slug),
      ["there"],
    );
    const own = await unwrap(svc.site.GET("/frames", { params: { query: { q: "there" } } }));
    assert.equal(own.total, 0);
    const scoped = createSiteClient({ url: t.origin, token: t.adminToken, site: other });
    assert.equal((await unwrap(scoped.site.GET("/frames"))).total, 1);
  });

  it("a handler's refusal is an ApiError with code, message, status and details, printed in one line", async () => {
    const svc = createSiteClient({ url: t.origin, token: t.adminToken });
    await assert.rejects(
      unwrap(svc.site.POST("/frames", { body: { slug: "loop", html: embed("loop") } })),
      (error: unknown) => {
        assert.ok(error instanceof ApiError);
        assert.equal(error.code, "frame_cycle");
        assert.equal(error.status, 400);
        assert.deepEqual(error.details.cycle, ["loop", "loop"]);
        assert.match(error.message, /loop/);
        assert.equal(error.line, `frame_cycle: ${error.message}`);
        assert.doesNotMatch(error.line, /\n/);
        return true;
      },
    );
    await assert.rejects(unwrap(svc.site.GET("/frames/{ref}", { params: { path: { ref: "nowhere" } } })), {
      name: "ApiError",
      code: "frame_not_found",
      status: 404,
    });
  });

  it("a refusal before a handler ({code, message, data}) reads the same way", async () => {
    const svc = createSiteClient({ url: t.origin, token: "not-a-token" });
    await assert.rejects(unwrap(svc.site.GET("/frames")), (error: unknown) => {
      assert.ok(error instanceof ApiError);
      assert.equal(error.code, "invalid_token");
      assert.equal(error.status, 401);
      assert.match(error.line, /^invalid_token: \S/);
      assert.deepEqual(error.details, {});
      return true;
    });
    const bad = createSiteClient({ url: t.origin, token: t.adminToken, site: 999 });
    await assert.rejects(unwrap(bad.site.GET("/frames")), { code: "site_not_found", status: 404 });
  });

  it("refuses options that cannot work, before any call", () => {
    assert.throws(() => createSiteClient({ url: "127.0.0.1:8080", token: "x" }), /url/);
    assert.throws(() => createSiteClient({ url: t.origin, token: " " }), /token/);
    assert.throws(() => createSiteClient({ url: t.origin, token: "x", site: 0 }), /site/);
    assert.throws(() => createSiteClient({ url: t.origin, token: "x", csrfToken: "y" }), /token/);
  });

  it("in the admin, signed in by its cookie, sends the session's CSRF token and no Authorization", async () => {
    const sent: Request[] = [];
    const svc = createSiteClient({
      url: t.origin,
      csrfToken: "csrf-of-the-session",
      pacing: false,
      fetch: async (request) => {
        sent.push(request);
        return Response.json({ success: true, page: { id: 1 } }, { status: 201 });
      },
    });
    await svc.site.POST("/pages", { body: { title: "By the admin" } });
    assert.equal(sent[0]?.headers.get("x-csrf-token"), "csrf-of-the-session");
    assert.equal(sent[0]?.headers.get("authorization"), null);
  });
});

describe("typed client: in flight", () => {
  let t: ServedApp;
  before(async () => {
    t = await serveApp({ holdMs: 40 });
  });
  after(() => t.close());

  it("never has more than 4 calls on the server at once, however many are started", async () => {
    const svc = createSiteClient({ url: t.origin, token: t.adminToken });
    const calls = Array.from({ length: 30 }, (_, i) =>
      unwrap(svc.site.POST("/frames", { body: { slug: `burst-${i}`, html: `<p>${i}</p>` } })),
    );
    const answers = await Promise.all(calls);
    assert.equal(answers.length, 30);
    assert.equal(t.load.most, 4, `the server saw ${t.load.most} at once`);
    assert.equal(svc.pacing?.inFlight(), 0);
  });

  it("takes another limit, and shares one among clients given the same pacing", async () => {
    t.load.most = 0;
    const one = createSiteClient({ url: t.origin, token: t.adminToken, pacing: { maxInFlight: 2 } });
    const two = createSiteClient({ url: t.origin, token: t.adminToken, pacing: one.pacing! });
    await Promise.all(Array.from({ length: 12 }, (_, i) => unwrap((i % 2 ? one : two).site.GET("/frames"))));
    assert.equal(t.load.most, 2);
  });
});

describe("typed client: 503 database_unavailable", () => {
  let t: ServedApp;
  let failures = 0;
  before(async () => {
    t = await serveApp({
      beforeReady(app) {
        // The first `failures` calls of GET /frames/flaky meet a database that does not answer
        // (the real error handler answers 503 database_unavailable); Retry-After shortened to 1 s.
        app.addHook("preHandler", async (request) => {
          if (/\/frames\/flaky(-again)?$/.test(request.url) && failures > 0) {
            failures--;
            throw Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });
          }
        });
        app.addHook("onSend", async (_request, reply) => {
          if (reply.statusCode === 503) reply.header("retry-after", "1");
        });
      },
    });
    // Two frames: once read, a frame's answer is kept and answered before Fastify's hooks
    // (src/http/kept-api.ts), so each test reads one no call answered before.
    for (const slug of ["flaky", "flaky-again"])
      await unwrap(
        createSiteClient({ url: t.origin, token: t.adminToken }).site.POST("/frames", {
          body: { slug, html: "<p>f</p>" },
        }),
      );
  });
  after(() => t.close());

  it("is retried after Retry-After, told through onWait, and the call succeeds", async () => {
    failures = 2;
    const waits: Wait[] = [];
    const svc = createSiteClient({
      url: t.origin,
      token: t.adminToken,
      pacing: { onWait: (wait) => waits.push(wait) },
    });
    const { frame } = await unwrap(svc.site.GET("/frames/{ref}", { params: { path: { ref: "flaky" } } }));
    assert.equal(frame.slug, "flaky");
    assert.equal(failures, 0);
    assert.deepEqual(waits, [
      { seconds: 1, reason: "database unavailable" },
      { seconds: 1, reason: "database unavailable" },
    ]);
    assert.deepEqual(t.load.statuses.slice(-3), [503, 503, 200]);
  });

  it("is given up after the retries allowed, as an ApiError database_unavailable", async () => {
    failures = 5;
    const svc = createSiteClient({ url: t.origin, token: t.adminToken, pacing: { unavailableRetries: 1 } });
    await assert.rejects(unwrap(svc.site.GET("/frames/{ref}", { params: { path: { ref: "flaky-again" } } })), {
      code: "database_unavailable",
      status: 503,
    });
    assert.equal(failures, 3);
  });
});

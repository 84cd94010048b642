// Time windows move on node:test's mocked Date, which drives both our clock and
// rate-limiter-flexible's windows: no test waits for a minute.
import { afterEach, beforeEach, describe, it, mock } from "node:test";
import assert from "node:assert/strict";
import { makeUser, startTestApp, type TestApp } from "../support/app.ts";

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);

describe("failed-authentication lockout", () => {
  let t: TestApp;
  beforeEach(async () => {
    mock.timers.enable({ apis: ["Date"], now: T0 });
    t = await startTestApp({ env: { SVC_AUTH_FAILURES_PER_MIN: "20" } });
  });
  afterEach(async () => {
    await t.close();
    mock.timers.reset();
  });

  it("after 20 failures in a minute an address gets 429 too_many_auth_failures without a valid token, until the window passes (a valid token is served: test/security/lockout.test.ts)", async () => {
    const ip = "10.0.0.1";
    const bad = `op_${"x".repeat(64)}`;
    for (let i = 0; i < 20; i++) {
      const r = await t.call("GET", "/api/profile", { token: bad, ip });
      assert.equal(r.status, 401, `attempt ${i + 1}`);
    }
    assert.equal((await t.call("GET", "/api/profile", { token: null, ip })).status, 429, "no token");
    const locked = await t.call("GET", "/api/profile", { token: bad, ip });
    assert.equal(locked.status, 429);
    assert.deepEqual([locked.body.code, locked.body.data.status], ["too_many_auth_failures", 429]);
    const retryAfter = Number(locked.headers["retry-after"]);
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);

    assert.equal(
      (await t.call("GET", "/api/profile", { token: bad, ip: "10.0.0.2" })).status,
      401,
      "another address is not locked",
    );

    mock.timers.tick(30_000);
    assert.equal(
      (await t.call("GET", "/api/profile", { token: bad, ip })).status,
      429,
      "still locked inside the window",
    );
    mock.timers.tick(31_000);
    assert.equal(
      (await t.call("GET", "/api/profile", { token: bad, ip })).status,
      401,
      "open again once the window has passed",
    );
  });

  it("a missing token does not count toward the lockout", async () => {
    const ip = "10.0.0.3";
    for (let i = 0; i < 25; i++) assert.equal((await t.call("GET", "/api/profile", { token: null, ip })).status, 401);
    assert.equal((await t.call("GET", "/api/profile", { ip })).status, 200);
  });

  it("wrong passwords and unknown logins count as failures and answer 401 invalid_credentials alike", async () => {
    const ip = "10.0.0.4";
    await makeUser(t, "pw-user", { password: "correct horse" });
    const wrong = await t.call("POST", "/api/login", {
      token: null,
      ip,
      body: { login: "pw-user", password: "nope nope" },
    });
    const unknown = await t.call("POST", "/api/login", {
      token: null,
      ip,
      body: { login: "nobody", password: "nope nope" },
    });
    assert.equal(wrong.status, 401);
    assert.deepEqual(wrong.body, unknown.body);
    assert.equal(wrong.body.error, "invalid_credentials");
    for (let i = 0; i < 18; i++)
      await t.call("POST", "/api/login", { token: null, ip, body: { login: "pw-user", password: "bad" } });
    const locked = await t.call("POST", "/api/login", {
      token: null,
      ip,
      body: { login: "pw-user", password: "correct horse" },
    });
    assert.equal(locked.status, 429);
    assert.equal(locked.body.code, "too_many_auth_failures");
  });
});

describe("request limit", () => {
  let t: TestApp;
  beforeEach(async () => {
    mock.timers.enable({ apis: ["Date"], now: T0 });
    t = await startTestApp({ env: { SVC_RATE_LIMIT_PER_MIN: "5" } });
  });
  afterEach(async () => {
    await t.close();
    mock.timers.reset();
  });

  it("every answer carries the X-RateLimit-* fields and the IETF draft's RateLimit-Policy and RateLimit", async () => {
    const r = await t.call("GET", "/api/profile");
    assert.equal(r.headers["x-ratelimit-limit"], "5");
    assert.equal(r.headers["x-ratelimit-remaining"], "4");
    assert.equal(r.headers["x-ratelimit-reset"], "60");
    assert.equal(r.headers["ratelimit-policy"], '"default";q=5;w=60');
    assert.equal(r.headers.ratelimit, '"default";r=4;t=60');
    const error = await t.call("GET", "/api/nowhere");
    assert.equal(error.headers["x-ratelimit-remaining"], "3", "error answers carry them too");
  });

  it("past the limit a token gets 429 too_many_requests with Retry-After, and its budget returns after the window", async () => {
    for (let i = 0; i < 5; i++) assert.equal((await t.call("GET", "/api/profile")).status, 200);
    mock.timers.tick(20_000);
    const limited = await t.call("GET", "/api/profile");
    assert.equal(limited.status, 429);
    assert.equal(limited.body.code, "too_many_requests");
    assert.equal(limited.headers["retry-after"], "40");
    assert.equal(limited.headers["x-ratelimit-remaining"], "0");
    mock.timers.tick(40_001);
    assert.equal((await t.call("GET", "/api/profile")).status, 200);
  });

  it("the limit is counted per user (all its tokens share one budget), and per address for calls without a valid token", async () => {
    for (let i = 0; i < 5; i++) await t.call("GET", "/api/profile");
    assert.equal((await t.call("GET", "/api/profile")).status, 429);
    // a second token of the same user shares the spent budget (it used to have its own)
    const { generateToken, hashToken } = await import("../../src/tokens.ts");
    const other = generateToken();
    await t.store.db
      .insertInto("tokens")
      .values({
        user_id: 1,
        label: "other",
        hash: hashToken(other),
        created_at_gmt: "2026-11-21 12:00:00",
        last_issued_at_gmt: "2026-11-21 12:00:00",
      })
      .execute();
    assert.equal((await t.call("GET", "/api/profile", { token: other })).status, 429);
    // another user has a budget of its own
    const user = await t.store.db
      .insertInto("users")
      .values({
        login: "someone",
        email: null,
        password_hash: null,
        super_admin: 0,
        created_at_gmt: "2026-11-21 12:00:00",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const theirs = generateToken();
    await t.store.db
      .insertInto("tokens")
      .values({
        user_id: user.id,
        label: "theirs",
        hash: hashToken(theirs),
        created_at_gmt: "2026-11-21 12:00:00",
        last_issued_at_gmt: "2026-11-21 12:00:00",
      })
      .execute();
    assert.equal((await t.call("GET", "/api/profile", { token: theirs })).status, 200);

    for (let i = 0; i < 5; i++)
      assert.equal((await t.call("GET", "/api/profile", { token: null, ip: "10.1.1.1" })).status, 401);
    assert.equal((await t.call("GET", "/api/profile", { token: null, ip: "10.1.1.1" })).status, 429);
    assert.equal(
      (await t.call("GET", "/api/profile", { token: null, ip: "10.1.1.2" })).status,
      401,
      "another address has its own budget",
    );
  });
});

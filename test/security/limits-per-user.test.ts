// Limits per user (docs/security.md): the API rate limit counts per user, and a user holds at most
// 50 live tokens.
// Before: the limit counted per token and a user could mint any number of tokens, so one user had
// no limit at all. Windows move on node:test's mocked Date (as test/http/limits.test.ts): no test
// waits for a minute.
import { afterEach, beforeEach, describe, it, mock } from "node:test";
import assert from "node:assert/strict";
import { makeUser, startTestApp, type TestApp } from "../support/app.ts";
import { generateToken, hashToken } from "../../src/tokens.ts";
import { TOKENS_PER_USER } from "../../src/network/tokens-service.ts";

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);

async function liveTokens(t: TestApp, userId: number): Promise<number> {
  const rows = await t.store.db.selectFrom("tokens").select("id").where("user_id", "=", userId).execute();
  return rows.length;
}

/** Tokens written straight to the table (fast), as a user who minted or logged in many times. */
async function addTokens(t: TestApp, userId: number, n: number, label: string): Promise<void> {
  const at = "2026-11-21 12:00:00";
  const values = Array.from({ length: n }, () => ({
    user_id: userId,
    label,
    hash: hashToken(generateToken()),
    created_at_gmt: at,
    last_issued_at_gmt: at,
  }));
  if (values.length > 0) await t.store.db.insertInto("tokens").values(values).execute();
}

describe("security: the API rate limit counts per user, not per token", () => {
  let t: TestApp;
  beforeEach(async () => {
    mock.timers.enable({ apis: ["Date"], now: T0 });
    t = await startTestApp({ env: { SVC_RATE_LIMIT_PER_MIN: "5" } });
  });
  afterEach(async () => {
    await t.close();
    mock.timers.reset();
  });

  it("a fresh token of a user who spent its budget is refused too: minting tokens buys no requests; the window reopens for every token", async () => {
    const user = await makeUser(t, "hoarder"); // two admin calls: the admin's own budget
    for (let i = 0; i < 5; i++)
      assert.equal((await t.call("GET", "/api/profile", { token: user.token })).status, 200, `call ${i + 1}`);
    assert.equal((await t.call("GET", "/api/profile", { token: user.token })).status, 429);

    // The attack: a new token for each exhausted one. Minting it is itself a call of the same
    // user, so it is refused (429); and a token made meanwhile by a super-administrator shares
    // the user's spent budget.
    const minted = await t.call("POST", "/api/users/me/tokens", { token: user.token, body: {} });
    assert.equal(minted.status, 429);
    const issued = await t.call("POST", `/api/users/${user.id}/tokens`, { body: { label: "second" } });
    assert.equal(issued.status, 201);
    const second = await t.call("GET", "/api/profile", { token: issued.body.token });
    assert.equal(second.status, 429);
    assert.equal(second.body.code, "too_many_requests");
    assert.equal(second.headers["x-ratelimit-remaining"], "0");
    assert.ok(Number(second.headers["retry-after"]) >= 1);

    // Another user, and an address without a token, keep budgets of their own.
    const other = await makeUser(t, "bystander");
    assert.equal((await t.call("GET", "/api/profile", { token: other.token })).status, 200);

    mock.timers.tick(60_001);
    assert.equal(
      (await t.call("GET", "/api/profile", { token: issued.body.token })).status,
      200,
      "a new window for the user",
    );
    assert.equal((await t.call("GET", "/api/profile", { token: user.token })).status, 200);
  });
});

describe("security: a user holds at most 50 live tokens", () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp();
  });
  afterEach(() => t.close());

  it("minting the 51st, by the user or by a super-administrator, is 409 token_limit_reached with limit and used; nothing is stored", async () => {
    assert.equal(TOKENS_PER_USER, 50);
    const user = await makeUser(t, "minter"); // one token
    for (let i = 2; i <= 50; i++) {
      const r = await t.call("POST", "/api/users/me/tokens", { token: user.token, body: { label: `t${i}` } });
      assert.equal(r.status, 201, `token ${i}: ${r.text}`);
    }
    assert.equal(await liveTokens(t, user.id), 50);

    const bySelf = await t.call("POST", "/api/users/me/tokens", { token: user.token, body: { label: "one too many" } });
    assert.equal(bySelf.status, 409);
    assert.deepEqual(bySelf.body, {
      success: false,
      error: "token_limit_reached",
      message: bySelf.body.message,
      limit: 50,
      used: 50,
    });
    const byAdmin = await t.call("POST", `/api/users/${user.id}/tokens`, { body: {} });
    assert.equal(byAdmin.status, 409);
    assert.deepEqual(byAdmin.body, bySelf.body);
    assert.equal(await liveTokens(t, user.id), 50, "nothing stored");
    assert.equal((await t.call("GET", "/api/users/me/tokens", { token: user.token })).body.total, 50);
  });

  it("reissuing keeps the count; revoking frees a place", async () => {
    const user = await makeUser(t, "rotator");
    await addTokens(t, user.id, 49, "script");
    const listed = await t.call("GET", "/api/users/me/tokens", { token: user.token, query: { per_page: "100" } });
    const some = listed.body.tokens[10].token_id as number;

    const reissued = await t.call("POST", `/api/users/me/tokens/${some}/reissue`, { token: user.token });
    assert.equal(reissued.status, 200, reissued.text);
    assert.equal(await liveTokens(t, user.id), 50, "a reissue is no new token");
    assert.equal((await t.call("POST", "/api/users/me/tokens", { token: user.token, body: {} })).status, 409);

    assert.equal((await t.call("DELETE", `/api/users/me/tokens/${some}`, { token: user.token })).status, 200);
    assert.equal(await liveTokens(t, user.id), 49);
    assert.equal(
      (await t.call("POST", "/api/users/me/tokens", { token: user.token, body: {} })).status,
      201,
      "the freed place is taken",
    );
    assert.equal((await t.call("POST", "/api/users/me/tokens", { token: user.token, body: {} })).status, 409);
  });

  it("race-safe: 20 mints at once for a user with 45 tokens store exactly 5", async () => {
    const user = await makeUser(t, "racer");
    await addTokens(t, user.id, 44, "script");
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.call("POST", `/api/users/${user.id}/tokens`, { body: { label: `race ${i}` } }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    assert.deepEqual(statuses, [...Array(5).fill(201), ...Array(15).fill(409)]);
    assert.equal(await liveTokens(t, user.id), 50);
  });

  it("a login at the cap replaces the user's oldest login token (which stops working); with no login token to replace, it is 409 too", async () => {
    const user = await makeUser(t, "returning", { password: "correct horse" });
    await addTokens(t, user.id, 49, "login");
    const oldest = await t.store.db
      .selectFrom("tokens")
      .select("id")
      .where("user_id", "=", user.id)
      .where("label", "=", "login")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const login = await t.call("POST", "/api/login", {
      token: null,
      body: { login: "returning", password: "correct horse" },
    });
    assert.equal(login.status, 200, login.text);
    assert.equal(await liveTokens(t, user.id), 50);
    const gone = await t.store.db.selectFrom("tokens").select("id").where("id", "=", oldest.id).executeTakeFirst();
    assert.equal(gone, undefined, "the oldest login token is revoked");
    assert.equal((await t.call("GET", "/api/profile", { token: login.body.token })).status, 200);
    assert.equal(
      (await t.call("GET", "/api/profile", { token: user.token })).status,
      200,
      "a token the user made itself is kept",
    );

    const scripted = await makeUser(t, "scripted", { password: "correct horse" });
    await addTokens(t, scripted.id, 49, "script");
    const refused = await t.call("POST", "/api/login", {
      token: null,
      body: { login: "scripted", password: "correct horse" },
    });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error, "token_limit_reached");
    assert.equal(await liveTokens(t, scripted.id), 50);
  });
});

import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { makeUser, startTestApp, type TestApp } from "../support/app.ts";

describe("authentication", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("no token header answers 401 missing_token in the pre-handler envelope", async () => {
    const r = await t.call("GET", "/api/profile", { token: null });
    assert.equal(r.status, 401);
    assert.deepEqual(r.body, { code: "missing_token", message: r.body.message, data: { status: 401 } });
  });

  it("a token is accepted in Authorization: Bearer and in X-Svc-Key", async () => {
    const bearer = await t.call("GET", "/api/profile", {
      token: null,
      headers: { authorization: `Bearer ${t.adminToken}` },
    });
    assert.equal(bearer.status, 200);
    assert.equal(bearer.body.user.login, "admin");
    const key = await t.call("GET", "/api/profile", { token: null, headers: { "x-svc-key": t.adminToken } });
    assert.equal(key.status, 200);
  });

  it("malformed, truncated and unknown tokens answer 401 invalid_token", async () => {
    const cases = ["garbage", t.adminToken.slice(0, 40), `op_${"A".repeat(64)}`, `${t.adminToken}x`];
    for (const token of cases) {
      const r = await t.call("GET", "/api/profile", { token, ip: "10.9.9.9" });
      assert.equal(r.status, 401, token);
      assert.equal(r.body.code, "invalid_token");
    }
  });

  it("a revoked token answers 401 invalid_token from then on", async () => {
    const user = await makeUser(t, "revokee");
    const second = await t.call("POST", "/api/users/me/tokens", { token: user.token, body: { label: "second" } });
    assert.equal((await t.call("GET", "/api/profile", { token: second.body.token })).status, 200);
    const revoked = await t.call("DELETE", `/api/users/${user.id}/tokens/${second.body.token_id}`, {
      token: user.token,
    });
    assert.equal(revoked.status, 200);
    const after = await t.call("GET", "/api/profile", { token: second.body.token, ip: "10.9.9.8" });
    assert.equal(after.status, 401);
    assert.equal(after.body.code, "invalid_token");
    assert.equal(
      (await t.call("GET", "/api/profile", { token: user.token })).status,
      200,
      "the other token still works",
    );
  });

  it("a reissued token gets a new secret and the old secret answers 401 invalid_token", async () => {
    const user = await makeUser(t, "reissuer");
    const tokens = await t.call("GET", "/api/users/me/tokens", { token: user.token });
    const tokenId = tokens.body.tokens[0].token_id;
    const reissued = await t.call("POST", `/api/users/${user.id}/tokens/${tokenId}/reissue`, { token: user.token });
    assert.equal(reissued.status, 200);
    assert.equal(reissued.body.token_id, tokenId);
    assert.match(reissued.body.token, /^op_[A-Za-z0-9]{64}$/);
    assert.equal(
      (await t.call("GET", "/api/profile", { token: user.token, ip: "10.9.9.7" })).body.code,
      "invalid_token",
    );
    assert.equal((await t.call("GET", "/api/profile", { token: reissued.body.token })).status, 200);
  });

  it("tokens are stored only as SHA-256 hashes", async () => {
    const issued = await t.call("POST", "/api/users/me/tokens", { body: { label: "hash check" } });
    const rows = await t.store.db.selectFrom("tokens").selectAll().execute();
    const dump = JSON.stringify(rows);
    assert.ok(!dump.includes(issued.body.token), "the secret is not in the database");
    assert.ok(!dump.includes(t.adminToken));
    const expected = createHash("sha256").update(issued.body.token).digest("hex");
    assert.ok(rows.some((row) => row.hash === expected));
  });

  it("another user's tokens are 403 insufficient_role; a super-administrator may issue for anyone", async () => {
    const a = await makeUser(t, "token-owner");
    const b = await makeUser(t, "token-snoop");
    const r = await t.call("POST", `/api/users/${a.id}/tokens`, { token: b.token, body: {} });
    assert.equal(r.status, 403);
    assert.equal(r.body.error, "insufficient_role");
    const list = await t.call("GET", `/api/users/${a.id}/tokens`, { token: b.token });
    assert.equal(list.status, 403);
    const bySuper = await t.call("POST", `/api/users/${a.id}/tokens`, { body: { label: "ops" } });
    assert.equal(bySuper.status, 201);
    assert.equal((await t.call("GET", "/api/profile", { token: bySuper.body.token })).body.user.id, a.id);
  });

  it("the token list shows labels and ids but never a secret; unknown tokens are 404 token_not_found", async () => {
    const list = await t.call("GET", "/api/users/me/tokens");
    assert.equal(list.status, 200);
    assert.ok(list.body.tokens.every((tk: any) => !("token" in tk) && !("hash" in tk)));
    const missing = await t.call("DELETE", "/api/users/me/tokens/99999");
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, "token_not_found");
  });
});

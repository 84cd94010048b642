// Callers, roles and sites are kept between API calls until the database changes
// (store/kept-reads.ts), and a read's answer with them: a revoked or reissued token, a removed
// membership and a lowered role must still take effect on the very next call, even when the call
// before it was answered from what was kept.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, makeUser, startTestApp, type TestApp } from "../support/app.ts";

describe("what is kept between calls never outlives a change of access", () => {
  let t: TestApp;
  let site: number;
  before(async () => {
    t = await startTestApp();
    site = await makeSite(t, "Kept", "kept.example");
    const frame = await t.call("POST", `/api/site/${site}/frames`, { body: { slug: "card", html: "<p>card</p>" } });
    assert.equal(frame.status, 201, frame.text);
  });
  after(() => t.close());

  /** A user administering the site, whose frame read has been answered twice (the second from what was kept). */
  async function keptAdministrator(login: string) {
    const user = await makeUser(t, login);
    assert.equal(
      (await t.call("PUT", `/api/site/${site}/users/${user.id}`, { body: { role: "administrator" } })).status,
      200,
    );
    for (let i = 0; i < 2; i++) {
      const read = await t.call("GET", `/api/site/${site}/frames/card`, { token: user.token });
      assert.equal(read.status, 200, read.text);
      const list = await t.call("GET", `/api/site/${site}/pages`, { token: user.token });
      assert.equal(list.status, 200, list.text);
    }
    return user;
  }

  it("a revoked token answers 401 invalid_token on the next site call, whose answer was kept", async () => {
    const user = await keptAdministrator("kept-revoked");
    const tokens = await t.call("GET", `/api/users/${user.id}/tokens`);
    const revoked = await t.call("DELETE", `/api/users/${user.id}/tokens/${tokens.body.tokens[0].token_id}`);
    assert.equal(revoked.status, 200, revoked.text);
    const next = await t.call("GET", `/api/site/${site}/frames/card`, { token: user.token, ip: "10.7.0.1" });
    assert.equal(next.status, 401);
    assert.equal(next.body.code, "invalid_token");
  });

  it("a reissued token's old secret answers 401 invalid_token on the next site call; the new one is served", async () => {
    const user = await keptAdministrator("kept-reissued");
    const tokens = await t.call("GET", `/api/users/${user.id}/tokens`);
    const reissued = await t.call("POST", `/api/users/${user.id}/tokens/${tokens.body.tokens[0].token_id}/reissue`);
    assert.equal(reissued.status, 200, reissued.text);
    const old = await t.call("GET", `/api/site/${site}/pages`, { token: user.token, ip: "10.7.0.2" });
    assert.equal(old.status, 401);
    assert.equal(old.body.code, "invalid_token");
    const fresh = await t.call("GET", `/api/site/${site}/pages`, { token: reissued.body.token });
    assert.equal(fresh.status, 200, fresh.text);
  });

  it("a removed membership answers 404 site_not_found on the next call, as for any site the caller does not hold", async () => {
    const user = await keptAdministrator("kept-removed");
    const removed = await t.call("DELETE", `/api/site/${site}/users/${user.id}`);
    assert.equal(removed.status, 200, removed.text);
    for (const path of ["/frames/card", "/pages"]) {
      const next = await t.call("GET", `/api/site/${site}${path}`, { token: user.token });
      assert.equal(next.status, 404, path);
      assert.equal(next.body.code, "site_not_found", path);
    }
  });

  it("a role lowered from administrator takes effect on the next call: the kept administrator's answers are not served", async () => {
    const user = await keptAdministrator("kept-lowered");
    const lowered = await t.call("PUT", `/api/site/${site}/users/${user.id}`, { body: { role: "editor" } });
    assert.equal(lowered.status, 200, lowered.text);
    const next = await t.call("PUT", `/api/site/${site}/frames/card`, {
      token: user.token,
      body: { html: "<p>changed by an editor</p>" },
    });
    assert.notEqual(next.status, 200, next.text);
    assert.ok(["site_not_found", "insufficient_role"].includes(next.body.code), next.text);
    assert.equal((await t.call("GET", `/api/site/${site}/frames/card`)).body.frame.html, "<p>card</p>");
  });
});

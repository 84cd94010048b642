import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, makeUser, startTestApp, type TestApp } from "../support/app.ts";

describe("users, roles, login and profile", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("POST /api/users creates a user: 201 {user: {id, login, email, super_admin}}", async () => {
    const r = await t.call("POST", "/api/users", {
      body: { login: "alice", email: "alice@example.com", password: "s3cret-pass" },
    });
    assert.equal(r.status, 201);
    assert.deepEqual(
      { login: r.body.user.login, email: r.body.user.email, super_admin: r.body.user.super_admin },
      { login: "alice", email: "alice@example.com", super_admin: false },
    );
    assert.ok(Number.isInteger(r.body.user.id));
    assert.ok(!("password" in r.body.user) && !("password_hash" in r.body.user));
  });

  it("a taken login is 409 login_taken; bad input gets its own 400 code", async () => {
    await makeUser(t, "bob");
    assert.equal((await t.call("POST", "/api/users", { body: { login: "bob" } })).body.error, "login_taken");
    assert.equal((await t.call("POST", "/api/users", { body: {} })).body.error, "login_required");
    assert.equal((await t.call("POST", "/api/users", { body: { login: "no spaces" } })).body.error, "invalid_login");
    assert.equal(
      (await t.call("POST", "/api/users", { body: { login: "carol", email: "nope" } })).body.error,
      "invalid_email",
    );
    assert.equal(
      (await t.call("POST", "/api/users", { body: { login: "carol", password: "short" } })).body.error,
      "weak_password",
    );
  });

  it("creating a user needs a super-administrator", async () => {
    const plain = await makeUser(t, "dave");
    const r = await t.call("POST", "/api/users", { token: plain.token, body: { login: "eve" } });
    assert.equal(r.status, 403);
    assert.equal(r.body.error, "insufficient_role");
  });

  it("login trades a password for a new working token; passwords are stored as scrypt hashes", async () => {
    const user = await makeUser(t, "frank", { password: "frank-password" });
    const r = await t.call("POST", "/api/login", { token: null, body: { login: "frank", password: "frank-password" } });
    assert.equal(r.status, 200);
    assert.equal(r.body.user.id, user.id);
    assert.match(r.body.token, /^op_[A-Za-z0-9]{64}$/);
    assert.equal((await t.call("GET", "/api/profile", { token: r.body.token })).body.user.login, "frank");
    const row = await t.store.db
      .selectFrom("users")
      .select("password_hash")
      .where("login", "=", "frank")
      .executeTakeFirstOrThrow();
    assert.match(String(row.password_hash), /^scrypt\$/);
    assert.ok(!String(row.password_hash).includes("frank-password"));
  });

  it("a user without a password cannot log in", async () => {
    await makeUser(t, "nopass");
    const r = await t.call("POST", "/api/login", {
      token: null,
      ip: "10.3.3.3",
      body: { login: "nopass", password: "" },
    });
    assert.equal(r.status, 401);
    assert.equal(r.body.error, "invalid_credentials");
  });

  it("PUT /api/site/{site}/users/{user} sets a role; the profile lists it; DELETE removes it", async () => {
    const siteId = await makeSite(t, "Roles", "roles.localhost");
    const user = await makeUser(t, "grace");
    const put = await t.call("PUT", `/api/site/${siteId}/users/${user.id}`, { body: { role: "editor" } });
    assert.equal(put.status, 200);
    assert.deepEqual(
      { ...put.body, warnings: undefined },
      { success: true, site_id: siteId, user_id: user.id, role: "editor", warnings: undefined },
    );
    let profile = await t.call("GET", "/api/profile", { token: user.token });
    assert.deepEqual(profile.body.sites, [{ id: siteId, name: "Roles", role: "editor" }]);

    await t.call("PUT", `/api/site/${siteId}/users/${user.id}`, { body: { role: "administrator" } });
    profile = await t.call("GET", "/api/profile", { token: user.token });
    assert.deepEqual(profile.body.sites, [{ id: siteId, name: "Roles", role: "administrator" }]);

    const del = await t.call("DELETE", `/api/site/${siteId}/users/${user.id}`);
    assert.equal(del.status, 200);
    profile = await t.call("GET", "/api/profile", { token: user.token });
    assert.deepEqual(profile.body.sites, []);
    const again = await t.call("DELETE", `/api/site/${siteId}/users/${user.id}`);
    assert.equal(again.body.error, "membership_not_found");
  });

  it("a bad role is 400 invalid_role; an unknown user 404 user_not_found", async () => {
    const user = await makeUser(t, "heidi");
    const bad = await t.call("PUT", `/api/site/1/users/${user.id}`, { body: { role: "owner" } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error, "invalid_role");
    const unknown = await t.call("PUT", "/api/site/1/users/99999", { body: { role: "editor" } });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error, "user_not_found");
  });

  it("a site's administrator may give roles on it to a user it already sees; an editor may not (403 insufficient_role: the site exists for them)", async () => {
    const siteId = await makeSite(t, "Delegated", "delegated.localhost");
    const admin = await makeUser(t, "ivan");
    const editor = await makeUser(t, "judy");
    await t.call("PUT", `/api/site/${siteId}/users/${admin.id}`, { body: { role: "administrator" } });
    // A user with no role on a site ivan administers is unknown to ivan (404 user_not_found,
    // test/security/leaks.test.ts); once on one of his sites, ivan may give judy a role here
    const stranger = await t.call("PUT", `/api/site/${siteId}/users/${editor.id}`, {
      token: admin.token,
      body: { role: "editor" },
    });
    assert.equal(stranger.status, 404);
    assert.equal(stranger.body.error, "user_not_found");
    const elsewhere = await makeSite(t, "Delegated too", "delegated-too.localhost");
    await t.call("PUT", `/api/site/${elsewhere}/users/${admin.id}`, { body: { role: "administrator" } });
    await t.call("PUT", `/api/site/${elsewhere}/users/${editor.id}`, { body: { role: "editor" } });
    const byAdmin = await t.call("PUT", `/api/site/${siteId}/users/${editor.id}`, {
      token: admin.token,
      body: { role: "editor" },
    });
    assert.equal(byAdmin.status, 200);
    const byEditor = await t.call("PUT", `/api/site/${siteId}/users/${admin.id}`, {
      token: editor.token,
      body: { role: "editor" },
    });
    assert.equal(byEditor.status, 403);
    assert.equal(byEditor.body.code, "insufficient_role");
    const roles = await t.call("GET", `/api/site/${siteId}/users`);
    assert.deepEqual(
      roles.body.users.map((u: { login: string; role: string }) => [u.login, u.role]),
      [
        ["ivan", "administrator"],
        ["judy", "editor"],
      ],
      "the editor changed no role",
    );
  });

  it("on /api/site/{id}/ an unknown site and a foreign site answer the same 404 site_not_found, also to an editor of another site", async () => {
    const foreign = await makeSite(t, "Elsewhere", "elsewhere.localhost");
    const edited = await makeSite(t, "Edited", "edited.localhost");
    const user = await makeUser(t, "mallory");
    await t.call("PUT", `/api/site/${edited}/users/${user.id}`, { body: { role: "editor" } });
    const answers = [];
    for (const id of [foreign, 424242, "abc"]) {
      const r = await t.call("PUT", `/api/site/${id}/users/${user.id}`, {
        token: user.token,
        body: { role: "administrator" },
      });
      answers.push({ status: r.status, body: r.body });
    }
    for (const a of answers)
      assert.deepEqual(a, {
        status: 404,
        body: { code: "site_not_found", message: answers[0].body.message, data: { status: 404 } },
      });
  });

  it("a super-administrator's profile lists every site as administrator", async () => {
    const r = await t.call("GET", "/api/profile");
    assert.equal(r.body.user.super_admin, true);
    const sites = await t.call("GET", "/api/sites");
    assert.equal(r.body.sites.length, sites.body.total);
    assert.ok(r.body.sites.every((s: any) => s.role === "administrator"));
  });

  it("GET /api/users/me is the caller; others' records need a super-administrator", async () => {
    const user = await makeUser(t, "oscar");
    assert.equal((await t.call("GET", "/api/users/me", { token: user.token })).body.user.login, "oscar");
    assert.equal((await t.call("GET", "/api/users/1", { token: user.token })).status, 403);
    assert.equal((await t.call("GET", `/api/users/${user.id}`)).body.user.login, "oscar");
    assert.equal((await t.call("GET", "/api/users/99999")).body.error, "user_not_found");
  });
});

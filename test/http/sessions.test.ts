// The admin's sign-in sessions (docs/security.md, "Sessions"): a password sign-in on the admin's
// host sets a session cookie that signs API calls in there, with the user's roles; writes need the
// session's CSRF token; sessions end by signing out, idleness, age and password changes.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { gmt } from "../../src/clock.ts";
import { hashSessionSecret } from "../../src/site/sessions.ts";
import { makeSite, makeUser, startTestApp, type Answer, type TestApp } from "../support/app.ts";

const ADMIN_HOST = "admin.localhost";

/** The cookie pair (`name=value`) an answer sets, or null. */
function cookieOf(answer: Answer): string | null {
  const header = answer.headers["set-cookie"];
  const line = Array.isArray(header) ? header[0] : header;
  return typeof line === "string" ? line.split(";")[0] : null;
}

describe("admin sessions", () => {
  let t: TestApp;
  let site: number;
  let editor: { id: number; token: string };
  const PASSWORD = "correct horse battery";

  /** A call with no token, to `host`, carrying `cookie` and, when given, the CSRF token. */
  const withCookie = (
    method: string,
    url: string,
    cookie: string | null,
    options: { body?: unknown; csrf?: string; host?: string } = {},
  ) =>
    t.call(method, url, {
      token: null,
      body: options.body,
      headers: {
        host: options.host ?? ADMIN_HOST,
        ...(cookie ? { cookie } : {}),
        ...(options.csrf ? { "x-csrf-token": options.csrf } : {}),
      },
    });

  async function signIn(login: string, password = PASSWORD): Promise<{ cookie: string; csrf: string }> {
    const answer = await withCookie("POST", "/api/login", null, { body: { login, password, session: true } });
    assert.equal(answer.status, 200, answer.text);
    const cookie = cookieOf(answer)!;
    const session = await withCookie("GET", "/api/session", cookie);
    assert.equal(session.status, 200, session.text);
    return { cookie, csrf: session.body.csrf_token };
  }

  before(async () => {
    t = await startTestApp({ env: { SVC_TRUST_PROXY: "true" } });
    site = await makeSite(t, "Sessions", "sessions.example");
    editor = await makeUser(t, "session-editor", { password: PASSWORD });
    assert.equal(
      (await t.call("PUT", `/api/site/${site}/users/${editor.id}`, { body: { role: "editor" } })).status,
      200,
    );
  });
  after(() => t.close());

  it("a sign-in with session: true on the admin host sets one HttpOnly, SameSite=Strict, host-only cookie and answers no token", async () => {
    const answer = await withCookie("POST", "/api/login", null, {
      body: { login: "session-editor", password: PASSWORD, session: true },
    });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.success, true);
    assert.equal(answer.body.user.login, "session-editor");
    assert.equal(answer.body.token, undefined);
    const header = answer.headers["set-cookie"];
    assert.equal(typeof header, "string", "exactly one cookie");
    const parts = (header as string).split(/;\s*/);
    assert.match(parts[0], /^svc_session=[A-Za-z0-9_-]{43}$/);
    assert.ok(parts.includes("HttpOnly"));
    assert.ok(parts.includes("SameSite=Strict"));
    assert.ok(parts.includes("Path=/"));
    assert.ok(!parts.some((part) => /^domain=/i.test(part)), "host-only");
    assert.ok(!parts.includes("Secure"), "plain HTTP");
  });

  it("over HTTPS the cookie is Secure and named with the __Host- prefix, and only that name signs in", async () => {
    const https = { "x-forwarded-proto": "https" };
    const answer = await t.call("POST", "/api/login", {
      token: null,
      body: { login: "session-editor", password: PASSWORD, session: true },
      headers: { host: ADMIN_HOST, ...https },
    });
    const header = answer.headers["set-cookie"] as string;
    assert.match(header, /^__Host-svc_session=[A-Za-z0-9_-]{43}; /);
    assert.ok(header.split(/;\s*/).includes("Secure"));
    const cookie = cookieOf(answer)!;
    const session = await t.call("GET", "/api/session", {
      token: null,
      headers: { host: ADMIN_HOST, cookie, ...https },
    });
    assert.equal(session.status, 200);
    const plain = `svc_session=${cookie.split("=")[1]}`;
    const overHttp = await t.call("GET", "/api/session", {
      token: null,
      headers: { host: ADMIN_HOST, cookie: plain, ...https },
    });
    assert.equal(overHttp.status, 401);
  });

  it("a failed sign-in is 401 invalid_credentials and sets no cookie", async () => {
    const answer = await withCookie("POST", "/api/login", null, {
      body: { login: "session-editor", password: "wrong password", session: true },
    });
    assert.equal(answer.status, 401);
    assert.equal(answer.body.error, "invalid_credentials");
    assert.equal(answer.headers["set-cookie"], undefined);
  });

  it("session: true on another host is refused before the password is checked, and sets no cookie", async () => {
    const answer = await withCookie("POST", "/api/login", null, {
      body: { login: "session-editor", password: PASSWORD, session: true },
      host: "sessions.example",
    });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error, "invalid_field");
    assert.equal(answer.body.field, "session");
    assert.equal(answer.headers["set-cookie"], undefined);
  });

  it("GET /api/session answers the user and a csrf_token of at least 16 characters; without a session, 401", async () => {
    const { cookie, csrf } = await signIn("session-editor");
    assert.ok(csrf.length >= 16);
    const session = await withCookie("GET", "/api/session", cookie);
    assert.equal(session.body.user.id, editor.id);
    assert.equal((await withCookie("GET", "/api/session", null)).status, 401);
    const withToken = await t.call("GET", "/api/session", { token: editor.token, headers: { host: ADMIN_HOST } });
    assert.equal(withToken.status, 401);
    assert.equal(withToken.body.code, "session_expired");
  });

  it("the cookie signs in API calls on the admin host only, with the user's role", async () => {
    const { cookie, csrf } = await signIn("session-editor");
    const S = `/api/site/${site}`;
    assert.equal((await withCookie("GET", `${S}/pages`, cookie)).status, 200);
    const frame = await withCookie("POST", `${S}/frames`, cookie, { body: { slug: "x", html: "<p>x</p>" }, csrf });
    assert.equal(frame.status, 403);
    assert.equal(frame.body.error ?? frame.body.code, "insufficient_role");
    const elsewhere = await withCookie("GET", `${S}/pages`, cookie, { host: "sessions.example" });
    assert.equal(elsewhere.status, 401);
    assert.equal(elsewhere.body.code, "missing_token");
  });

  it("a write signed in by the cookie without its CSRF token, or with a wrong one, is 403 invalid_csrf_token and writes nothing", async () => {
    const { cookie, csrf } = await signIn("session-editor");
    const S = `/api/site/${site}`;
    const count = async () => (await t.call("GET", `${S}/pages?status=any`)).body.total;
    const before = await count();
    for (const sent of [undefined, "x".repeat(43), `${csrf}x`]) {
      const refused = await withCookie("POST", `${S}/pages`, cookie, { body: { title: "Forged" }, csrf: sent });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.code, "invalid_csrf_token");
    }
    assert.equal(await count(), before);
    const made = await withCookie("POST", `${S}/pages`, cookie, { body: { title: "Meant" }, csrf });
    assert.equal(made.status, 201, made.text);
    assert.equal(await count(), before + 1);
  });

  it("a call with a token needs no CSRF token, even with the cookie", async () => {
    const { cookie } = await signIn("session-editor");
    const made = await t.call("POST", `/api/site/${site}/pages`, {
      token: editor.token,
      body: { title: "By token" },
      headers: { host: ADMIN_HOST, cookie },
    });
    assert.equal(made.status, 201);
  });

  it("signing out needs the CSRF token, ends the session (the old cookie then answers 401) and clears the cookie", async () => {
    const { cookie, csrf } = await signIn("session-editor");
    const refused = await withCookie("POST", "/api/logout", cookie);
    assert.equal(refused.status, 403);
    assert.equal((await withCookie("GET", "/api/session", cookie)).status, 200);
    const out = await withCookie("POST", "/api/logout", cookie, { csrf });
    assert.equal(out.status, 200);
    assert.match(out.headers["set-cookie"] as string, /^svc_session=; Max-Age=0/);
    const after = await withCookie("GET", "/api/session", cookie);
    assert.equal(after.status, 401);
    assert.equal(after.body.code, "session_expired");
    assert.match(after.headers["set-cookie"] as string, /^svc_session=; Max-Age=0/);
  });

  it("a session ends after 12 hours idle and 7 days after its sign-in", async () => {
    const idle = await signIn("session-editor");
    const old = await signIn("session-editor");
    const now = Date.now();
    const hashOf = (cookie: string) => hashSessionSecret(cookie.split("=")[1]);
    await t.store.db
      .updateTable("sessions")
      .set({ seen_at_gmt: gmt(now - 12 * 3600_000 - 1000) })
      .where("hash", "=", hashOf(idle.cookie))
      .execute();
    await t.store.db
      .updateTable("sessions")
      .set({ created_at_gmt: gmt(now - 7 * 24 * 3600_000 - 1000), seen_at_gmt: gmt(now) })
      .where("hash", "=", hashOf(old.cookie))
      .execute();
    for (const { cookie } of [idle, old]) {
      const answer = await withCookie("GET", "/api/session", cookie);
      assert.equal(answer.status, 401);
      assert.equal(answer.body.code, "session_expired");
    }
  });

  it("a call over a minute after the session's recorded use records it again", async () => {
    const { cookie } = await signIn("session-editor");
    const hash = hashSessionSecret(cookie.split("=")[1]);
    const stale = gmt(Date.now() - 5 * 60_000);
    await t.store.db.updateTable("sessions").set({ seen_at_gmt: stale }).where("hash", "=", hash).execute();
    assert.equal((await withCookie("GET", "/api/session", cookie)).status, 200);
    const row = await t.store.db
      .selectFrom("sessions")
      .select("seen_at_gmt")
      .where("hash", "=", hash)
      .executeTakeFirstOrThrow();
    assert.ok(row.seen_at_gmt > stale);
  });

  it("only the SHA-256 of the cookie's secret is stored", async () => {
    const { cookie } = await signIn("session-editor");
    const secret = cookie.split("=")[1];
    const rows = await t.store.db.selectFrom("sessions").selectAll().execute();
    assert.ok(rows.some((row) => row.hash === hashSessionSecret(secret)));
    assert.ok(!JSON.stringify(rows).includes(secret));
  });

  it("a removed membership refuses that site's calls at once: 404 site_not_found", async () => {
    const member = await makeUser(t, "session-member", { password: PASSWORD });
    const S = `/api/site/${site}`;
    assert.equal((await t.call("PUT", `${S}/users/${member.id}`, { body: { role: "editor" } })).status, 200);
    const { cookie } = await signIn("session-member");
    assert.equal((await withCookie("GET", `${S}/pages`, cookie)).status, 200);
    assert.equal((await t.call("DELETE", `${S}/users/${member.id}`)).status, 200);
    const refused = await withCookie("GET", `${S}/pages`, cookie);
    assert.equal(refused.status, 404);
    assert.equal(refused.body.code, "site_not_found");
  });
});

describe("password changes", () => {
  let t: TestApp;
  const FIRST = "first password";
  const withCookie = (method: string, url: string, cookie: string, csrf?: string, body?: unknown) =>
    t.call(method, url, {
      token: null,
      body,
      headers: { host: ADMIN_HOST, cookie, ...(csrf ? { "x-csrf-token": csrf } : {}) },
    });
  async function signIn(login: string, password: string): Promise<{ cookie: string; csrf: string }> {
    const answer = await t.call("POST", "/api/login", {
      token: null,
      body: { login, password, session: true },
      headers: { host: ADMIN_HOST },
    });
    assert.equal(answer.status, 200, answer.text);
    const cookie = cookieOf(answer)!;
    return { cookie, csrf: (await withCookie("GET", "/api/session", cookie)).body.csrf_token };
  }

  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it("PATCH /api/users/me with the current password sets the new one and ends every other session of the user", async () => {
    await makeUser(t, "changer", { password: FIRST });
    const here = await signIn("changer", FIRST);
    const there = await signIn("changer", FIRST);
    const changed = await withCookie("PATCH", "/api/users/me", here.cookie, here.csrf, {
      password: "second password",
      current_password: FIRST,
    });
    assert.equal(changed.status, 200, changed.text);
    assert.equal(
      (await withCookie("GET", "/api/session", here.cookie)).status,
      200,
      "the session that changed it stays",
    );
    assert.equal((await withCookie("GET", "/api/session", there.cookie)).status, 401);
    await signIn("changer", "second password");
  });

  it("a wrong current password is 401 invalid_credentials and changes nothing", async () => {
    await makeUser(t, "guesser", { password: FIRST });
    const here = await signIn("guesser", FIRST);
    const refused = await withCookie("PATCH", "/api/users/me", here.cookie, here.csrf, {
      password: "taken over",
      current_password: "not it",
    });
    assert.equal(refused.status, 401);
    assert.equal(refused.body.error, "invalid_credentials");
    await signIn("guesser", FIRST);
  });

  it("a user cannot set another user's password: 403 insufficient_role", async () => {
    const other = await makeUser(t, "other-user", { password: FIRST });
    await makeUser(t, "meddler", { password: FIRST });
    const here = await signIn("meddler", FIRST);
    const refused = await withCookie("PATCH", `/api/users/${other.id}`, here.cookie, here.csrf, {
      password: "taken over",
      current_password: FIRST,
    });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, "insufficient_role");
  });

  it("a super-administrator sets anyone's password without current_password, and that user's sessions end", async () => {
    const user = await makeUser(t, "forgetful", { password: FIRST });
    const session = await signIn("forgetful", FIRST);
    const set = await t.call("PATCH", `/api/users/${user.id}`, { body: { password: "reset by admin" } });
    assert.equal(set.status, 200, set.text);
    assert.equal((await withCookie("GET", "/api/session", session.cookie)).status, 401);
    await signIn("forgetful", "reset by admin");
  });

  it("a new password under 8 characters is 400 weak_password", async () => {
    const user = await makeUser(t, "short", { password: FIRST });
    const set = await t.call("PATCH", `/api/users/${user.id}`, { body: { password: "short" } });
    assert.equal(set.status, 400);
    assert.equal(set.body.error, "weak_password");
  });
});

// The lockout locks out attackers, not users (docs/security.md). Before: twenty failed
// authentications from an address refused every request from it, valid tokens included (a
// colleague's typos behind one NAT locked the whole office out of the API); nothing counted the
// failures of one login, so a password could be guessed from many addresses, twenty a minute
// each; and IPv6 addresses were counted one by one, so an attacker holding a /64 was never
// locked out. Windows move on node:test's mocked Date (as test/http/limits.test.ts): no test waits.
import { afterEach, beforeEach, describe, it, mock } from "node:test";
import assert from "node:assert/strict";
import { makeUser, startTestApp, type Answer, type TestApp } from "../support/app.ts";
import { addressGroup } from "../../src/http/address-group.ts";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { postgresLimits } from "../../src/http/limits.ts";

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
const BAD_TOKEN = `op_${"x".repeat(64)}`;
const PASSWORD = "correct horse battery";

function assertLocked(answer: Answer, what: string, maxSeconds: number): number {
  assert.equal(answer.status, 429, what);
  assert.equal(answer.body.code, "too_many_auth_failures", what);
  const retryAfter = answer.headers["retry-after"];
  assert.match(String(retryAfter), /^\d+$/, `${what}: Retry-After in whole seconds`);
  const seconds = Number(retryAfter);
  assert.ok(seconds >= 1 && seconds <= maxSeconds, `${what}: Retry-After ${seconds}`);
  assert.equal(answer.body.data.retry_after, seconds, what);
  return seconds;
}

describe("security: a lockout locks out attackers, not users", () => {
  let t: TestApp;
  let victim: { id: number; token: string };
  const signIn = (login: string, password: string, ip: string) =>
    t.call("POST", "/api/login", { token: null, ip, body: { login, password } });

  beforeEach(async () => {
    mock.timers.enable({ apis: ["Date"], now: T0 });
    t = await startTestApp();
    victim = await makeUser(t, "victim", { password: PASSWORD });
  });
  afterEach(async () => {
    await t.close();
    mock.timers.reset();
  });

  it("a valid token is served from an address locked by failed authentications; password sign-in and bad tokens from it are refused until the window passes", async () => {
    const ip = "10.20.0.1";
    for (let i = 0; i < 20; i++)
      assert.equal((await t.call("GET", "/api/profile", { token: BAD_TOKEN, ip })).status, 401, `failure ${i + 1}`);

    const served = await t.call("GET", "/api/profile", { token: victim.token, ip });
    assert.equal(served.status, 200, "a valid token from the locked address");
    assert.equal(served.body.user.login, "victim");
    assert.equal((await t.call("GET", "/api/profile", { ip })).status, 200, "the administrator's token too");
    assert.equal(
      (await t.call("GET", "/api/profile", { ip, headers: { "x-svc-key": victim.token }, token: null })).status,
      200,
      "X-Svc-Key too",
    );

    assertLocked(await t.call("GET", "/api/profile", { token: BAD_TOKEN, ip }), "a bad token from it", 60);
    assertLocked(await signIn("victim", PASSWORD, ip), "password sign-in from it, even the right password", 60);

    mock.timers.tick(60_001);
    assert.equal((await signIn("victim", PASSWORD, ip)).status, 200, "open again once the window has passed");
  });

  it("after 20 failed sign-ins for one login from 20 addresses, the 21st from a 21st address is 429 with Retry-After, right password or not, for 15 minutes; the user's tokens keep working and other logins are not touched", async () => {
    await makeUser(t, "bystander", { password: PASSWORD });
    for (let i = 1; i <= 20; i++) {
      const failed = await signIn("victim", "wrong password", `10.30.0.${i}`);
      assert.equal(failed.status, 401, `failure ${i}`);
      assert.equal(failed.body.error, "invalid_credentials");
    }
    const fresh = "10.30.0.21";
    const seconds = assertLocked(
      await signIn("victim", PASSWORD, fresh),
      "the right password from a fresh address",
      900,
    );
    assert.ok(seconds > 60, `the account's window is 15 minutes, not the address's minute: Retry-After ${seconds}`);
    assertLocked(await signIn("victim", "wrong password", "10.30.0.22"), "a wrong one too", 900);

    assert.equal(
      (await t.call("GET", "/api/profile", { token: victim.token, ip: fresh })).status,
      200,
      "the user's token keeps working",
    );
    assert.equal(
      (await signIn("bystander", PASSWORD, fresh)).status,
      200,
      "another login signs in from the same address",
    );

    mock.timers.tick(14 * 60_000);
    assertLocked(await signIn("victim", PASSWORD, fresh), "still locked after 14 minutes", 60);
    mock.timers.tick(60_001);
    const open = await signIn("victim", PASSWORD, fresh);
    assert.equal(open.status, 200, "open again after 15 minutes");
    assert.equal(open.body.user.login, "victim");
  });

  it("a refused sign-in does not tell whether its login exists: an unknown login is counted and refused exactly as a known one", async () => {
    for (let i = 1; i <= 20; i++) {
      const known = await signIn("victim", "wrong password", `10.40.0.${i}`);
      const unknown = await signIn("nobody-here", "wrong password", `10.41.0.${i}`);
      assert.deepEqual([known.status, known.body], [unknown.status, unknown.body], `failure ${i}`);
    }
    const known = await signIn("victim", "wrong password", "10.40.1.1");
    const unknown = await signIn("nobody-here", "wrong password", "10.41.1.1");
    assertLocked(known, "the known login", 900);
    assertLocked(unknown, "the unknown login", 900);
    assert.deepEqual(unknown.body, known.body);
    assert.equal(unknown.headers["retry-after"], known.headers["retry-after"]);
  });

  it("IPv6 addresses in one /64 count as one client; another /64 is not locked", async () => {
    for (let i = 1; i <= 20; i++) {
      const ip = `2001:db8:aa:bb::${i.toString(16)}`;
      assert.equal(
        (await t.call("GET", "/api/profile", { token: BAD_TOKEN, ip })).status,
        401,
        `failure ${i} from ${ip}`,
      );
    }
    assertLocked(
      await t.call("GET", "/api/profile", { token: BAD_TOKEN, ip: "2001:db8:aa:bb:ffff:ffff:ffff:fffe" }),
      "a fresh address of the same /64",
      60,
    );
    assertLocked(
      await signIn("victim", PASSWORD, "2001:0DB8:00AA:00BB:1234::5"),
      "sign-in from the /64, spelled otherwise",
      60,
    );
    assert.equal(
      (await t.call("GET", "/api/profile", { token: victim.token, ip: "2001:db8:aa:bb::99" })).status,
      200,
      "a valid token from it",
    );
    assert.equal(
      (await t.call("GET", "/api/profile", { token: BAD_TOKEN, ip: "2001:db8:aa:bc::1" })).status,
      401,
      "the next /64",
    );
  });

  it("an IPv4-mapped IPv6 address counts as the IPv4 address it names", async () => {
    for (let i = 0; i < 10; i++) {
      assert.equal((await t.call("GET", "/api/profile", { token: BAD_TOKEN, ip: "::ffff:192.0.2.7" })).status, 401);
      assert.equal((await t.call("GET", "/api/profile", { token: BAD_TOKEN, ip: "192.0.2.7" })).status, 401);
    }
    assertLocked(await signIn("victim", PASSWORD, "192.0.2.7"), "as IPv4", 60);
    assertLocked(await signIn("victim", PASSWORD, "::ffff:192.0.2.7"), "as IPv4-mapped IPv6", 60);
  });

  it("only failed sign-ins count against a login: a right password in between takes nothing", async () => {
    for (let i = 1; i <= 19; i++) assert.equal((await signIn("victim", "wrong password", `10.80.0.${i}`)).status, 401);
    for (let i = 0; i < 3; i++) assert.equal((await signIn("victim", PASSWORD, "10.80.1.1")).status, 200);
    assert.equal((await signIn("victim", "wrong password", "10.80.0.20")).status, 401, "the 20th failure");
    assertLocked(await signIn("victim", PASSWORD, "10.80.1.1"), "after it", 900);
  });

  it("a burst of sign-ins for one login sent at once gets no more than 20 password checks", async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => signIn("victim", "wrong password", `10.90.0.${i + 1}`)),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    assert.deepEqual(statuses, [...Array(20).fill(401), ...Array(20).fill(429)]);
  });

  it("a sign-in without a login counts against its address only", async () => {
    for (let i = 0; i < 20; i++)
      assert.equal(
        (await t.call("POST", "/api/login", { token: null, ip: "10.50.0.1", body: { password: "x" } })).status,
        401,
      );
    assertLocked(await signIn("victim", PASSWORD, "10.50.0.1"), "the address", 60);
    assert.equal((await signIn("victim", PASSWORD, "10.50.0.2")).status, 200, "no login was counted");
  });
});

describe("security: the client an address counts as", () => {
  it("IPv4 as it is; IPv4-mapped IPv6 as its IPv4 address; other IPv6 by its /64 in one spelling, whatever its case, zeros or zone", () => {
    assert.equal(addressGroup("192.0.2.7"), "192.0.2.7");
    assert.equal(addressGroup("::ffff:192.0.2.7"), "192.0.2.7");
    assert.equal(addressGroup("::FFFF:c000:207"), "192.0.2.7");
    assert.equal(addressGroup("2001:db8:aa:bb::1"), "2001:db8:aa:bb::/64");
    assert.equal(addressGroup("2001:0DB8:00aa:00bb:ffff:ffff:ffff:ffff"), "2001:db8:aa:bb::/64");
    assert.equal(addressGroup("2001:db8::1"), "2001:db8:0:0::/64");
    assert.equal(addressGroup("2001:db8:0:0:1::"), "2001:db8:0:0::/64");
    assert.equal(addressGroup("fe80::1%eth0"), "fe80:0:0:0::/64");
    assert.equal(addressGroup("::1"), "0:0:0:0::/64");
    assert.equal(addressGroup("64:ff9b::192.0.2.7"), "64:ff9b:0:0::/64");
    assert.notEqual(addressGroup("2001:db8:aa:bb::1"), addressGroup("2001:db8:aa:bc::1"));
    assert.equal(addressGroup("not an address"), "not an address");
    assert.equal(addressGroup("1:2:3"), "1:2:3");
  });
});

describe("security: SVC_AUTH_FAILURES_PER_LOGIN", () => {
  it("defaults to 20; a value outside 1 to 10,000,000 or not a whole number is refused naming the variable", () => {
    assert.equal(loadConfig({}).authFailuresPerLogin, 20);
    assert.equal(loadConfig({ SVC_AUTH_FAILURES_PER_LOGIN: "5" }).authFailuresPerLogin, 5);
    for (const bad of ["0", "many", "10000001"]) {
      assert.throws(
        () => loadConfig({ SVC_AUTH_FAILURES_PER_LOGIN: bad }),
        (error: unknown) => error instanceof ConfigError && error.variable === "SVC_AUTH_FAILURES_PER_LOGIN",
      );
    }
  });

  it("sets how many failed sign-ins lock a login", async () => {
    const t = await startTestApp({ env: { SVC_AUTH_FAILURES_PER_LOGIN: "3" } });
    try {
      await makeUser(t, "victim", { password: PASSWORD });
      for (let i = 1; i <= 3; i++)
        assert.equal(
          (
            await t.call("POST", "/api/login", {
              token: null,
              ip: `10.60.0.${i}`,
              body: { login: "victim", password: "nope" },
            })
          ).status,
          401,
        );
      assertLocked(
        await t.call("POST", "/api/login", {
          token: null,
          ip: "10.60.0.4",
          body: { login: "victim", password: PASSWORD },
        }),
        "the 4th",
        900,
      );
    } finally {
      await t.close();
    }
  });
});

describe("security: failed sign-ins of one login are counted across processes (PostgreSQL)", {
  skip: process.env.TEST_DATABASE_URL ? false : "needs TEST_DATABASE_URL (npm run test:pg)",
}, () => {
  it("failures counted by another process's limits lock the login here too", async () => {
    const t = await startTestApp();
    try {
      await makeUser(t, "victim", { password: PASSWORD });
      const other = postgresLimits(t.store.postgres!.pool, t.config);
      // Ten sign-ins that the other process counted and that failed there (nothing given back).
      for (let i = 1; i <= 10; i++) assert.equal((await other.takeSignIn("victim")).locked, false);
      for (let i = 1; i <= 10; i++)
        assert.equal(
          (
            await t.call("POST", "/api/login", {
              token: null,
              ip: `10.71.0.${i}`,
              body: { login: "victim", password: "nope" },
            })
          ).status,
          401,
        );
      assertLocked(
        await t.call("POST", "/api/login", {
          token: null,
          ip: "10.72.0.1",
          body: { login: "victim", password: PASSWORD },
        }),
        "here",
        900,
      );
      assert.equal((await other.takeSignIn("victim")).locked, true, "there");
    } finally {
      await t.close();
    }
  });
});

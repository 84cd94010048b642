// The real process: configuration checks, first start, restart and graceful shutdown.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runToExit, serviceDatabase, startService } from "../support/process.ts";
import { generateToken } from "../../src/tokens.ts";
// @ts-expect-error a build script (plain JavaScript), typed here by its use
import { patchesOfBundle } from "../../scripts/dependency-patches.mjs";

const ROOT = new URL("../../", import.meta.url).pathname;

const freshDir = () => mkdtempSync(join(tmpdir(), "svc-proc-"));

describe("start-up configuration", () => {
  const cases: Array<[string, string]> = [
    ["PORT", "eighty"],
    ["PORT", "70000"],
    ["SVC_ADMIN_TOKEN", "op_tooshort"],
    ["SVC_RATE_LIMIT_PER_MIN", "-5"],
    ["SVC_AUTH_FAILURES_PER_MIN", "many"],
    ["DATABASE_URL", "mysql://localhost/db"],
    ["SVC_PUBLIC_HOST", "not a host"],
    ["SVC_MEDIA_MAX_BYTES", "0"],
    ["SVC_MEDIA_MAX_BYTES", "25MB"],
    ["SVC_REVISIONS_KEEP", "0"],
    ["SVC_TRASH_DAYS", "a month"],
    ["SVC_EVENTS_DAYS", "0"],
    ["SVC_WEBHOOKS_ALLOW_PRIVATE", "yes"],
    ["SVC_FORM_SUBMISSIONS_DAYS", "0"],
    ["SVC_SMTP_URL", "mail.example.com:25"],
    ["SVC_MAIL_FROM", "nobody"],
  ];
  for (const [variable, value] of cases) {
    it(`a bad ${variable} (${value}) stops start-up with one line naming the variable`, async () => {
      const r = await runToExit({ SVC_DATA_DIR: freshDir(), [variable]: value });
      assert.notEqual(r.code, 0);
      const lines = r.stderr.trim().split("\n");
      assert.equal(lines.length, 1, r.stderr);
      assert.match(lines[0], new RegExp(`\\b${variable}\\b`));
      assert.ok(!r.stderr.includes(value) || variable !== "SVC_ADMIN_TOKEN" || value === "op_tooshort");
    });
  }
});

describe("first start and restart", () => {
  it("first start prints a generated admin token once, stores it in admin-token (0600); a restart keeps the network and prints nothing", async () => {
    const dir = freshDir();
    const { env, database } = await serviceDatabase();
    const first = await startService({ ...env, SVC_DATA_DIR: dir });
    try {
      const printed = /admin token: (op_[A-Za-z0-9]{64})/.exec(first.stdout());
      assert.ok(printed, "the token is printed on stdout");
      const token = printed[1];
      const file = join(dir, "admin-token");
      assert.equal(readFileSync(file, "utf8").trim(), token);
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.equal(
        existsSync(join(dir, "svc.db")),
        !env.DATABASE_URL,
        "a SQLite file only when no DATABASE_URL is given",
      );

      const profile = await fetch(first.url("/api/profile"), { headers: { authorization: `Bearer ${token}` } });
      assert.equal(profile.status, 200);
      const body = (await profile.json()) as any;
      assert.deepEqual([body.user.id, body.user.login, body.user.super_admin], [1, "admin", true]);
      const created = await fetch(first.url("/api/sites"), {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "Kept", domain: "kept.localhost" }),
      });
      assert.equal(created.status, 201);
      assert.equal(await first.stop(), 0);

      const second = await startService({ ...env, SVC_DATA_DIR: dir });
      try {
        assert.ok(!/admin token:/.test(second.stdout()), "no token printed on a later start");
        const sites = (await (
          await fetch(second.url("/api/sites"), { headers: { "x-svc-key": token } })
        ).json()) as any;
        assert.deepEqual(
          sites.sites.map((s: any) => s.name),
          ["Main site", "Kept"],
        );
      } finally {
        await second.stop();
      }
    } finally {
      await first.stop();
      await database.drop();
    }
  });

  it("SVC_ADMIN_TOKEN becomes admin's token and SVC_PUBLIC_HOST the main site's domain", async () => {
    const token = generateToken();
    const { env, database } = await serviceDatabase();
    const svc = await startService({
      ...env,
      SVC_DATA_DIR: freshDir(),
      SVC_ADMIN_TOKEN: token,
      SVC_PUBLIC_HOST: "example.localhost",
    });
    try {
      assert.ok(!svc.stdout().includes(token), "an operator-chosen token is not echoed");
      const r = (await (
        await fetch(svc.url("/api/sites/1"), { headers: { authorization: `Bearer ${token}` } })
      ).json()) as any;
      assert.equal(r.site.domain, "example.localhost");
      assert.equal(r.site.name, "Main site");
    } finally {
      await svc.stop();
      await database.drop();
    }
  });

  it("a later start with another SVC_ADMIN_TOKEN rotates it: the new one works, the previous one is revoked, tokens made through the API stay", async () => {
    const first = generateToken();
    const second = generateToken();
    const dir = freshDir();
    const { env, database } = await serviceDatabase();
    const status = async (svc: { url(path: string): string }, token: string) =>
      (await fetch(svc.url("/api/profile"), { headers: { authorization: `Bearer ${token}` } })).status;
    try {
      const before = await startService({ ...env, SVC_DATA_DIR: dir, SVC_ADMIN_TOKEN: first });
      let issued: string;
      try {
        const made = await fetch(before.url("/api/users/1/tokens"), {
          method: "POST",
          headers: { authorization: `Bearer ${first}`, "content-type": "application/json" },
          body: JSON.stringify({ label: "deploy script" }),
        });
        assert.equal(made.status, 201);
        issued = ((await made.json()) as any).token;
      } finally {
        await before.stop();
      }
      const after = await startService({ ...env, SVC_DATA_DIR: dir, SVC_ADMIN_TOKEN: second });
      try {
        assert.equal(await status(after, second), 200, "the new SVC_ADMIN_TOKEN");
        assert.equal(await status(after, first), 401, "the previous one is revoked");
        assert.equal(await status(after, issued), 200, "a token made through the API stays");
      } finally {
        await after.stop();
      }
      const again = await startService({ ...env, SVC_DATA_DIR: dir, SVC_ADMIN_TOKEN: second });
      try {
        assert.equal(await status(again, second), 200, "the same value on a later start changes nothing");
      } finally {
        await again.stop();
      }
    } finally {
      await database.drop();
    }
  });
});

describe("graceful shutdown", () => {
  it("SIGTERM lets a request in flight finish, then exits 0 with the database closed cleanly", async () => {
    const dir = freshDir();
    const token = generateToken();
    const { env, database } = await serviceDatabase();
    const svc = await startService({ ...env, SVC_DATA_DIR: dir, SVC_ADMIN_TOKEN: token });
    const body = JSON.stringify({ name: "In flight", domain: "inflight.localhost" });
    // Send the headers now and the body only after SIGTERM: the request is in flight when the signal lands.
    const socket = connect(svc.port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    let answer = "";
    socket.on("data", (d) => (answer += d));
    const closed = new Promise((resolve) => socket.once("close", resolve));
    socket.write(
      `POST /api/sites HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const exited = svc.stop("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.write(body);
    const code = await exited;
    await closed;
    assert.match(answer, /^HTTP\/1\.1 201/, answer);
    assert.match(answer, /"In flight"/);
    assert.equal(code, 0);
    assert.ok(
      !existsSync(join(dir, "svc.db-wal")) || statSync(join(dir, "svc.db-wal")).size === 0,
      "the WAL was checkpointed on close",
    );
    await database.drop();
  });
});

describe("what a start loads", () => {
  // Not of a build without that patch (SVC_BUILD_PATCHES, scripts/build.mjs): it loads both.
  const bundle = join(ROOT, "dist/server.cjs");
  const deferred =
    !existsSync(bundle) || (patchesOfBundle(readFileSync(bundle, "latin1"))?.includes("fastify-lazy-tls") ?? true);
  it("a start of the build loads neither node:http2 nor node:https (Fastify requires them at its top; the build defers them, scripts/dependency-patches.mjs)", {
    skip: !deferred && "dist/ was built without the fastify-lazy-tls patch",
  }, async () => {
    const dir = freshDir();
    const preload = join(dir, "loaded-modules.cjs");
    const out = join(dir, "loaded-modules.json");
    writeFileSync(
      preload,
      `const channel = require("node:diagnostics_channel");
       channel.subscribe("http.server.response.finish", function first() {
         channel.unsubscribe("http.server.response.finish", first);
         require("node:fs").writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.moduleLoadList));
       });`,
    );
    const { env, database } = await serviceDatabase();
    const svc = await startService({ ...env, SVC_DATA_DIR: dir, NODE_OPTIONS: `--require ${preload}` });
    try {
      assert.equal((await fetch(svc.url("/healthz"))).status, 200);
    } finally {
      assert.equal(await svc.stop(), 0);
      await database.drop();
    }
    const loaded = new Set(JSON.parse(readFileSync(out, "utf8")) as string[]);
    assert.ok(loaded.has("NativeModule http"), "the list is Node's list of loaded built-in modules");
    assert.ok(!loaded.has("NativeModule http2"), "node:http2 was loaded");
    assert.ok(!loaded.has("NativeModule https"), "node:https was loaded");
  });
});

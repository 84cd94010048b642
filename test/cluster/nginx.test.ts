// docs/nginx.conf.example (docs/deploy.md), as shipped (only its ports changed), in front of two
// service processes on one PostgreSQL database: requests reach both processes, public pages
// answer by Host, and the limits count the client's address as nginx saw it. Needs nginx
// (Debian's nginx-light; .ci/run installs it) and TEST_DATABASE_URL; skipped without either.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { call, eventually, SITE, startCluster, type Cluster, type Reply } from "./helpers.ts";
import { testServerUrl } from "../support/database.ts";
import { freePort } from "../support/ports.ts";
import { findNginx, mainConfig, runNginxServing, type RunningNginx } from "../support/nginx.ts";

const EXAMPLE = new URL("../../docs/nginx.conf.example", import.meta.url).pathname;

const nginx = findNginx();
const skip = !testServerUrl
  ? "needs TEST_DATABASE_URL (npm run test:pg)"
  : !nginx
    ? "nginx is not installed (apt-get install nginx-light)"
    : false;

/** The example with this test's ports: nginx listens on `listen`, the upstream lists `upstreams`. */
function renderExample(text: string, listen: number, upstreams: number[]): string {
  const servers = /^(\s*)server 127\.0\.0\.1:\d+( [^;]*)?;\n/gm;
  const lines = [...text.matchAll(servers)];
  assert.ok(lines.length >= 2, "the example lists its upstream servers");
  const indent = lines[0][1];
  const rest = lines[0][2] ?? "";
  let rendered = text.replace(servers, (line) =>
    line === lines[0][0] ? upstreams.map((port) => `${indent}server 127.0.0.1:${port}${rest};\n`).join("") : "",
  );
  assert.match(rendered, /^\s*listen 80;$/m, "the example listens on port 80");
  rendered = rendered.replace(/^(\s*)listen 80;$/m, `$1listen 127.0.0.1:${listen};`);
  return rendered;
}

describe("nginx in front of two processes (docs/nginx.conf.example)", { skip }, () => {
  let cluster: Cluster;
  let proxyPort: number;
  let dir: string;
  let proxy: RunningNginx | null = null;
  const through = (method: string, path: string, options: Parameters<typeof call>[3] = {}) =>
    call(proxyPort, method, path, options);
  const admin = (method: string, path: string, body?: unknown) => through(method, path, { token: cluster.token, body });

  function ok(reply: Reply, what: string, status = 200): any {
    assert.equal(reply.status, status, `${what}: ${reply.status} ${reply.text.slice(0, 300)}`);
    return reply.body;
  }

  before(async () => {
    proxyPort = await freePort();
    cluster = await startCluster(2, {
      SVC_TRUST_PROXY: "true",
      SVC_PUBLIC_PORT: String(proxyPort),
      SVC_RATE_LIMIT_PER_MIN: "100000",
      SVC_AUTH_FAILURES_PER_MIN: "5",
    });
    dir = mkdtempSync(join(tmpdir(), "svc-nginx-"));
    // When the test runs as root, nginx's workers run as an unprivileged user: they must reach the temp folders.
    chmodSync(dir, 0o755);
    mkdirSync(join(dir, "temp"));
    writeFileSync(
      join(dir, "svc.conf"),
      renderExample(
        readFileSync(EXAMPLE, "utf8"),
        proxyPort,
        cluster.processes.map((p) => p.port),
      ),
    );
    writeFileSync(join(dir, "nginx.conf"), mainConfig(dir, join(dir, "svc.conf")));
    proxy = await runNginxServing(nginx!, dir, () => through("GET", "/healthz"));
  });

  after(async () => {
    await proxy?.stop();
    await cluster?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("requests through nginx reach both processes", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const reply = await through("GET", "/api/profile", { token: cluster.token });
      assert.equal(reply.status, 200);
      ids.push(String(reply.headers["x-request-id"]));
    }
    // Each process logs the ids of the requests it answered, in a line written once the answer is
    // sent: it may reach the process's stdout a moment after the client has the answer.
    const answeredBy = () => cluster.processes.map((p) => ids.filter((id) => p.stdout().includes(id)).length);
    for (let tries = 0; tries < 40 && answeredBy().reduce((a, b) => a + b, 0) < ids.length; tries++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const answered = answeredBy();
    assert.equal(answered[0] + answered[1], ids.length, `every request was answered by one of the two: ${answered}`);
    assert.ok(
      answered.every((n) => n > 0),
      `both processes answered some: ${answered}`,
    );
  });

  it("public pages answer by Host through nginx, and addresses carry nginx's port (SVC_PUBLIC_PORT)", async () => {
    const blog = ok(await admin("POST", "/api/sites", { name: "Blog", domain: "blog.localhost" }), "site", 201).site;
    assert.equal(blog.home_url, `http://blog.localhost:${proxyPort}/`);
    ok(await admin("POST", `${SITE}/frames`, { slug: "hello", html: "<p>main site hello</p>" }), "frame", 201);
    ok(await admin("POST", `${SITE}/pages`, { title: "Hello", frame: "hello" }), "page", 201);
    ok(
      await admin("POST", `/api/site/${blog.id}/frames`, { slug: "hello", html: "<p>blog hello</p>" }),
      "blog frame",
      201,
    );
    ok(await admin("POST", `/api/site/${blog.id}/pages`, { title: "Hello", frame: "hello" }), "blog page", 201);
    // Several reads, so both processes answer some of them.
    for (let i = 0; i < 4; i++) {
      assert.match((await through("GET", "/hello/", { host: `blog.localhost:${proxyPort}` })).text, /blog hello/);
      assert.match((await through("GET", "/hello/", { host: "localhost" })).text, /main site hello/);
      assert.match(
        (await through("GET", "/hello/", { host: "unknown.example" })).text,
        /main site hello/,
        "an unknown host gets the main site",
      );
    }
    // A write through nginx shows on the next reads through nginx, whichever process answers them.
    ok(await admin("PUT", `/api/site/${blog.id}/frames/hello`, { html: "<p>blog hello, edited</p>" }), "PUT frame");
    for (let i = 0; i < 4; i++) {
      const seen = await eventually(
        () => through("GET", "/hello/", { host: "blog.localhost" }),
        (r) => /edited/.test(r.text),
      );
      assert.match(seen.text, /blog hello, edited/);
    }
  });

  it("limits count the client's address as nginx saw it: a forged X-Forwarded-For does not escape the lockout", async () => {
    const bad = `op_${"1".repeat(64)}`;
    for (let i = 0; i < 5; i++) {
      const reply = await through("GET", "/api/profile", {
        token: bad,
        headers: { "x-forwarded-for": `203.0.113.${i}` },
      });
      assert.equal(reply.status, 401, `failure ${i + 1}`);
    }
    const locked = await through("GET", "/api/profile", { token: bad, headers: { "x-forwarded-for": "203.0.113.99" } });
    assert.equal(locked.status, 429);
    assert.equal(locked.body.code, "too_many_auth_failures");
    // A valid token is served from a locked address (docs/security.md, "Lockout").
    assert.equal((await through("GET", "/api/profile", { token: cluster.token })).status, 200);
  });
});

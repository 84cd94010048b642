// One stylesheet froze everything (docs/security.md, "Stylesheets bounded in time"): lightningcss
// parses repeated rules of one selector in quadratic time, on the service's thread: `a{b:c}` ×
// 4,000 (24 KB) took 2 s, and a 1 MB stylesheet, even as a dry run, held the whole service at 100%
// CPU for more than five minutes. Stylesheet work now runs in worker processes within
// SVC_CSS_TIME_LIMIT_MS of worker time per write; past it the write is 422 invalid_css with reason
// too_complex, nothing is stored, and the service's thread answered everyone meanwhile.
//
// Real processes over sockets (the build, as npm start runs it; two on PostgreSQL), with a limit of
// 1,000 ms rather than the default 2,000: the 4,000-rule sheet takes 2 s or more to parse and
// bundle on a slow machine and about half that on a fast one, so it is past the limit on any.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { call, type CallOptions, type Reply } from "../cluster/helpers.ts";
import { effects, ok, processes } from "../publish/effects-helpers.ts";

const LIMIT_MS = 1_000;
/** What a refusal may take beyond the limit: a worker process's start, the database, a busy machine. */
const MARGIN_MS = 3_000;

/** `call`, failing after `ms` instead of waiting for a service that does not answer. */
function within(ms: number, port: number, method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${method} ${path} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([call(port, method, path, options), late]).finally(() => clearTimeout(timer));
}

const repeated = (bytes: number) => "a{b:c}".repeat(Math.floor(bytes / 6));

function tooComplex(reply: Reply, what: string): void {
  assert.equal(reply.status, 422, `${what}: ${reply.text.slice(0, 300)}`);
  assert.equal(reply.body.error, "invalid_css", what);
  assert.equal(reply.body.reason, "too_complex", what);
  assert.equal(reply.body.time_limit_ms, LIMIT_MS, what);
}

describe(`security: stylesheet work is bounded in time and off the service's thread (${processes === 2 ? "PostgreSQL, two processes" : "SQLite"})`, () => {
  const e = effects({ SVC_CSS_TIME_LIMIT_MS: String(LIMIT_MS) });

  it("4,000 rules of one selector (24 KB) are refused with 422 invalid_css, reason too_complex, within about SVC_CSS_TIME_LIMIT_MS, and nothing is stored", async () => {
    const writer = e.cluster.processes[0].port;
    const started = performance.now();
    const refused = await within(LIMIT_MS + MARGIN_MS, writer, "PUT", "/api/site/1/styles/quadratic", {
      token: e.cluster.token,
      body: { css: repeated(24_000) },
    });
    const took = performance.now() - started;
    tooComplex(refused, "the write");
    assert.ok(took >= LIMIT_MS && took < LIMIT_MS + MARGIN_MS, `refused after ${Math.round(took)} ms`);
    assert.equal((await e.api("GET", "/styles/quadratic")).status, 404, "nothing was stored");
    assert.deepEqual(ok(await e.api("GET", "/styles"), "list").styles, []);
  });

  it("while a 1 MB stylesheet is refused as a dry run (too_complex, within about the limit), /healthz and another site's cached page answer within 100 ms, and another site's stylesheet write is answered first", async () => {
    const writer = e.cluster.processes[0].port;
    const other = await e.site("Other", "other-css.localhost");
    await e.frame("plain", "<p>other site</p>", other);
    await e.page("o", "plain", {}, other);
    for (let i = 0; i < 2; i++) await call(writer, "GET", "/o/", { host: "other-css.localhost" });
    // Two worker processes started and idle (one stylesheet write per site at once), so the window
    // below measures the service's thread, not two processes starting on a shared machine.
    const warm = await Promise.all([
      e.api("PUT", "/styles/warm", { css: "a{}" }),
      e.api("PUT", "/styles/warm", { css: "b{}" }, other),
    ]);
    for (const reply of warm) ok(reply, "a stylesheet before the window", 201);

    const started = performance.now();
    let refusedAt = Infinity;
    const dryRun = within(LIMIT_MS + MARGIN_MS, writer, "PUT", "/api/site/1/styles/huge?dry_run=1", {
      token: e.cluster.token,
      body: { css: repeated(1_000_000) },
    }).then((reply) => {
      refusedAt = performance.now();
      return reply;
    });
    // Another site's stylesheet work runs beside it, in another worker process.
    const otherWrite = e
      .api("PUT", "/styles/small", { css: "p { color: #333 }" }, other)
      .then((reply) => ({ reply, at: performance.now() }));

    const waits: Array<{ path: string; ms: number }> = [];
    while (refusedAt === Infinity && performance.now() - started < LIMIT_MS + MARGIN_MS) {
      for (const [path, host] of [
        ["/healthz", "localhost"],
        ["/o/", "other-css.localhost"],
      ] as const) {
        const asked = performance.now();
        const reply = await within(1_000, writer, "GET", path, { host });
        assert.equal(reply.status, 200, `${path}: ${reply.status}`);
        if (path === "/o/") assert.match(reply.text, /other site/);
        waits.push({ path, ms: performance.now() - asked });
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const refused = await dryRun;
    const took = refusedAt - started;
    tooComplex(refused, "the dry run");
    assert.ok(took >= LIMIT_MS && took < LIMIT_MS + MARGIN_MS, `refused after ${Math.round(took)} ms`);
    assert.ok(waits.length >= 10, `${waits.length} requests answered while the stylesheet was refused`);
    const slowest = Math.max(...waits.map((wait) => wait.ms));
    assert.ok(slowest < 100, `answered in ${waits.map((wait) => `${wait.path} ${Math.round(wait.ms)}`).join(", ")} ms`);

    const { reply: written, at } = await otherWrite;
    assert.equal(written.status, 201, written.text.slice(0, 300));
    assert.ok(at < refusedAt, "the other site's write waited for the slow stylesheet");
    assert.equal((await e.api("GET", "/styles/huge")).status, 404, "the dry run stored nothing");
  });

  it("the service's own process never loads lightningcss: its worker processes do", async () => {
    ok(await e.api("PUT", "/styles/loaded", { css: "a { color: red }" }), "a stylesheet", 201);
    for (const running of e.cluster.processes) {
      const maps = readFileSync(`/proc/${running.child.pid}/maps`, "utf8");
      assert.ok(!/lightningcss/.test(maps), "lightningcss is mapped into the service's process");
    }
  });
});

// Stylesheet work in worker processes (docs/styles.md; src/styles/css.ts, css-pool.ts,
// css-worker.ts): a write's parse and bundles spend one budget of SVC_CSS_TIME_LIMIT_MS, the
// process running a job past it is ended, and sites share the processes in turn. The real worker
// runs every job here; which process ran what is read from the system's process list.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { getPriority } from "node:os";
import { fileURLToPath } from "node:url";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { ServiceError } from "../../src/errors.ts";
import type { CssAnswer, CssJob } from "../../src/styles/css-compile.ts";
import { ProcessPool } from "../../src/styles/css-pool.ts";
import { CssBudget, parseStylesheet, setCssTimeLimit } from "../../src/styles/css.ts";

const WORKER = fileURLToPath(new URL("../../src/styles/css-worker.ts", import.meta.url));

/** Minutes of lightningcss's work (repeated rules of one selector parse in quadratic time). */
const SLOW = "a{b:c}".repeat(150_000);

/**
 * The CSS worker processes of this process, ended ones included until they are reaped: Node reaps
 * a child as it tells the pool that the child exited, so a pid gone from here is one the pool forgot.
 */
function workers(): number[] {
  const list = execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(process.pid)], { encoding: "utf8" });
  return list
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([pid, ...args]) => pid !== "" && /css-worker|<defunct>/.test(args.join(" ")))
    .map(([pid]) => Number(pid));
}

/**
 * Polls `done` until it holds (a process ended by a signal is gone a moment later; up to 20 s, as
 * the whole suite on two cores delayed it past 5 s in two runs).
 */
async function eventually(done: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 800; i++) {
    // Asked once a round: the process list may change between two calls.
    if (done()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.fail(what);
}

async function refused(work: Promise<unknown>): Promise<ServiceError> {
  try {
    await work;
  } catch (error) {
    assert.ok(error instanceof ServiceError, String(error));
    return error;
  }
  assert.fail("not refused");
}

describe("stylesheet work in worker processes", () => {
  it("a job past the budget is refused 422 invalid_css with reason too_complex, the process that ran it is ended, and the site's next job runs in a new one", async () => {
    setCssTimeLimit(300);
    await parseStylesheet("a { color: red }", new CssBudget(11));
    const idle = workers();
    assert.ok(idle.length > 0, "a worker process ran the first job");
    const error = await refused(parseStylesheet(SLOW, new CssBudget(11)));
    assert.equal(error.code, "invalid_css");
    assert.deepEqual(error.details, { line: 1, column: 1, reason: "too_complex", time_limit_ms: 300 });
    await eventually(
      () => idle.filter((pid) => workers().includes(pid)).length < idle.length,
      "the process that ran the job was ended",
    );
    assert.deepEqual(
      (await parseStylesheet("@import 'next';", new CssBudget(11))).imports.map((spot) => spot.name),
      ["next"],
    );
  });

  it("a worker process runs below the service's priority (nice 10), so a busy machine gives the service's thread the CPU first", async () => {
    await parseStylesheet("a { color: red }", new CssBudget(11));
    const running = workers();
    assert.ok(running.length > 0);
    for (const pid of running) assert.equal(getPriority(pid), 10, `process ${pid}`);
  });

  it("one budget serves a write's jobs: once spent, its next job is refused too_complex without running, and a new budget runs", async () => {
    setCssTimeLimit(300);
    const budget = new CssBudget(12);
    await refused(parseStylesheet(SLOW, budget));
    const again = await refused(parseStylesheet("a { color: red }", budget));
    assert.equal(again.details.reason, "too_complex");
    assert.deepEqual(await parseStylesheet("a { color: red }", new CssBudget(12)), { imports: [], media: [] });
  });

  it("one site's slow stylesheet neither fails nor holds another site's: the other's job is answered first, the slow one refused", async () => {
    // Long enough for the other site's job to start a process of its own on a loaded machine.
    setCssTimeLimit(4_000);
    const order: string[] = [];
    const slow = refused(parseStylesheet(SLOW, new CssBudget(13))).then((error) =>
      order.push(`slow ${error.details.reason}`),
    );
    const small = parseStylesheet("p { margin: 0 }", new CssBudget(14)).then(() => order.push("other site"));
    await Promise.all([slow, small]);
    assert.deepEqual(order, ["other site", "slow too_complex"]);
  });

  it("sites are served in turn and a site's jobs one at a time: on one process, jobs queued for sites 1, 1, 1, 2 are answered 1, 2, 1, 1", async () => {
    const pool = new ProcessPool<CssJob, CssAnswer>({ file: WORKER, size: 1 });
    try {
      const order: string[] = [];
      const job = (site: number, label: string) =>
        pool.run(site, { kind: "parse", css: `.${label}{}` }, 10_000).then(({ answer }) => {
          assert.ok(answer.ok);
          order.push(label);
        });
      await Promise.all([job(1, "a1"), job(1, "b1"), job(1, "c1"), job(2, "a2")]);
      assert.deepEqual(order, ["a1", "a2", "b1", "c1"]);
    } finally {
      pool.close();
    }
  });

  it("a site keeps its turn between its jobs: a job queued as its previous one ends waits for the sites served before it", async () => {
    const pool = new ProcessPool<CssJob, CssAnswer>({ file: WORKER, size: 1 });
    try {
      const order: string[] = [];
      const job = (site: number, label: string) =>
        pool.run(site, { kind: "parse", css: `.${label}{}` }, 10_000).then(() => order.push(label));
      // Site 1's second job comes as its first is answered, the way a write's bundle follows its parse.
      await Promise.all([job(3, "c1"), job(3, "c2"), job(1, "a1").then(() => job(1, "a2")), job(2, "b1")]);
      assert.deepEqual(order, ["c1", "a1", "b1", "c2", "a2"]);
    } finally {
      pool.close();
    }
  });

  it("a worker process that dies fails the job it ran, as 502 internal_unavailable; the site's next job runs in a new process", async () => {
    setCssTimeLimit(60_000);
    // Idle processes that die are only forgotten.
    for (const pid of workers()) process.kill(pid, "SIGKILL");
    await eventually(() => workers().length === 0, "the idle processes were ended");
    let settled = false;
    const dying = refused(parseStylesheet(SLOW, new CssBudget(15))).finally(() => (settled = true));
    // Every worker process is killed until the slow job is answered: the one running it among them
    // (which process that is, ps does not tell; on a loaded machine its start may lag).
    const killed = new Set<number>();
    await eventually(() => {
      for (const pid of workers()) {
        if (killed.has(pid)) continue;
        killed.add(pid);
        process.kill(pid, "SIGKILL");
      }
      return settled;
    }, "the slow job was answered");
    const error = await dying;
    assert.equal(error.code, "internal_unavailable");
    assert.equal(error.details.reason, "css_worker");
    assert.deepEqual(await parseStylesheet("a { color: red }", new CssBudget(15)), { imports: [], media: [] });
    assert.ok(
      workers().every((pid) => !killed.has(pid)),
      "the next job ran in a new process",
    );
  });
});

describe("SVC_CSS_TIME_LIMIT_MS", () => {
  it("is 2,000 ms unless set; a value outside 10 to 600,000 stops start-up naming the variable", () => {
    assert.equal(loadConfig({}).cssTimeLimitMs, 2_000);
    assert.equal(loadConfig({ SVC_CSS_TIME_LIMIT_MS: "500" }).cssTimeLimitMs, 500);
    for (const value of ["5", "600001", "2s"])
      assert.throws(
        () => loadConfig({ SVC_CSS_TIME_LIMIT_MS: value }),
        (error: unknown) => error instanceof ConfigError && error.variable === "SVC_CSS_TIME_LIMIT_MS",
        value,
      );
  });
});

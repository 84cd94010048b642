// svc paces itself (through the typed client): against the service's own limiter with a window of
// a second or two instead of a minute (the same class the service builds from
// SVC_RATE_LIMIT_PER_MIN, so the test takes seconds), a push of many more frames than a window
// allows finishes with no failed request, and a 429 met because another caller spent the window
// is waited out with `waiting N s: rate limit` on stderr, then retried. The app runs in this
// process on a loopback port; svc is the built dist/cli.js as a child process.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import RateLimiterMemory from "rate-limiter-flexible/lib/RateLimiterMemory.js";
import { FlexibleLimits, MemoryWindows, type Limits } from "../../src/http/limits.ts";
import { inProcess, parseOne, serve, tempDir, write, type InProcess } from "./harness.ts";

/** The service's limits with an API window `seconds` long (the limiter class the service uses). */
function shortWindow(points: number, seconds: number): Limits {
  const settings = {
    rateLimitPerMin: points,
    authFailuresPerMin: 1000,
    authFailuresPerLogin: 1000,
    publicRateLimitPerMin: 1_000_000,
  };
  return new FlexibleLimits(
    new MemoryWindows(points, seconds),
    new RateLimiterMemory({ points: 1000, duration: 60, keyPrefix: "authfail" }),
    new MemoryWindows(settings.publicRateLimitPerMin),
    settings,
    new RateLimiterMemory({ points: 1000, duration: 900, keyPrefix: "authlogin" }),
  );
}

async function pacedApp(points: number, seconds: number): Promise<InProcess> {
  return inProcess({ limits: shortWindow(points, seconds) });
}

/**
 * The frames listed, once the window allows this test's own call: a push may end with the window
 * spent, and the check must not be the one refused.
 */
async function framesListed(p: InProcess): Promise<number> {
  for (;;) {
    const list = await p.t.api("GET", "/frames?per_page=500");
    if (list.status !== 429) {
      assert.equal(list.status, 200);
      return list.body.total;
    }
    await new Promise((resolve) => setTimeout(resolve, Number(list.headers.get("retry-after") ?? 1) * 1000 + 50));
  }
}

function frames(dir: string, count: number, prefix: string): void {
  for (let i = 0; i < count; i++) write(dir, `frames/${prefix}-${i}.html`, `<section>${prefix} ${i}</section>`);
}

describe("svc push under a rate limit (40 calls per 1 s window)", () => {
  let p: InProcess;
  before(async () => {
    p = await pacedApp(40, 1);
  });
  after(() => p.t.stop());

  it("200 new frames, five windows' worth: all created, no 429 met, no failed request", {
    timeout: 60_000,
  }, async () => {
    const dir = tempDir("svc-cli-paced-");
    try {
      frames(dir, 200, "many");
      const run = await p.t.svc(["push", dir, "--json"]);
      assert.equal(run.code, 0, run.stderr);
      const doc = parseOne(run);
      assert.equal(doc.counts.create, 200);
      assert.deepEqual(
        p.statuses.filter((s) => s >= 300),
        [],
        "every answer a success: the client slowed down before the window ran out",
      );
      assert.equal(await framesListed(p), 200);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// A window of 8 s: svc is a process of its own, and on a loaded machine (CI runs test files side
// by side) its start took more than the 2 s and then 4 s windows this used, so its first call found
// a fresh window and met no 429.
describe("svc push after another caller spent the window (10 calls per 8 s)", () => {
  let p: InProcess;
  before(async () => {
    p = await pacedApp(10, 8);
  });
  after(() => p.t.stop());

  it("30 frames: meets a 429, prints `waiting N s: rate limit`, waits it out and finishes with every frame written", {
    timeout: 90_000,
  }, async () => {
    const dir = tempDir("svc-cli-429-");
    try {
      frames(dir, 30, "later");
      await new Promise((resolve) => setTimeout(resolve, 8100)); // a fresh window
      for (let i = 0; i < 10; i++)
        assert.equal((await p.t.api("GET", "/frames?per_page=1")).status, 200, `call ${i} spends the window`);
      const before = p.statuses.length;
      const run = await p.t.svc(["push", dir]);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, /^waiting [1-8] s: rate limit$/m);
      assert.match(run.stdout, /30 create/);
      const answers = p.statuses.slice(before);
      assert.ok(answers.includes(429), "the first call met the spent window");
      assert.deepEqual(
        answers.filter((s) => s !== 429 && s >= 300),
        [],
        "no other failure",
      );
      assert.equal(answers.filter((s) => s === 201).length, 30, "each frame created once");
      assert.equal(await framesListed(p), 30);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("svc push under SVC_RATE_LIMIT_PER_MIN=20 on the built service (a minute's window; run with SVC_CLI_SLOW=1)", {
  skip: !process.env.SVC_CLI_SLOW && "about 70 s: set SVC_CLI_SLOW=1",
}, () => {
  it("30 frames, more than a window allows: waits with `waiting N s: rate limit`, no failed request", {
    timeout: 180_000,
  }, async () => {
    const t = await serve({ SVC_RATE_LIMIT_PER_MIN: "20" });
    const dir = tempDir("svc-cli-minute-");
    try {
      frames(dir, 30, "minute");
      const run = await t.svc(["push", dir, "--json"], { timeoutMs: 170_000 });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, /^waiting \d+ s: rate limit$/m);
      assert.equal(parseOne(run).counts.create, 30);
      const list = await t.api("GET", "/frames?per_page=500");
      assert.equal(list.body.total, 30);
    } finally {
      await t.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

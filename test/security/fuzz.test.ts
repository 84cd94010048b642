// Issue 16, point 4: random and hostile JSON and markup thrown at every route the app declares
// (t.app.routesIndex.list()), by four callers: the super-administrator, an administrator and an
// editor of the fuzzed site, and a caller without a token. Whatever comes in, the answer is never
// a 5xx, and a GET /healthz right after it is answered within 1 s.
//
// Two parts, each on an app of its own:
// - a sweep: every route and method, every caller, the same hostile inputs every run (bodies
//   10,000 levels deep, random JSON and route-shaped bodies from a fixed fast-check seed, hostile
//   address parameters and query strings, hostile markup, stylesheets and files where a route takes
//   them; fuzz-sweep.ts). A hook on the app records the route each answer came from, so the test
//   proves that every route and method was reached by every caller, not only drawn;
// - a property: requests drawn at random (fast-check), each by a random caller.
//
// Reproduce a failure of the property with the seed fast-check prints: FUZZ_SEED=<seed> npm test --
// test/security/fuzz.test.ts (FUZZ_RUNS=<n> runs more; the sweep uses FUZZ_SEED too, 16 by default).
// The app is stateful (a request may delete what a later one names), so failures are reported as
// they happen (endOnFailure), with method, address and answer, not shrunk. A crash of the process
// itself reports nothing: FUZZ_TRACE=<file> writes each request there before it is sent.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync } from "node:fs";
import fc from "fast-check";
import { startTestApp, type TestApp } from "../support/app.ts";
import { PUBLIC_PATHS, publicRequest, requestArbitrary, routeMethods, seed, type Caller, type Ids, type Request } from "./fuzz-inputs.ts";
import { sweepRequests } from "./fuzz-sweep.ts";

const RUNS = Number(process.env.FUZZ_RUNS ?? 400);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
/** A file each request is written to before it is sent: what a crash of the whole process (no report) was doing. */
const TRACE = process.env.FUZZ_TRACE;

/** A fuzzed app: failed logins would otherwise lock the test's one address out after 20 a minute. */
async function fuzzedApp(reached?: (request: { method: string; url: string | undefined; authorization: string | undefined }) => void): Promise<TestApp> {
  return startTestApp({
    env: { SVC_AUTH_FAILURES_PER_MIN: "10000000" },
    beforeReady: reached && ((app) => app.addHook("onResponse", async (request) => reached({ method: request.method, url: request.routeOptions.url, authorization: request.headers.authorization }))),
  });
}

interface Sent {
  status: number;
  /** `<status> <error code>`, for the tally of answers. */
  key: string;
  /** What was sent and answered, for a failure message. */
  shown: string;
}

/** Sends a request as a caller, then GET /healthz; answers what a failure message needs. */
async function send(t: TestApp, caller: Caller, request: Request): Promise<Sent & { healthMs: number; healthStatus: number }> {
  const headers: Record<string, string> = { ...request.headers };
  if (caller.token !== null) headers.authorization = `Bearer ${caller.token}`;
  if (request.payload !== undefined) headers["content-type"] = request.contentType ?? "application/json";
  if (TRACE) appendFileSync(TRACE, `${caller.name} ${request.method} ${request.url.slice(0, 150)} ${request.contentType} ${String(request.payload).slice(0, 150)}\n`);
  const answer = await t.app.inject({ method: request.method as "GET", url: request.url, headers, payload: request.payload });
  const body = request.payload === undefined ? "" : typeof request.payload === "string" ? request.payload.slice(0, 300) : `<${request.payload.length} bytes>`;
  const shown = `${caller.name}: ${request.method} ${request.url.slice(0, 200)} ${body}\n→ ${answer.statusCode} ${answer.body.slice(0, 500)}`;
  const started = performance.now();
  const health = await t.app.inject({ method: "GET", url: "/healthz" });
  const healthMs = performance.now() - started;
  const code = /"(?:error|code)":"([a-z_]+)"/.exec(answer.body.slice(0, 200))?.[1] ?? "";
  return { status: answer.statusCode, key: `${answer.statusCode} ${code}`.trim(), shown, healthMs, healthStatus: health.statusCode };
}

const tally = (statuses: Map<string, number>) => [...statuses].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ×${n}`).join(", ");

describe("fuzz: every route and method, four callers, hostile inputs (deterministic sweep)", () => {
  let t: TestApp;
  let ids: Ids;
  /** `<caller> <METHOD> <route pattern>` of every answer, from the app's own routing. */
  const reached = new Map<string, number>();
  const names = new Map<string | undefined, string>();
  before(async () => {
    t = await fuzzedApp(({ method, url, authorization }) => {
      const key = `${names.get(authorization) ?? "unknown caller"} ${method} ${url ?? "(no route)"}`;
      reached.set(key, (reached.get(key) ?? 0) + 1);
    });
    ids = await seed(t);
    for (const caller of ids.callers) names.set(caller.token === null ? undefined : `Bearer ${caller.token}`, caller.name);
  });
  after(() => t.close());

  it("no 5xx, and GET /healthz answers within 1 s after every request; every route and method is reached by every caller", async (test) => {
    const sweep = sweepRequests(t, ids, SEED ?? 16);
    const failures: string[] = [];
    const statuses = new Map<string, number>();
    let sent = 0;
    for (const { requests } of sweep) {
      for (const request of requests) {
        for (const caller of ids.callers) {
          const r = await send(t, caller, request);
          sent++;
          if (r.status >= 500) failures.push(r.shown);
          if (r.healthStatus !== 200 || r.healthMs >= 1000) failures.push(`GET /healthz after ${r.shown}: ${r.healthStatus} in ${Math.round(r.healthMs)} ms`);
          const key = `${caller.name}: ${r.key}`;
          statuses.set(key, (statuses.get(key) ?? 0) + 1);
        }
      }
      if (failures.length >= 20) break;
    }
    for (const path of PUBLIC_PATHS) for (const caller of ids.callers) {
      const r = await send(t, caller, { method: "GET", url: path, headers: { host: "localhost" } });
      if (r.status >= 500) failures.push(r.shown);
    }
    assert.deepEqual(failures, [], `${failures.length} failures:\n${failures.join("\n\n")}`);

    // Reached, not only sent: each route and method answered each caller at least 5 times.
    const missing: string[] = [];
    for (const { method, url } of routeMethods(t)) {
      for (const caller of ids.callers) if ((reached.get(`${caller.name} ${method} ${url}`) ?? 0) < 5) missing.push(`${caller.name} ${method} ${url}: ${reached.get(`${caller.name} ${method} ${url}`) ?? 0}`);
    }
    assert.deepEqual(missing, [], "routes and methods not reached by a caller");
    assert.ok(sweep.length >= 170, `${sweep.length} routes and methods`);
    test.diagnostic(`${sweep.length} routes and methods, ${sent} requests; answers: ${tally(statuses)}`);
    // The callers still work: the sweep exercised routes, not callers locked out or demoted.
    assert.equal((await t.call("GET", "/api/profile")).status, 200);
    assert.equal((await t.call("GET", "/api/site/1/settings", { token: ids.callers[1]!.token })).status, 200);
  });
});

describe("fuzz: random requests to every route (fast-check property)", () => {
  let t: TestApp;
  let ids: Ids;
  before(async () => {
    t = await fuzzedApp();
    ids = await seed(t);
  });
  after(() => t.close());

  it(`never answers 5xx, and answers GET /healthz within 1 s after each request (${RUNS} runs)`, async (test) => {
    const requests = fc.oneof({ weight: 12, arbitrary: requestArbitrary(t, ids) }, { weight: 1, arbitrary: publicRequest });
    // The administrators reach further than the others, who are mostly refused at the door.
    const callers = fc.oneof({ weight: 3, arbitrary: fc.constant(ids.callers[0]!) }, { weight: 3, arbitrary: fc.constant(ids.callers[1]!) }, { weight: 1, arbitrary: fc.constant(ids.callers[2]!) }, { weight: 1, arbitrary: fc.constant(ids.callers[3]!) });
    let seen = 0;
    const statuses = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(requests, callers, async (request, caller) => {
        const r = await send(t, caller, request);
        assert.ok(r.status < 500, r.shown);
        assert.equal(r.healthStatus, 200, `GET /healthz after ${r.shown}: ${r.healthStatus}`);
        assert.ok(r.healthMs < 1000, `GET /healthz after ${r.shown} took ${Math.round(r.healthMs)} ms`);
        seen++;
        const key = `${caller.name}: ${r.key}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    assert.equal(seen, RUNS);
    test.diagnostic(`answers: ${tally(statuses)}`);
    // The admin token still works: the run exercised routes, not a locked-out caller.
    assert.equal((await t.call("GET", "/api/profile")).status, 200);
  });
});

// The fuzz test's two parts (fuzz.test.ts against the app from src/, fuzz-built.test.ts against
// the build): random and hostile JSON and markup thrown at every route the app declares, by four
// callers; whatever comes in, the answer is never a 5xx, and a GET /healthz right after it is
// answered within 1 s. fuzz.test.ts says how to reproduce a failure.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync } from "node:fs";
import fc from "fast-check";
import {
  PUBLIC_PATHS,
  publicRequest,
  requestArbitrary,
  routeMethods,
  seed,
  type Caller,
  type Ids,
  type Request,
} from "./fuzz-inputs.ts";
import { sweepRequests } from "./fuzz-sweep.ts";
import { call, type FuzzTarget } from "./fuzz-target.ts";

const RUNS = Number(process.env.FUZZ_RUNS ?? 400);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
/** A file each request is written to before it is sent: what a crash of the whole process (no report) was doing. */
const TRACE = process.env.FUZZ_TRACE;

interface Sent {
  status: number;
  /** `<status> <error code>`, for the tally of answers. */
  key: string;
  /** What was sent and answered, for a failure message. */
  shown: string;
}

/** Sends a request (drawn for `route`, if given) as a caller, then GET /healthz; answers what a failure message needs. */
async function send(
  t: FuzzTarget,
  caller: Caller,
  request: Request,
  route?: string,
): Promise<Sent & { healthMs: number; healthStatus: number }> {
  const headers: Record<string, string> = { ...request.headers };
  if (caller.token !== null) headers.authorization = `Bearer ${caller.token}`;
  if (request.payload !== undefined) headers["content-type"] = request.contentType ?? "application/json";
  if (TRACE)
    appendFileSync(
      TRACE,
      `${caller.name} ${request.method} ${request.url.slice(0, 150)} ${request.contentType} ${String(request.payload).slice(0, 150)}\n`,
    );
  const answer = await t.request(
    { method: request.method, url: request.url, headers, payload: request.payload },
    route,
  );
  const body =
    request.payload === undefined
      ? ""
      : typeof request.payload === "string"
        ? request.payload.slice(0, 300)
        : `<${request.payload.length} bytes>`;
  const shown = `${caller.name}: ${request.method} ${request.url.slice(0, 200)} ${body}\n→ ${answer.status} ${answer.body.slice(0, 500)}`;
  const started = performance.now();
  const health = await t.request({ method: "GET", url: "/healthz" });
  const healthMs = performance.now() - started;
  const code = /"(?:error|code)":"([a-z_]+)"/.exec(answer.body.slice(0, 200))?.[1] ?? "";
  return {
    status: answer.status,
    key: `${answer.status} ${code}`.trim(),
    shown,
    healthMs,
    healthStatus: health.status,
  };
}

const tally = (statuses: Map<string, number>) =>
  [...statuses]
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ×${n}`)
    .join(", ");

/** The two parts of the fuzz test, each on a target of its own from `start` (fuzz-target.ts). */
export function fuzzSuites(start: () => Promise<FuzzTarget>, kind: string): void {
  describe(`fuzz (${kind}): every route and method, four callers, hostile inputs (deterministic sweep)`, () => {
    let t: FuzzTarget;
    let ids: Ids;
    before(async () => {
      t = await start();
      ids = await seed(t);
      t.nameCallers(ids.callers);
    });
    after(() => t?.close());

    it("no 5xx, and GET /healthz answers within 1 s after every request; every route and method is reached by every caller", async (test) => {
      const sweep = sweepRequests(t, ids, SEED ?? 16);
      const failures: string[] = [];
      const statuses = new Map<string, number>();
      let sent = 0;
      for (const { route, requests } of sweep) {
        for (const request of requests) {
          for (const caller of ids.callers) {
            const r = await send(t, caller, request, route);
            sent++;
            if (r.status >= 500) failures.push(r.shown);
            if (r.healthStatus !== 200 || r.healthMs >= 1000)
              failures.push(`GET /healthz after ${r.shown}: ${r.healthStatus} in ${Math.round(r.healthMs)} ms`);
            const key = `${caller.name}: ${r.key}`;
            statuses.set(key, (statuses.get(key) ?? 0) + 1);
          }
        }
        if (failures.length >= 20) break;
      }
      for (const path of PUBLIC_PATHS)
        for (const caller of ids.callers) {
          const r = await send(t, caller, { method: "GET", url: path, headers: { host: "localhost" } });
          if (r.status >= 500) failures.push(r.shown);
        }
      assert.deepEqual(failures, [], `${failures.length} failures:\n${failures.join("\n\n")}`);

      // Reached, not only sent: each route and method answered each caller at least 5 times.
      const reached = t.reached;
      const missing: string[] = [];
      for (const { method, url } of routeMethods(t)) {
        for (const caller of ids.callers)
          if ((reached.get(`${caller.name} ${method} ${url}`) ?? 0) < 5)
            missing.push(`${caller.name} ${method} ${url}: ${reached.get(`${caller.name} ${method} ${url}`) ?? 0}`);
      }
      assert.deepEqual(missing, [], "routes and methods not reached by a caller");
      assert.ok(sweep.length >= 170, `${sweep.length} routes and methods`);
      test.diagnostic(`${sweep.length} routes and methods, ${sent} requests; answers: ${tally(statuses)}`);
      // The callers still work: the sweep exercised routes, not callers locked out or demoted.
      assert.equal((await call(t, "GET", "/api/profile")).status, 200);
      assert.equal((await call(t, "GET", "/api/site/1/settings", { token: ids.callers[1]!.token })).status, 200);
    });
  });

  describe(`fuzz (${kind}): random requests to every route (fast-check property)`, () => {
    let t: FuzzTarget;
    let ids: Ids;
    before(async () => {
      t = await start();
      ids = await seed(t);
    });
    after(() => t?.close());

    it(`never answers 5xx, and answers GET /healthz within 1 s after each request (${RUNS} runs)`, async (test) => {
      const requests = fc.oneof(
        { weight: 12, arbitrary: requestArbitrary(t, ids) },
        { weight: 1, arbitrary: publicRequest },
      );
      // The administrators reach further than the others, who are mostly refused at the door.
      const callers = fc.oneof(
        { weight: 3, arbitrary: fc.constant(ids.callers[0]!) },
        { weight: 3, arbitrary: fc.constant(ids.callers[1]!) },
        { weight: 1, arbitrary: fc.constant(ids.callers[2]!) },
        { weight: 1, arbitrary: fc.constant(ids.callers[3]!) },
      );
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
      assert.equal((await call(t, "GET", "/api/profile")).status, 200);
    });
  });
}

// The pacing middleware (src/client/pacing.ts) on a scripted fetch and a fake clock: what is
// retried and what is not, bodies (streams too) sent again whole, waits told through onWait,
// calls held back before a spent window, the in-flight limit, aborts.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import createClient from "openapi-fetch";
import { createPacing, createSiteClient, type PacingOptions, type Wait } from "../../src/client/index.ts";

interface Sent {
  method: string;
  url: string;
  body: string;
  authorization: string | null;
  at: number;
}

type Script = (sent: Sent, index: number) => Response | Promise<Response>;

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
const ok = (headers: Record<string, string> = {}) => json(200, { success: true, warnings: [] }, headers);
const limited = (seconds: number) =>
  json(
    429,
    { code: "too_many_requests", message: "Too many requests.", data: { status: 429, retry_after: seconds } },
    {
      "retry-after": String(seconds),
      "x-ratelimit-limit": "10",
      "x-ratelimit-remaining": "0",
      "x-ratelimit-reset": String(seconds),
    },
  );
const unavailable = (retryAfter?: number) =>
  json(
    503,
    { code: "database_unavailable", message: "The database is not answering.", data: { status: 503 } },
    retryAfter ? { "retry-after": String(retryAfter) } : {},
  );

/** A client on a scripted fetch and a fake clock that moves only when the pacing sleeps. */
function rig(script: Script, pacing: PacingOptions = {}) {
  let clock = 1_000_000;
  const sent: Sent[] = [];
  const slept: number[] = [];
  const waits: Wait[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    const entry: Sent = {
      method: request.method,
      url: request.url,
      body: await request.text(),
      authorization: request.headers.get("authorization"),
      at: clock,
    };
    sent.push(entry);
    return script(entry, sent.length - 1);
  };
  const options: PacingOptions = {
    now: () => clock,
    sleep: async (ms) => {
      slept.push(ms);
      clock += ms;
    },
    onWait: (wait) => waits.push(wait),
    ...pacing,
  };
  const svc = createSiteClient({ url: "http://svc.test", token: "tok", site: 7, fetch, pacing: options });
  return { svc, sent, slept, waits, now: () => clock };
}

describe("pacing: retries", () => {
  it("a 429 is waited out for its Retry-After, told once, and the same request sent again with its body", async () => {
    const { svc, sent, slept, waits } = rig((_, i) => (i === 0 ? limited(23) : ok()));
    const answer = await svc.site.PUT("/frames/{ref}", {
      params: { path: { ref: "home" } },
      body: { html: "<p>ü</p>" },
    });
    assert.equal(answer.response.status, 200);
    assert.equal(sent.length, 2);
    assert.deepEqual(sent[1], { ...sent[0], at: sent[0].at + 23_000 });
    assert.equal(sent[1].url, "http://svc.test/api/site/7/frames/home");
    assert.equal(sent[1].authorization, "Bearer tok");
    assert.deepEqual(JSON.parse(sent[1].body), { html: "<p>ü</p>" });
    assert.deepEqual(slept, [23_000]);
    assert.deepEqual(waits, [{ seconds: 23, reason: "rate limit" }]);
  });

  it("a stream body is sent again whole", async () => {
    let clock = 0;
    const pacing = createPacing({
      now: () => clock,
      sleep: async (ms) => {
        clock += ms;
      },
    });
    const sent: string[] = [];
    const client = createClient<any>({
      baseUrl: "http://svc.test",
      fetch: async (request: Request) => {
        sent.push(await request.text());
        return sent.length === 1 ? limited(1) : ok();
      },
    });
    client.use(pacing.middleware);
    const chunks = ["first chunk, ", "second chunk, ", "last"];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(next));
      },
    });
    const answer = await client.POST("/upload", {
      body: stream,
      bodySerializer: (body: unknown) => body,
      duplex: "half",
      headers: { "content-type": "application/octet-stream" },
    } as never);
    assert.equal((answer as { response: Response }).response.status, 200);
    assert.deepEqual(sent, ["first chunk, second chunk, last", "first chunk, second chunk, last"]);
    assert.equal(pacing.inFlight(), 0);
  });

  it("a 503 database_unavailable is retried with backoff (1 s, 2 s) or its Retry-After, and told", async () => {
    const { svc, sent, slept, waits } = rig((_, i) => (i < 2 ? unavailable() : i === 2 ? unavailable(5) : ok()));
    const answer = await svc.site.GET("/frames");
    assert.equal(answer.response.status, 200);
    assert.equal(sent.length, 4);
    assert.deepEqual(slept, [1000, 2000, 5000]);
    assert.deepEqual(
      waits.map((w) => `${w.seconds} ${w.reason}`),
      ["1 database unavailable", "2 database unavailable", "5 database unavailable"],
    );
  });

  it("gives the 503 back after `unavailableRetries`, and the 429 after `rateLimitRetries`", async () => {
    const down = rig(() => unavailable(), { unavailableRetries: 2 });
    assert.equal((await down.svc.site.GET("/frames")).response.status, 503);
    assert.equal(down.sent.length, 3);
    const busy = rig(() => limited(1), { rateLimitRetries: 3 });
    assert.equal((await busy.svc.site.GET("/frames")).response.status, 429);
    assert.equal(busy.sent.length, 4);
  });

  it("never retries any other answer: 4xx, 500, a 503 of another kind, or a failed connection", async () => {
    for (const answer of [
      () => json(400, { success: false, error: "frame_cycle", message: "Embedding would loop." }),
      () => json(404, { code: "route_not_found", message: "No such route.", data: { status: 404 } }),
      () => json(412, { success: false, error: "precondition_failed", message: "Stale." }),
      () => json(500, { code: "internal_error", message: "Oops.", data: { status: 500 } }),
      () => new Response("<h1>Service Unavailable</h1>", { status: 503, headers: { "retry-after": "1" } }),
    ]) {
      const { svc, sent, slept } = rig(answer);
      const result = await svc.site.POST("/frames", { body: { slug: "x", html: "<p>" } });
      assert.equal(sent.length, 1, `status ${result.response.status} sent once`);
      assert.deepEqual(slept, []);
    }
    const { svc, sent } = rig(() => Promise.reject(new TypeError("fetch failed")));
    await assert.rejects(svc.site.GET("/frames"), /fetch failed/);
    assert.equal(sent.length, 1);
    assert.equal(svc.pacing?.inFlight(), 0, "a failed call gives its slot back");
  });
});

describe("pacing: the window", () => {
  it("holds calls back once an answer says the window is spent, and tells the wait", async () => {
    const { svc, sent, waits } = rig(() =>
      ok({ "x-ratelimit-limit": "10", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "30" }),
    );
    await svc.site.GET("/frames");
    await svc.site.GET("/frames");
    assert.equal(sent.length, 2);
    assert.equal(sent[1].at - sent[0].at, 30_000);
    assert.deepEqual(waits, [{ seconds: 30, reason: "rate limit" }]);
  });

  it("spreads the last calls of a window instead of spending them at once", async () => {
    const { svc, sent } = rig(
      (_, i) =>
        ok({
          "x-ratelimit-limit": "100",
          "x-ratelimit-remaining": String(Math.max(0, 12 - i)),
          "x-ratelimit-reset": "60",
        }),
      { maxInFlight: 1 },
    );
    for (let i = 0; i < 8; i++) await svc.site.GET("/frames");
    const gaps = sent.slice(1).map((s, i) => s.at - sent[i].at);
    assert.deepEqual(gaps.slice(0, 2), [0, 0], "plenty left: at once");
    assert.ok(
      gaps.slice(2).every((gap) => gap > 0),
      `then spread: ${gaps}`,
    );
  });
});

describe("pacing: in flight", () => {
  it("lets at most maxInFlight calls reach fetch at once, first come first served", async () => {
    for (const maxInFlight of [1, 2, 4]) {
      let now = 0;
      let most = 0;
      const order: string[] = [];
      const release: Array<() => void> = [];
      const svc = createSiteClient({
        url: "http://svc.test",
        token: "t",
        pacing: { maxInFlight },
        fetch: async (request) => {
          order.push(new URL(request.url).pathname);
          now++;
          most = Math.max(most, now);
          await new Promise<void>((resolve) => release.push(resolve));
          now--;
          return ok();
        },
      });
      const calls = Array.from({ length: 10 }, (_, i) =>
        svc.site.GET("/frames/{ref}", { params: { path: { ref: `f${i}` } } }),
      );
      while (order.length < 10 || release.length > 0) {
        await new Promise((resolve) => setImmediate(resolve));
        assert.ok(now <= maxInFlight);
        release.shift()?.();
      }
      await Promise.all(calls);
      assert.equal(most, maxInFlight);
      assert.deepEqual(
        order,
        Array.from({ length: 10 }, (_, i) => `/api/site/1/frames/f${i}`),
      );
      assert.equal(svc.pacing?.inFlight(), 0);
    }
  });

  it("an abort while waiting for a slot or a window rejects the call and frees what it held", async () => {
    const { svc, sent } = rig(() => ok({ "x-ratelimit-remaining": "0", "x-ratelimit-reset": "30" }), {
      sleep: (_ms, signal) =>
        new Promise((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason))),
    });
    await svc.site.GET("/frames");
    const controller = new AbortController();
    const waiting = svc.site.GET("/frames", { signal: controller.signal });
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort(new Error("stopped"));
    await assert.rejects(waiting, /stopped/);
    assert.equal(sent.length, 1);
    assert.equal(svc.pacing?.inFlight(), 0);
  });

  it("pacing: false sends every call as it comes", async () => {
    let sent = 0;
    const svc = createSiteClient({
      url: "http://svc.test",
      token: "t",
      pacing: false,
      fetch: async () => {
        sent++;
        return limited(5);
      },
    });
    assert.equal((await svc.site.GET("/frames")).response.status, 429);
    assert.equal(sent, 1);
    assert.equal(svc.pacing, null);
  });
});

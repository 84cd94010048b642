// The typed client's pacing against the service's real rate limit, over a socket: a burst of
// writes under a low limit all succeed (bodies re-sent on a retry), a 429's Retry-After is waited
// out and told through onWait, and calls slow down before the window runs out instead of meeting
// 429s. The last test runs the service's own one-minute window (SVC_RATE_LIMIT_PER_MIN), so it
// waits about a minute; the others use the same limiter with a window of a few seconds.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createSiteClient, unwrap, type Wait } from "../../src/client/index.ts";
import { serveApp, shortWindowLimits, type ServedApp } from "./server.ts";

/** A fetch that records the Retry-After of every 429 it receives. */
function recordingFetch(retryAfters: number[]) {
  return async (request: Request): Promise<Response> => {
    const response = await fetch(request);
    if (response.status === 429) retryAfters.push(Number(response.headers.get("retry-after")));
    return response;
  };
}

async function spend(t: ServedApp, calls: number): Promise<void> {
  for (let i = 0; i < calls; i++) {
    const answer = await fetch(`${t.origin}/api/site/1/frames?per_page=1`, {
      headers: { authorization: `Bearer ${t.adminToken}` },
    });
    await answer.arrayBuffer();
    assert.equal(answer.status, 200, `call ${i} to spend the budget`);
  }
}

describe("typed client: pacing under a short window (10 calls per 2 s)", () => {
  let t: ServedApp;
  before(async () => {
    t = await serveApp({ limits: shortWindowLimits(10, 2) });
  });
  after(() => t.close());

  it("a burst of 30 writes all succeed, with no 429: the client slows down before the window runs out", async () => {
    const waits: Wait[] = [];
    const svc = createSiteClient({
      url: t.origin,
      token: t.adminToken,
      pacing: { onWait: (wait) => waits.push(wait) },
    });
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        unwrap(svc.site.POST("/frames", { body: { slug: `paced-${i}`, html: `<p>${i}</p>` } })),
      ),
    );
    const seconds = (Date.now() - started) / 1000;
    assert.deepEqual(
      t.load.statuses.filter((status) => status !== 201),
      [],
      "every answer a 201",
    );
    assert.ok(seconds >= 4, `30 calls at 10 per 2 s take at least two windows more, took ${seconds} s`);
    const list = await unwrap(svc.site.GET("/frames", { params: { query: { q: "paced-", per_page: 100 } } }));
    assert.equal(list.total, 30);
    for (const wait of waits) assert.equal(wait.reason, "rate limit");
  });

  it("a 429 is waited out for its Retry-After, told through onWait, and the same write sent again", async () => {
    await new Promise((resolve) => setTimeout(resolve, 2100)); // a fresh window
    await spend(t, 10);
    const waits: Wait[] = [];
    const retryAfters: number[] = [];
    const svc = createSiteClient({
      url: t.origin,
      token: t.adminToken,
      fetch: recordingFetch(retryAfters),
      pacing: { onWait: (wait) => waits.push(wait) },
    });
    const { frame } = await unwrap(
      svc.site.POST("/frames", { body: { slug: "after-429", html: "<p>sent twice</p>" } }),
    );
    assert.equal(frame.slug, "after-429");
    assert.equal(retryAfters.length, 1);
    assert.ok(retryAfters[0] >= 1 && retryAfters[0] <= 2, `Retry-After ${retryAfters[0]}`);
    assert.deepEqual(waits, [{ seconds: retryAfters[0], reason: "rate limit" }]);
    const read = await unwrap(svc.site.GET("/frames/{ref}", { params: { path: { ref: "after-429" } } }));
    assert.equal(read.frame.html, "<p>sent twice</p>");
  });
});

describe("typed client: pacing under SVC_RATE_LIMIT_PER_MIN=40 (the service's minute window; run with SVC_CLIENT_SLOW=1)", {
  skip:
    !process.env.SVC_CLIENT_SLOW && "about 60 s: set SVC_CLIENT_SLOW=1 (the short windows above test the same pacing)",
}, () => {
  let t: ServedApp;
  before(async () => {
    t = await serveApp({ env: { SVC_RATE_LIMIT_PER_MIN: "40" } });
  });
  after(() => t.close());

  it("another caller spent the window: a burst of 30 writes meets 429s, waits out Retry-After, and all succeed", {
    timeout: 150_000,
  }, async () => {
    await spend(t, 38);
    const waits: Wait[] = [];
    const retryAfters: number[] = [];
    const svc = createSiteClient({
      url: t.origin,
      token: t.adminToken,
      fetch: recordingFetch(retryAfters),
      pacing: { onWait: (wait) => waits.push(wait) },
    });
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        unwrap(svc.site.POST("/frames", { body: { slug: `minute-${i}`, html: `<p>${i}</p>` } })),
      ),
    );
    assert.equal(answers.length, 30);
    assert.ok(retryAfters.length >= 1, "the burst met at least one 429");
    assert.ok(
      retryAfters.every((seconds) => seconds >= 1 && seconds <= 60),
      `Retry-After ${retryAfters}`,
    );
    // One wait told for the window, with the Retry-After of the first 429 (later ones end with it).
    assert.deepEqual(waits[0], { seconds: retryAfters[0], reason: "rate limit" });
    const list = await unwrap(svc.site.GET("/frames", { params: { query: { q: "minute-", per_page: 100 } } }));
    assert.equal(list.total, 30);
    for (const frame of list.frames) assert.equal(frame.bytes, `<p>${frame.slug.slice("minute-".length)}</p>`.length);
  });
});

// The pacing rules of the typed client (src/client/pace.ts), pure functions of a state and the
// time, with examples and fast-check properties: never more sends in a window than it has left,
// waits only as long as needed, each wait told once, headers read in both forms.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  announceWait,
  block,
  decide,
  defaultSpreadBelow,
  INITIAL_PACE,
  observe,
  readRateHeaders,
  retryAfterSeconds,
  unavailableDelayMs,
  type PaceState,
} from "../../src/client/pace.ts";

const rules = { spreadBelow: 4 };

/** A state in a window with `available` calls left, ending at `resetAt`. */
const inWindow = (available: number, resetAt: number, extra: Partial<PaceState> = {}): PaceState => ({
  ...INITIAL_PACE,
  available,
  resetAt,
  limit: 120,
  ...extra,
});

describe("pace: reading the answers", () => {
  it("reads X-RateLimit-* and the draft's RateLimit / RateLimit-Policy alike", () => {
    const x = new Headers({ "x-ratelimit-limit": "120", "x-ratelimit-remaining": "7", "x-ratelimit-reset": "23" });
    const draft = new Headers({ ratelimit: '"default";r=7;t=23', "ratelimit-policy": '"default";q=120;w=60' });
    assert.deepEqual(readRateHeaders(x, 1000), { limit: 120, remaining: 7, resetAt: 24_000 });
    assert.deepEqual(readRateHeaders(draft, 1000), { limit: 120, remaining: 7, resetAt: 24_000 });
    assert.equal(readRateHeaders(new Headers(), 0), null);
    assert.equal(readRateHeaders(new Headers({ "x-ratelimit-remaining": "-1", "x-ratelimit-reset": "5" }), 0), null);
  });

  it("reads Retry-After in seconds or as a date", () => {
    assert.equal(retryAfterSeconds(new Headers({ "retry-after": "23" }), 0), 23);
    assert.equal(retryAfterSeconds(new Headers({ "retry-after": new Date(30_500).toUTCString() }), 10_000), 20);
    assert.equal(retryAfterSeconds(new Headers({ "retry-after": "soon" }), 0), null);
    assert.equal(retryAfterSeconds(new Headers(), 0), null);
  });

  it("the service's headers of any window read back as that window", () => {
    fc.assert(
      fc.property(
        fc.nat(10_000),
        fc.nat(10_000),
        fc.integer({ min: 1, max: 3600 }),
        fc.nat(1e12),
        (limit, remaining, reset, now) => {
          const headers = new Headers({
            "x-ratelimit-limit": String(limit),
            "x-ratelimit-remaining": String(remaining),
            "x-ratelimit-reset": String(reset),
            ratelimit: `"default";r=${remaining};t=${reset}`,
            "ratelimit-policy": `"default";q=${limit};w=60`,
          });
          const window = { limit, remaining, resetAt: now + reset * 1000 };
          assert.deepEqual(readRateHeaders(headers, now), window);
          const draftOnly = new Headers({
            ratelimit: headers.get("ratelimit")!,
            "ratelimit-policy": headers.get("ratelimit-policy")!,
          });
          assert.deepEqual(readRateHeaders(draftOnly, now), window);
        },
      ),
    );
  });
});

describe("pace: deciding", () => {
  it("sends at once while nothing is known, or while plenty is left", () => {
    assert.equal(decide(INITIAL_PACE, 0, rules).send, true);
    const plenty = decide(inWindow(50, 60_000), 1000, rules);
    assert.equal(plenty.send, true);
    assert.equal(plenty.state.available, 49);
  });

  it("waits for the window's end once it is spent, and tells that wait once", () => {
    const first = decide(inWindow(0, 24_000), 1000, rules);
    assert.equal(first.send, false);
    assert.equal(first.send === false && first.waitMs, 23_000);
    assert.deepEqual(first.send === false && first.announce, { seconds: 23, reason: "rate limit" });
    const second = decide(first.state, 1000, rules);
    assert.equal(
      second.send === false && second.announce,
      undefined,
      "a second waiter for the same end is not told again",
    );
    assert.equal(
      decide(first.state, 24_000, rules).send,
      true,
      "a new window: sent, its budget unknown until an answer",
    );
  });

  it("after a 429, nothing is sent before its Retry-After has passed", () => {
    const blocked = block(inWindow(30, 60_000), 10_000);
    const decision = decide(blocked, 4000, rules);
    assert.equal(decision.send === false && decision.waitMs, 6000);
    assert.equal(decide(blocked, 10_000, rules).send, true);
  });

  it("spreads the last calls of a window over the time left", () => {
    // 3 left, 40 s to go: one call per 10 s.
    let state = inWindow(3, 50_000, { lastSendAt: 10_000 });
    let decision = decide(state, 10_000, rules);
    assert.equal(decision.send === false && decision.waitMs, 10_000);
    decision = decide(decision.state, 20_000, rules);
    assert.equal(decision.send, true);
    state = decision.state;
    assert.equal(state.available, 2);
  });

  it("the spread threshold is the in-flight limit or a tenth of the window, whichever is more", () => {
    assert.equal(defaultSpreadBelow(null, 4), 4);
    assert.equal(defaultSpreadBelow(120, 4), 12);
    assert.equal(defaultSpreadBelow(10, 4), 4);
  });

  it("a 503's retries wait its Retry-After, else 1 s, 2 s, 4 s", () => {
    assert.deepEqual(
      [1, 2, 3].map((n) => unavailableDelayMs(n, null, 1000)),
      [1000, 2000, 4000],
    );
    assert.equal(unavailableDelayMs(2, 5, 1000), 5000);
  });

  /** Runs `decide` from `state` from time `start`, sleeping what it says, until `sends` calls went or `end` passed. */
  function run(state: PaceState, start: number, end: number, gaps: number[], spreadBelow: number) {
    let now = start;
    const sentAt: number[] = [];
    const waits: number[] = [];
    const told: number[] = [];
    let i = 0;
    while (now < end && sentAt.length < 10_000) {
      const decision = decide(state, now, { spreadBelow });
      state = decision.state;
      if (decision.send) {
        sentAt.push(now);
        now += gaps[i++ % gaps.length];
      } else {
        waits.push(decision.waitMs);
        if (decision.announce) told.push(now + decision.waitMs);
        now += decision.waitMs;
      }
    }
    return { sentAt, waits, told, state };
  }

  it("never sends more calls before a window ends than it had left", () => {
    fc.assert(
      fc.property(
        fc.nat(200),
        fc.integer({ min: 1, max: 120_000 }),
        fc.array(fc.nat(3000), { minLength: 1, maxLength: 20 }),
        fc.nat(50),
        (available, windowMs, gaps, spreadBelow) => {
          const resetAt = 1_000_000 + windowMs;
          const { sentAt, waits } = run(inWindow(available, resetAt), 1_000_000, resetAt + 1, gaps, spreadBelow);
          assert.ok(sentAt.filter((t) => t < resetAt).length <= available);
          for (const wait of waits) assert.ok(wait >= 1 && wait <= windowMs + 1, `wait ${wait}`);
        },
      ),
    );
  });

  it("sends at once while more than the spread threshold is left, then spreads the rest", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 5, max: 300 }),
        fc.integer({ min: 2000, max: 120_000 }),
        fc.nat(4),
        (available, windowMs, spreadBelow) => {
          const start = 1_000_000;
          const resetAt = start + windowMs;
          const { sentAt } = run(inWindow(available, resetAt), start, resetAt, [0], spreadBelow);
          assert.equal(sentAt.filter((t) => t === start).length, available - spreadBelow);
          assert.ok(sentAt.filter((t) => t > start).length <= spreadBelow);
        },
      ),
    );
  });

  it("waiters sharing a state tell each wait once: the ends told only grow", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            kind: fc.constantFrom("decide", "block", "observe"),
            dt: fc.nat(5000),
            seconds: fc.integer({ min: 1, max: 60 }),
            remaining: fc.nat(20),
          }),
          { maxLength: 60 },
        ),
        (steps) => {
          let state: PaceState = INITIAL_PACE;
          let now = 0;
          let lastTold = 0;
          for (const step of steps) {
            now += step.dt;
            if (step.kind === "block") {
              state = block(state, now + step.seconds * 1000);
              const told = announceWait(state, now, now + step.seconds * 1000);
              if (told.seconds !== null) {
                assert.ok(now + step.seconds * 1000 > lastTold);
                lastTold = now + step.seconds * 1000;
              }
              state = told.state;
            } else if (step.kind === "observe") {
              state = observe(
                state,
                { limit: 20, remaining: step.remaining, resetAt: now + step.seconds * 1000 },
                now,
                0,
              );
            } else {
              const decision = decide(state, now, rules);
              state = decision.state;
              if (!decision.send && decision.announce) {
                const end = now + decision.waitMs;
                assert.ok(end > lastTold, `told ${end} after ${lastTold}`);
                assert.ok(decision.announce.seconds >= 1);
                lastTold = end;
              }
            }
            assert.ok(state.available === null || state.available >= 0);
          }
        },
      ),
    );
  });
});

describe("pace: observing", () => {
  it("with calls overtaking each other at the server, the estimate never exceeds what is left, so no call meets a 429", () => {
    // One window of `limit` calls (it does not end during the run), at most 4 calls on the wire.
    // Steps: the client sends (when a slot is free and `decide` lets it), the server counts any
    // call it has received (in any order), or the answer of any counted call arrives (in any order).
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 30 }),
        fc.array(fc.tuple(fc.constantFrom("send", "count", "answer"), fc.nat(10)), { maxLength: 200 }),
        (limit, steps) => {
          let state: PaceState = INITIAL_PACE;
          const resetAt = 10_000_000;
          let counted = 0;
          const uncounted: number[] = []; // calls on the wire the server has not counted
          const answered: { remaining: number }[] = []; // counted calls whose answers are on their way
          let now = 1000;
          for (const [kind, pick] of steps) {
            now += 1;
            const onWire = uncounted.length + answered.length;
            if (kind === "send" && onWire < 4) {
              const decision = decide(state, now, { spreadBelow: 0 });
              state = decision.state;
              if (decision.send) uncounted.push(now);
            } else if (kind === "count" && uncounted.length > 0) {
              uncounted.splice(pick % uncounted.length, 1);
              counted++;
              assert.ok(counted <= limit, `the server counted ${counted} calls of ${limit}: a 429`);
              answered.push({ remaining: limit - counted });
            } else if (kind === "answer" && answered.length > 0) {
              const [answer] = answered.splice(pick % answered.length, 1);
              state = observe(
                state,
                { limit, remaining: answer.remaining, resetAt },
                now,
                uncounted.length + answered.length,
              );
            }
            if (state.available !== null)
              assert.ok(
                state.available <= limit - counted - uncounted.length,
                `estimate ${state.available}, left ${limit - counted - uncounted.length}`,
              );
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it("in one window, what is left only goes down and the earliest end is kept", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            remaining: fc.nat(100),
            reset: fc.integer({ min: 59_000, max: 60_000 }),
            dt: fc.nat(200),
            after: fc.nat(3),
          }),
          { minLength: 1, maxLength: 30 },
        ),
        (answers) => {
          let state: PaceState = INITIAL_PACE;
          let now = 0;
          let previous = Number.POSITIVE_INFINITY;
          let earliest = Number.POSITIVE_INFINITY;
          for (const answer of answers) {
            now += answer.dt;
            state = observe(
              state,
              { limit: 100, remaining: answer.remaining, resetAt: answer.reset },
              now,
              answer.after,
            );
            earliest = Math.min(earliest, answer.reset);
            assert.ok(state.available !== null && state.available >= 0);
            assert.ok(state.available <= Math.max(0, answer.remaining - answer.after));
            assert.ok(state.available <= previous);
            assert.equal(state.resetAt, earliest);
            previous = state.available;
          }
        },
      ),
    );
  });

  it("an answer of a new window replaces the old; a late answer of an older one is ignored", () => {
    const old = observe(INITIAL_PACE, { limit: 10, remaining: 0, resetAt: 60_000 }, 1000, 0);
    const fresh = observe(old, { limit: 10, remaining: 9, resetAt: 125_000 }, 65_000, 0);
    assert.equal(fresh.available, 9);
    assert.equal(fresh.resetAt, 125_000);
    assert.deepEqual(observe(fresh, { limit: 10, remaining: 3, resetAt: 60_000 }, 65_001, 0), fresh);
    assert.deepEqual(observe(fresh, null, 65_002, 0), fresh);
  });
});

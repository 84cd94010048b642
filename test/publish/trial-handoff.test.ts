// The bakes a write's trial rendered are reused by its publish run only while they are exact
// (src/publish/trial-handoff.ts): no run may have published a newer state of the site since.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { TrialBakes, TrialHandoff } from "../../src/publish/trial-handoff.ts";
import type { RenderResult } from "../../src/markup/index.ts";

const result = (html: string) => ({ html }) as RenderResult;

function trialOf(handoff: TrialHandoff, siteId: number, html: string) {
  const ticket = handoff.ticket(siteId);
  const bakes = new TrialBakes();
  bakes.keep("f1 en", result(html));
  return handoff.hand(siteId, ticket, bakes);
}

describe("trial handoff", () => {
  it("a run reuses its own write's trial when nothing newer was published", () => {
    const handoff = new TrialHandoff();
    const trial = trialOf(handoff, 1, "<p>a</p>");
    const taken = handoff.take(1, trial);
    assert.equal(taken.bakes?.get("f1 en")?.html, "<p>a</p>");
  });

  it("a trial older than a state already published is not reused: the run renders afresh", () => {
    const handoff = new TrialHandoff();
    const older = trialOf(handoff, 1, "<p>older</p>");
    const newer = trialOf(handoff, 1, "<p>newer</p>");
    const first = handoff.take(1, newer);
    assert.ok(first.bakes);
    handoff.written(1, first.ticket);
    const second = handoff.take(1, older);
    assert.equal(second.bakes, undefined);
    assert.ok(second.ticket > first.ticket, "a fresh state gets a newer ticket");
  });

  it("a run without a trial publishes a fresh state, after which earlier trials are stale", () => {
    const handoff = new TrialHandoff();
    const trial = trialOf(handoff, 1, "<p>t</p>");
    const fresh = handoff.take(1, undefined);
    assert.equal(fresh.bakes, undefined);
    handoff.written(1, fresh.ticket);
    assert.equal(handoff.take(1, trial).bakes, undefined);
  });

  it("a trial is handed once, and only to a run of its own site", () => {
    const handoff = new TrialHandoff();
    const trial = trialOf(handoff, 1, "<p>x</p>");
    assert.equal(handoff.take(2, trial).bakes, undefined);
    assert.equal(handoff.take(1, trial).bakes, undefined, "already taken");
  });

  it("a trial keeps at most 256 KB of output; bakes past it are left to the run, and it says when it has no more room", () => {
    const bakes = new TrialBakes();
    bakes.keep("a", result("x".repeat(192 * 1024)));
    bakes.keep("b", result("y".repeat(128 * 1024)));
    bakes.keep("c", result("small"));
    assert.deepEqual([...bakes.bakes.keys()], ["a", "c"]);
    assert.equal(bakes.hasRoom(), true);
    bakes.keep("d", result("z".repeat(64 * 1024 - 5)));
    assert.equal(bakes.hasRoom(), false);
    bakes.keep("e", result(""));
    assert.equal(bakes.bakes.has("e"), false, "a measured render has no output to keep");
  });
});

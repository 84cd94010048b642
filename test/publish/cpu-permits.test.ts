// The cores a process gives to work off its thread (src/cpu-permits.ts; docs/security.md): the
// render workers and the image variant slots share them, so together they never run more jobs at
// once than there are permits, and the service's own thread keeps a core. Asserted on what runs
// when, never on how long anything took.
import { test } from "node:test";
import assert from "node:assert/strict";
import { CpuPermits } from "../../src/cpu-permits.ts";
import { FairSlots } from "../../src/media/fair-slots.ts";
import type { RenderInput } from "../../src/publish/render-context.ts";
import { renderInput } from "./render-input.ts";
import { RenderPool } from "../../src/publish/render-pool.ts";

const input = (items: unknown[]): RenderInput => renderInput("f", [["data.rows", items]]);
const loop = `<!-- svc/repeat {"source": "data.rows"} --><!-- svc/repeat {"source": "data.rows", "match": {"n": "none"}} -->x<!-- /svc/repeat --><!-- /svc/repeat -->`;
/** A render of about a few hundred milliseconds, stopped by its time budget. */
const slowRender = {
  input: input(Array.from({ length: 2_000 }, (_, n) => ({ n }))),
  frames: [{ id: "00000000000000aa", slug: "f", sha256: "a".repeat(64), html: loop }],
  bytes: 1_000_000,
  expansions: 100,
  timeMs: 300,
  measure: false,
};

test("two pools on one permit never run two jobs at once, and a permit given back goes to the pools in turn", async () => {
  const permits = new CpuPermits(1);
  const a = new FairSlots(4, permits);
  const b = new FairSlots(4, permits);
  const started: string[] = [];
  const run = (pool: FairSlots, name: string) => pool.acquire(1).then(() => started.push(name));
  const jobs = [run(a, "a1"), run(a, "a2"), run(b, "b1"), run(b, "b2")];
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(started, ["a1"], "one job holds the one permit");
  a.release();
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(started, ["a1", "b1"], "the permit went to the other pool");
  b.release();
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(started, ["a1", "b1", "a2"]);
  a.release();
  await Promise.all(jobs);
  assert.deepEqual(started, ["a1", "b1", "a2", "b2"]);
  b.release();
});

test("a variant slot waits while the render workers hold every permit, and starts once the render is done", async () => {
  const permits = new CpuPermits(1);
  const pool = new RenderPool(2, undefined, permits);
  const slots = new FairSlots(2, permits);
  try {
    const events: string[] = [];
    const render = pool.render(1, slowRender, 30_000).then(
      () => events.push("render done"),
      () => events.push("render done"),
    );
    const variant = slots.acquire(2).then(() => events.push("variant started"));
    await Promise.all([render, variant]);
    assert.deepEqual(events, ["render done", "variant started"]);
    slots.release();
    // With the permit back, the pool renders again.
    const again = await pool.render(1, { ...slowRender, timeMs: 5_000, input: input([]) }, 30_000);
    assert.match(again.html, /op\/repeat/);
  } finally {
    await pool.close();
  }
});

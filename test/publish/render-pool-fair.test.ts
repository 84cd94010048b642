// Fair between sites (docs/security.md): one render worker served every site in order, and one
// job past its timeout failed every pending job. The pool (src/publish/render-pool.ts) now keeps
// a queue per site served in turn, and a job that fails or times out fails only itself. Asserted
// on the order jobs finish and on what each answers, never on how long they took.
import { test } from "node:test";
import assert from "node:assert/strict";
import { OverBudget } from "../../src/markup/index.ts";
import { ExecutorUnavailable } from "../../src/publish/executor.ts";
import type { RenderInput } from "../../src/publish/render-context.ts";
import { renderInput } from "./render-input.ts";
import { RenderPool, type WorkerRequest } from "../../src/publish/render-pool.ts";

const input = (items: unknown[] = []): RenderInput => renderInput("f", [["data.rows", items]]);

/** A render that prints nothing for as long as its time budget lets it: 2,000³ iterations. */
function slow(timeMs: number): Omit<WorkerRequest, "id"> {
  const loop = `<!-- svc/repeat {"source": "data.rows", "match": {"n": "none"}} -->x<!-- /svc/repeat -->`;
  const html = `<!-- svc/repeat {"source": "data.rows"} --><!-- svc/repeat {"source": "data.rows"} -->${loop}<!-- /svc/repeat --><!-- /svc/repeat -->`;
  const rows = Array.from({ length: 2_000 }, (_, n) => ({ n }));
  return {
    input: input(rows),
    frames: [{ id: "00000000000000aa", slug: "f", sha256: "a".repeat(64), html }],
    bytes: 1_000_000,
    expansions: 100,
    timeMs,
    measure: false,
  };
}

const quick: Omit<WorkerRequest, "id"> = {
  input: input(),
  frames: [{ id: "00000000000000bb", slug: "f", sha256: "b".repeat(64), html: "<p>quick</p>" }],
  bytes: 1_000_000,
  expansions: 100,
  timeMs: 5_000,
  measure: false,
};

test("with one worker, another site's job runs right after the job in progress, not after the first site's backlog", async () => {
  const pool = new RenderPool(1);
  const finished: string[] = [];
  const track = (name: string, job: Promise<unknown>) =>
    job.then(
      () => finished.push(name),
      (error) => finished.push(`${name}:${error instanceof OverBudget ? error.budget : error}`),
    );
  try {
    const a = Array.from({ length: 5 }, (_, i) => track(`a${i}`, pool.render(1, slow(150), 30_000)));
    // Site 1's first job is running and four wait; site 2 asks once.
    assert.equal(pool.waiting(1), 4);
    const b = track("b", pool.render(2, quick, 30_000));
    await Promise.all([...a, b]);
    assert.deepEqual(finished, ["a0:time", "b", "a1:time", "a2:time", "a3:time", "a4:time"]);
  } finally {
    await pool.close();
  }
});

test("sites are served in turn: three sites' queues interleave one job at a time", async () => {
  const pool = new RenderPool(1);
  const finished: string[] = [];
  try {
    const jobs: Promise<unknown>[] = [];
    for (const site of [1, 2, 3])
      for (let i = 0; i < 3; i++) jobs.push(pool.render(site, quick, 30_000).then(() => finished.push(`${site}.${i}`)));
    await Promise.all(jobs);
    assert.deepEqual(finished, ["1.0", "2.0", "3.0", "1.1", "2.1", "3.1", "1.2", "2.2", "3.2"]);
  } finally {
    await pool.close();
  }
});

test("a job that times out fails alone: the jobs queued behind it, of its site and of others, are rendered", async () => {
  const pool = new RenderPool(1);
  try {
    // Its own budget would let it run 20 s; its timeout ends it (and its worker) first.
    const stuck = pool.render(1, slow(20_000), 400);
    const sameSite = pool.render(1, quick, 30_000);
    const otherSite = pool.render(2, quick, 30_000);
    await assert.rejects(stuck, ExecutorUnavailable);
    assert.match((await sameSite).html, /quick/);
    assert.match((await otherSite).html, /quick/);
  } finally {
    await pool.close();
  }
});

test("a queued job that times out leaves its queue without touching the job in progress", async () => {
  const pool = new RenderPool(1);
  try {
    const running = pool.render(1, slow(600), 30_000);
    const queued = pool.render(2, quick, 100);
    await assert.rejects(queued, ExecutorUnavailable);
    await assert.rejects(
      running,
      (error: unknown) => error instanceof OverBudget && error.budget === "time",
      "the running job ends by its own budget, not by the other's timeout",
    );
    assert.equal(pool.waiting(2), 0);
  } finally {
    await pool.close();
  }
});

test("several workers render several sites' jobs at once: with two workers, two slow jobs of two sites both start before either ends", async () => {
  const pool = new RenderPool(2);
  const events: string[] = [];
  try {
    const one = pool.render(1, slow(300), 30_000).catch(() => events.push("1 done"));
    const two = pool.render(2, slow(300), 30_000).catch(() => events.push("2 done"));
    assert.equal(pool.waiting(1) + pool.waiting(2), 0, "neither waits");
    await Promise.all([one, two]);
    assert.equal(events.length, 2);
  } finally {
    await pool.close();
  }
});

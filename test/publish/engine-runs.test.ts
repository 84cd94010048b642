// Publish runs of one site take turns (src/publish/engine.ts, changed): a run that lets other
// requests in must not interleave with the run of a write that landed meanwhile.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Executor } from "../../src/publish/executor.ts";
import { startTestApp, type TestApp } from "../support/app.ts";
import { testServerUrl } from "../support/database.ts";
import { assign, frame, page, S } from "../support/site.ts";

const events: string[] = [];
let rendering = false;
/** Renders after a pause, noting when each render starts and ends. */
const slowExecutor: Executor = {
  async run<T>(job: () => T): Promise<T> {
    events.push("start");
    rendering = true;
    await new Promise((resolve) => setTimeout(resolve, 15));
    rendering = false;
    const result = job();
    events.push("end");
    return result;
  },
};

describe("publish runs of a site", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ publishing: { executor: slowExecutor } });
    await frame(t, "one", "<p>one</p>");
    await frame(t, "two", "<p>two</p>");
    await assign(t, "one", (await page(t, { title: "First" })).id);
    await assign(t, "two", (await page(t, { title: "Second" })).id);
  });
  after(() => t.close());

  it("take turns: a render of one run never overlaps a render of another", async () => {
    events.length = 0;
    const answers = await Promise.all([
      t.call("PUT", `${S}/frames/one`, { body: { html: "<p>one again</p>" } }),
      t.call("PUT", `${S}/frames/two`, { body: { html: "<p>two again</p>" } }),
      t.call("PUT", `${S}/frames/one`, { body: { html: "<p>one, third time</p>" } }),
    ]);
    for (const answer of answers) assert.equal(answer.status, 200, answer.text);
    assert.ok(events.length >= 6);
    for (let i = 0; i < events.length; i += 2)
      assert.deepEqual(events.slice(i, i + 2), ["start", "end"], events.join(" "));
    assert.equal(rendering, false);
    // The last write to commit has the last word: on SQLite writes commit in the order they
    // came; on PostgreSQL an overtaken one is written again after the other, so ask the store.
    const stored = (await t.call("GET", `${S}/frames/one`)).body.frame.html;
    assert.ok(["<p>one again</p>", "<p>one, third time</p>"].includes(stored), stored);
    if (!testServerUrl) assert.equal(stored, "<p>one, third time</p>");
    const shown = await t.app.inject({ method: "GET", url: "/first/", headers: { host: "localhost" } });
    assert.equal(shown.body, stored, "the public page shows the last write to commit");
  });
});

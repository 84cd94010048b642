// A frame write overtaken by another writer between its read and its write (src/frames/etag.ts):
// a conditional write answers 412, an unconditional one is written again on the new revision.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Overtaken, unlessOvertaken } from "../../src/frames/etag.ts";

/** An attempt that is overtaken `times` times, then succeeds. */
function overtakenTimes(times: number) {
  let calls = 0;
  return {
    attempt: async () => {
      calls++;
      if (calls <= times) throw new Overtaken("ab".repeat(32), "write");
      return "written";
    },
    calls: () => calls,
  };
}

describe("an overtaken frame write", () => {
  it("with If-Match naming an ETag answers 412 precondition_failed with the sha256 it read, without trying again", async () => {
    const run = overtakenTimes(1);
    await assert.rejects(unlessOvertaken('"r3-0123456789abcdef"', run.attempt), (error: any) => {
      assert.equal(error.code, "precondition_failed");
      assert.equal(error.details.sha256, "ab".repeat(32));
      return true;
    });
    assert.equal(run.calls(), 1);
  });

  for (const ifMatch of [undefined, "", "*", ' "r1-x", * ']) {
    it(`without a named ETag (If-Match ${JSON.stringify(ifMatch)}) is read and written again until it lands`, async () => {
      const run = overtakenTimes(3);
      assert.equal(await unlessOvertaken(ifMatch, run.attempt), "written");
      assert.equal(run.calls(), 4);
    });
  }

  it("gives up with 412 after 16 attempts, and lets any other error through at once", async () => {
    const run = overtakenTimes(100);
    await assert.rejects(unlessOvertaken(undefined, run.attempt), (error: any) => error.code === "precondition_failed");
    assert.equal(run.calls(), 16);
    let calls = 0;
    await assert.rejects(
      unlessOvertaken(undefined, async () => {
        calls++;
        throw new Error("other");
      }),
      /other/,
    );
    assert.equal(calls, 1);
  });
});

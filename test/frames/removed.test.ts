// The removed frame-default endpoints answer 410 gone (docs/frames.md, "Identity and record").
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../support/app.ts";
import { createFrame, FRAMES, refused } from "./helpers.ts";

describe("frames: removed endpoints", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("every method on /frames/defaults answers 410 gone, on both addresses", async () => {
    for (const base of [FRAMES, "/api/frames"]) {
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
        refused(
          await t.call(
            method,
            `${base}/defaults`,
            method === "GET" || method === "DELETE" || method === "OPTIONS" ? {} : { body: { frame: "x" } },
          ),
          410,
          "gone",
        );
      }
      const head = await t.call("HEAD", `${base}/defaults`);
      assert.equal(head.status, 410);
    }
  });

  it("POST /frames/{ref}/default answers 410 gone, whether or not the frame exists, and changes nothing", async () => {
    const created = await createFrame(t, "would-be-default", "<p></p>");
    refused(await t.call("POST", `${FRAMES}/would-be-default/default`, { body: {} }), 410, "gone");
    refused(await t.call("POST", `${FRAMES}/${created.frame.id}/default`), 410, "gone");
    refused(await t.call("POST", `${FRAMES}/never-was/default`, { body: { default: true } }), 410, "gone");
    refused(await t.call("POST", "/api/frames/would-be-default/default", { body: {} }), 410, "gone");
    const read = await t.call("GET", `${FRAMES}/would-be-default`);
    assert.equal(read.status, 200);
    assert.equal("default" in read.body.frame, false);
  });

  it("the removed inputs: default/is_default alone on PATCH is 410 gone (see rename tests); on POST they are only warned", async () => {
    const r = await t.call("POST", FRAMES, { body: { slug: "posted-default", html: "<p></p>", is_default: true } });
    assert.equal(r.status, 201);
    assert.deepEqual(
      r.body.warnings.map((w: any) => w.code),
      ["default_ignored"],
    );
  });
});

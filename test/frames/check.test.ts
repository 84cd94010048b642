// POST /frames/check (docs/frames.md, "Check"): several frames judged together, as the site would
// stand once all of them were written, and nothing written.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../support/app.ts";
import { createFrame, embed, FRAMES, refused } from "./helpers.ts";

const LAYOUT = '<!doctype html><html><body><!-- svc/slot {"name": "main"} /--></body></html>';
const ARTICLE = '<!-- svc/layout {"frame": "base"} /--><!-- svc/block {"name": "main"} -->Hi<!-- /svc/block -->';

const codesOf = (frame: { warnings: Array<{ code: string }> }) => frame.warnings.map((w) => w.code);

describe("frames: POST /frames/check", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("a frame and the layout it uses, both new, checked together: no frame_ref_missing, no unused_block; alone they warn", async () => {
    const alone = await t.call("POST", `${FRAMES}/check`, { body: { frames: [{ slug: "article", html: ARTICLE }] } });
    assert.equal(alone.status, 200, alone.text);
    assert.deepEqual(codesOf(alone.body.frames[0]).sort(), ["frame_ref_missing", "unused_block"]);

    const together = await t.call("POST", `${FRAMES}/check`, {
      body: {
        frames: [
          { slug: "article", html: ARTICLE },
          { slug: "base", html: LAYOUT },
        ],
      },
    });
    assert.equal(together.status, 200, together.text);
    assert.deepEqual(
      together.body.frames.map((f: { slug: string; warnings: unknown[] }) => [f.slug, f.warnings]),
      [
        ["article", []],
        ["base", []],
      ],
    );
    assert.deepEqual(together.body.warnings, []);
    assert.equal((await t.call("GET", `${FRAMES}/base`)).status, 404, "nothing was written");
    assert.equal((await t.call("GET", `${FRAMES}/article`)).status, 404);
  });

  it("an existing frame is judged with its new markup; each warning has its line and column", async () => {
    await createFrame(t, "card", "<div>card</div>");
    const r = await t.call("POST", `${FRAMES}/check`, {
      body: { frames: [{ slug: "card", html: "<div>\n  <!-- svc/gallery /--></div>" }] },
    });
    assert.equal(r.status, 200, r.text);
    const [w] = r.body.frames[0].warnings;
    assert.equal(w.code, "unknown_insert");
    assert.deepEqual([w.line, w.column], [2, 3]);
    assert.equal((await t.call("GET", `${FRAMES}/card`)).body.frame.html, "<div>card</div>");
  });

  it("data sets written with the frames (`data`) are not unknown sources", async () => {
    const html = '<ul><!-- svc/repeat {"source": "data.team"} --><li>x</li><!-- /svc/repeat --></ul>';
    const without = await t.call("POST", `${FRAMES}/check`, { body: { frames: [{ slug: "team", html }] } });
    assert.deepEqual(codesOf(without.body.frames[0]), ["unknown_source"]);
    const withData = await t.call("POST", `${FRAMES}/check`, {
      body: { frames: [{ slug: "team", html }], data: ["team"] },
    });
    assert.deepEqual(codesOf(withData.body.frames[0]), []);
  });

  it("refuses as the writes refuse: a cycle closed by two frames, a bad slug, none or twice the same frame", async () => {
    refused(
      await t.call("POST", `${FRAMES}/check`, {
        body: {
          frames: [
            { slug: "a", html: embed("b") },
            { slug: "b", html: embed("a") },
          ],
        },
      }),
      400,
      "frame_cycle",
    );
    refused(
      await t.call("POST", `${FRAMES}/check`, { body: { frames: [{ slug: "Not a slug!", html: "<p>x</p>" }] } }),
      400,
      "invalid_slug",
    );
    refused(await t.call("POST", `${FRAMES}/check`, { body: { frames: [] } }), 400, "invalid_field");
    refused(
      await t.call("POST", `${FRAMES}/check`, {
        body: {
          frames: [
            { slug: "x", html: "<p>1</p>" },
            { slug: "x", html: "<p>2</p>" },
          ],
        },
      }),
      400,
      "invalid_field",
    );
    assert.equal((await t.call("GET", `${FRAMES}/a`)).status, 404);
  });

  it("unknown keys are warned unknown_field", async () => {
    const r = await t.call("POST", `${FRAMES}/check`, {
      body: { frames: [{ slug: "p", html: "<p>x</p>" }], bake: true },
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      r.body.warnings.map((w: { code: string }) => w.code),
      ["unknown_field"],
    );
  });
});

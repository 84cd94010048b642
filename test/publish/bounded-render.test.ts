// Which renders skip the service's thread (publish/bounded-render.ts, docs/security.md "Fair
// between sites"): a render that outlasted its slice is remembered by its site and the markup of
// the frame and of every frame it may embed, so a slow unsaved footer shown by a preview does not
// send the stored page's quick renders to the workers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { compileFrame } from "../../src/markup/index.ts";
import { renderWithin, type RenderPlace } from "../../src/publish/bounded-render.ts";
import { inProcessExecutor } from "../../src/publish/executor.ts";
import { framesByRef } from "../../src/publish/render-context.ts";
import { renderInput } from "./render-input.ts";
import type { PreparedRender } from "../../src/publish/render-job.ts";
import type { RenderPool } from "../../src/publish/render-pool.ts";

const PAGE = `<main>Page</main><!--svc/frame{"name": "footer"}/-->`;
const QUICK_FOOTER = "<footer>Quick</footer>";
// 1,500² repeats: far past a 30 ms slice.
const SLOW_FOOTER = `<footer><!--svc/repeat{"source": "data.spin"}--><!--svc/repeat{"source": "data.spin"}-->.<!--/svc/repeat--><!--/svc/repeat--></footer>`;

function frame(id: string, slug: string, html: string) {
  return { id, slug, sha256: createHash("sha256").update(html).digest("hex"), compiled: compileFrame(html) };
}

function prepared(siteId: number, footer: string): PreparedRender {
  const input = renderInput("page", [["data.spin", Array.from({ length: 1_500 }, (_, n) => ({ n }))]]);
  const frames = framesByRef([frame("00000000000000a1", "page", PAGE), frame("00000000000000a2", "footer", footer)]);
  return { siteId, input, frames } as PreparedRender;
}

// Only the service's thread is used: renderWithin never reaches the pool.
const place: RenderPlace = { executor: inProcessExecutor, pool: {} as RenderPool, timeoutMs: 10_000 };

test("a render past its slice is remembered by its frame and the frames it embeds: the same top frame with another embedded frame still renders in the service's thread", async () => {
  assert.equal(
    await renderWithin(place, prepared(91, SLOW_FOOTER), false, 30),
    null,
    "the slow render passed its slice",
  );
  const quick = await renderWithin(place, prepared(91, QUICK_FOOTER), false, 30);
  assert.ok(quick, "the quick render of the same page frame was sent away as slow");
  assert.match(quick.html, /<footer>Quick<\/footer>/);
});

test("the same render (frame and embedded frames alike) is known slow and leaves the thread at once; another site's is not", async () => {
  assert.equal(await renderWithin(place, prepared(92, SLOW_FOOTER), false, 30), null);
  // With a minute to spare it would finish here: null says it was handed over without rendering.
  assert.equal(await renderWithin(place, prepared(92, SLOW_FOOTER), false, 60_000), null, "not remembered as slow");
  assert.ok(await renderWithin(place, prepared(93, QUICK_FOOTER), false, 30));
});

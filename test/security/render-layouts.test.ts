// Layouts multiplied output past every budget (docs/security.md, "Bounded rendering"): a layout
// that prints its slot ten times, nested eight layouts deep under one small frame — the write took
// 44 s and the process died out of heap, because the budgets were checked at embedded frames and
// repeat iterations, not at slots, blocks or layouts. Every step that prints markup again is now
// checked (src/markup/render.ts), so each write, dry run and preview of that shape is 422
// render_too_large at once, and the process's memory stays within a small multiple of the
// byte budget. Depths 4 to 10, through the API on one app (SQLite, or PostgreSQL under
// npm run test:pg).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, startTestApp, type Answer, type TestApp } from "../support/app.ts";
import { RENDER_BUDGET } from "../../src/markup/index.ts";

/** A layout of `padding` bytes of its own printing its main slot ten times, on `next` when given. */
const layout = (next: string | null, padding: number) =>
  `${next ? `<!-- svc/layout {"name": "${next}"} /-->` : ""}<div>${"p".repeat(padding)}${"<!-- svc/slot /-->".repeat(10)}</div>`;

function refused(r: Answer, what: string): void {
  assert.equal(r.status, 422, `${what}: ${r.status} ${r.text.slice(0, 300)}`);
  assert.equal(r.body.error, "render_too_large", what);
  assert.ok(["bytes", "time"].includes(r.body.budget), `${what}: ${r.body.budget}`);
}

describe("render budgets: layouts that print their slot ten times, nested 4 to 10 deep", () => {
  let t: TestApp;
  let peakRss = 0;
  let baseRss = 0;
  let sampler: NodeJS.Timeout;

  before(async () => {
    t = await startTestApp();
    baseRss = process.memoryUsage().rss;
    sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 5);
  });
  after(async () => {
    clearInterval(sampler);
    await t.close();
  });

  for (let depth = 4; depth <= 10; depth++) {
    it(`depth ${depth}: the frame write whose bake passes 5 MB is refused (422 render_too_large), as its dry run and a preview of it are; nothing is stored`, async () => {
      const site = `/api/site/${await makeSite(t, `Layouts ${depth}`, `layouts${depth}.localhost`)}`;
      // Each layout's own bytes, printed about 10^depth / 9 times in all: enough to pass 5 MB.
      const padding = Math.max(600, Math.ceil((6_000_000 * 9) / 10 ** depth));
      let stored = 0;
      let answer: Answer | undefined;
      // The outermost layout first, then each one on it: the first whose bake passes a budget is refused.
      for (let level = depth; level >= 1; level--) {
        const slug = `l${level}`;
        const html = layout(level < depth ? `l${level + 1}` : null, padding);
        const dry = await t.call("POST", `${site}/frames?dry_run=1`, { body: { slug, html } });
        answer = await t.call("POST", `${site}/frames`, { body: { slug, html } });
        if (answer.status !== 201) {
          refused(dry, `dry run of ${slug}`);
          refused(answer, slug);
          assert.equal((await t.call("GET", `${site}/frames/${slug}`)).status, 404, `${slug} was not stored`);
          break;
        }
        assert.equal(dry.status, 200, `dry run of ${slug}: ${dry.text.slice(0, 200)}`);
        stored++;
      }
      if (answer?.status === 201) {
        // Every layout fits alone: the page's frame on the chain is the one refused.
        refused(
          await t.call("POST", `${site}/frames`, {
            body: { slug: "top", html: `<!-- svc/layout {"name": "l1"} /--><p>hello</p>` },
          }),
          "top",
        );
        assert.equal((await t.call("GET", `${site}/frames/top`)).status, 404, "top was not stored");
      }
      assert.ok(stored < depth + 1, "some write was refused");
      // A preview of the page's frame on the chain as stored so far renders within the budgets too.
      const frame = await t.call("POST", `${site}/frames`, { body: { slug: "plain", html: "<p>plain</p>" } });
      assert.equal(frame.status, 201, frame.text);
      const page = await t.call("POST", `${site}/pages`, {
        body: { title: "P", slug: "p", status: "publish", frame: "plain" },
      });
      assert.equal(page.status, 201, page.text);
      const chain: Record<string, string> = { top: `<!-- svc/layout {"name": "l1"} /--><p>hello</p>` };
      for (let level = depth; level >= 1; level--)
        chain[`l${level}`] = layout(level < depth ? `l${level + 1}` : null, padding);
      refused(
        await t.call("POST", `${site}/preview`, { body: { page: "p", frames: chain, page_fields: { frame: "top" } } }),
        "preview",
      );
    });
  }

  it("the process's memory stayed within a small multiple of the byte budget while all of them were refused", () => {
    const grown = peakRss - baseRss;
    assert.ok(grown < 40 * RENDER_BUDGET.bytes, `the process grew by ${Math.round(grown / 1e6)} MB`);
  });
});

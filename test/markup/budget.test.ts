// Render budgets (src/markup/budget.ts) and measuring: a write's trial measures what it renders
// (counted, not kept) once its handoff is full; measuring must spend the budgets exactly as a
// render that keeps its output does.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { compileFrame, OverBudget, renderFrame, type RenderBudget } from "../../src/markup/index.ts";
import { fixtureContext } from "./fixture-context.ts";

const budget = (bytes: number, expansions = 10_000): RenderBudget => ({
  bytes,
  expansions,
  until: Infinity,
  now: () => 0,
});

/** The budget a render spent, or "none". */
function spent(markup: string, items: unknown[], limit: RenderBudget, measure: boolean): string {
  const ctx = fixtureContext({ items: { "data.rows": items }, frames: { leaf: "<i>ü€</i>" } });
  try {
    renderFrame(compileFrame(markup), ctx, { slug: "top", budget: limit, measure });
    return "none";
  } catch (error) {
    if (error instanceof OverBudget) return error.budget;
    throw error;
  }
}

describe("render budgets", () => {
  it("a measured render keeps no output and answers the same budget as a kept one, UTF-8 bytes counted exactly", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: "grapheme", maxLength: 40 }), { maxLength: 30 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 0, max: 2_000 }),
        (texts, embeds, bytes) => {
          const markup = `<ul><!-- svc/repeat {"source": "data.rows"} --><li data-op-bind='{"text": "item.t"}'></li>${'<!-- svc/frame {"name": "leaf"} /-->'.repeat(embeds)}<!-- /svc/repeat --></ul>`;
          const items = texts.map((t) => ({ t }));
          const ctx = fixtureContext({ items: { "data.rows": items }, frames: { leaf: "<i>ü€</i>" } });
          const full = renderFrame(compileFrame(markup), ctx, {}).html;
          const expected = Buffer.byteLength(full, "utf8") > bytes ? "bytes" : "none";
          assert.equal(spent(markup, items, budget(bytes), false), expected);
          assert.equal(spent(markup, items, budget(bytes), true), expected);
        },
      ),
    );
  });

  it("measuring answers an empty output, and the expansions budget as rendering does", () => {
    const markup = '<div><!-- svc/frame {"name": "leaf"} /--><!-- svc/frame {"name": "leaf"} /--></div>';
    const ctx = fixtureContext({ frames: { leaf: "<i>x</i>" } });
    assert.equal(renderFrame(compileFrame(markup), ctx, { budget: budget(1_000), measure: true }).html, "");
    assert.equal(spent(markup, [], budget(1_000, 1), true), "expansions");
    assert.equal(spent(markup, [], budget(1_000, 1), false), "expansions");
    assert.equal(spent(markup, [], budget(1_000, 2), true), "none");
  });
});

// Layouts multiplied output past every budget (docs/security.md, "Bounded rendering"): a layout
// printing its slot ten times, nested eight layouts deep under one small frame, took 44 s and ended
// the process out of heap;
// the budgets were checked at embedded frames and repeat iterations only. Now they are checked
// each time markup is printed again (a slot or block filled, a branch, a body), so a render stops
// within one frame's straight markup of its budget, whatever repeats the body.
describe("render budgets: every step that multiplies output is checked", () => {
  const BYTES = 1_000_000;
  const limit = (): RenderBudget => ({
    bytes: BYTES,
    expansions: 10_000,
    until: performance.now() + 60_000,
    now: () => performance.now(),
  });

  /** The budget spent and the output counted when the render stopped, or "none". */
  function stopped(
    markup: string,
    frames: Record<string, string>,
    items: Record<string, unknown[]> = {},
  ): { budget: string; printed: number } {
    try {
      renderFrame(compileFrame(markup), fixtureContext({ frames, items, values: { "page.title": "t" } }), {
        slug: "top",
        budget: limit(),
      });
      return { budget: "none", printed: 0 };
    } catch (error) {
      if (error instanceof OverBudget) return { budget: error.budget, printed: error.printed };
      throw error;
    }
  }

  /** The longest straight markup of any frame: the most a render may print past a checkpoint. */
  const step = (markups: string[]) => Math.max(...markups.map((m) => m.length));

  function layoutChain(depth: number, slot: string, block = ""): Record<string, string> {
    const frames: Record<string, string> = {};
    for (let i = 1; i <= depth; i++) {
      const layout = i < depth ? `<!-- svc/layout {"name": "l${i + 1}"} /-->${block}` : "";
      frames[`l${i}`] = `${layout}<div>${slot.repeat(10)}</div>`;
    }
    return frames;
  }

  for (let depth = 4; depth <= 10; depth++) {
    it(`a layout printing its main slot ten times, nested ${depth} deep, stops at the bytes budget within one frame's markup`, () => {
      const frames = layoutChain(depth, "<!-- svc/slot /-->");
      const top = `<!-- svc/layout {"name": "l1"} /--><p>${"x".repeat(200)}</p>`;
      const { budget, printed } = stopped(top, frames);
      assert.equal(budget, "bytes");
      assert.ok(printed > BYTES && printed <= BYTES + step([top, ...Object.values(frames)]), `printed ${printed}`);
    });
  }

  it("named slots filled by the page's block, and slots' default content holding the main slot, ten times at each of eight levels, stop at the bytes budget within one frame's markup", () => {
    const body = `<p>${"x".repeat(200)}</p>`;
    const shapes: Array<[string, string, Record<string, string>]> = [
      [
        "named slots",
        `<!-- svc/layout {"name": "l1"} /--><!-- svc/block {"name": "s"} -->${body}<!-- /svc/block -->`,
        layoutChain(8, `<!-- svc/slot /--><!-- svc/slot {"name": "s"} /-->`),
      ],
      [
        "slot defaults",
        `<!-- svc/layout {"name": "l1"} /-->${body}`,
        layoutChain(8, `<!-- svc/slot {"name": "a"} --><!-- svc/slot /--><!-- /svc/slot -->`),
      ],
    ];
    for (const [what, top, frames] of shapes) {
      const { budget, printed } = stopped(top, frames);
      assert.equal(budget, "bytes", what);
      assert.ok(
        printed > BYTES && printed <= BYTES + step([top, ...Object.values(frames)]),
        `${what}: printed ${printed}`,
      );
    }
  });

  it("conditions, repeats and partials that repeat their body stop at the bytes budget within one frame's markup", () => {
    const rows = Array.from({ length: 30 }, (_, n) => ({ n }));
    const body = `<p>${"y".repeat(100)}</p>`;
    const shapes: Array<[string, string, Record<string, string>]> = [
      [
        "conditions in repeats",
        `<!-- svc/repeat {"source": "data.rows"} --><!-- svc/repeat {"source": "data.rows"} --><!-- svc/repeat {"source": "data.rows"} --><!-- svc/if {"when": "page.title"} -->${body}<!-- svc/else /-->no<!-- /svc/if --><!-- /svc/repeat --><!-- /svc/repeat --><!-- /svc/repeat -->`,
        {},
      ],
      [
        "partials",
        `<!-- svc/repeat {"source": "data.rows"} -->${`<!-- svc/partial {"name": "p1"} /-->`.repeat(10)}<!-- /svc/repeat -->`,
        { p1: `<!-- svc/partial {"name": "p2"} /-->`.repeat(10), p2: body.repeat(10) },
      ],
      [
        "slots in repeats",
        `<!-- svc/layout {"name": "r1"} /-->${body}`,
        {
          r1: `<!-- svc/repeat {"source": "data.rows"} --><!-- svc/repeat {"source": "data.rows"} --><!-- svc/slot /--><!-- /svc/repeat --><!-- /svc/repeat -->`.repeat(
            12,
          ),
        },
      ],
    ];
    for (const [what, top, frames] of shapes) {
      const { budget, printed } = stopped(top, frames, { "data.rows": rows });
      assert.equal(budget, "bytes", what);
      assert.ok(
        printed > BYTES && printed <= BYTES + step([top, ...Object.values(frames)]),
        `${what}: printed ${printed}`,
      );
    }
  });

  it("a slot filled a hundred million times with nothing is stopped by the time budget", () => {
    const frames = layoutChain(8, "<!-- svc/slot /-->");
    for (const k of Object.keys(frames)) frames[k] = frames[k]!.replace("<div>", "").replace("</div>", "");
    let calls = 0;
    const budget: RenderBudget = { bytes: BYTES, expansions: 10_000, until: 50_000, now: () => ++calls };
    assert.throws(
      () =>
        renderFrame(compileFrame(`<!-- svc/layout {"name": "l1"} /-->`), fixtureContext({ frames }), {
          slug: "top",
          budget,
        }),
      (e: unknown) => e instanceof OverBudget && e.budget === "time",
    );
  });
});

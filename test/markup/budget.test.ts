// Render budgets (src/markup/budget.ts) and measuring: a write's trial measures what it renders
// (counted, not kept) once its handoff is full; measuring must spend the budgets exactly as a
// render that keeps its output does.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { compileFrame, OverBudget, renderFrame, type RenderBudget } from "../../src/markup/index.ts";
import { fixtureContext } from "./fixture-context.ts";

const budget = (bytes: number, expansions = 10_000): RenderBudget => ({ bytes, expansions, until: Infinity, now: () => 0 });

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
      fc.property(fc.array(fc.string({ unit: "grapheme", maxLength: 40 }), { maxLength: 30 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 2_000 }), (texts, embeds, bytes) => {
        const markup = `<ul><!-- svc/repeat {"source": "data.rows"} --><li data-op-bind='{"text": "item.t"}'></li>${'<!-- svc/frame {"name": "leaf"} /-->'.repeat(embeds)}<!-- /svc/repeat --></ul>`;
        const items = texts.map((t) => ({ t }));
        const ctx = fixtureContext({ items: { "data.rows": items }, frames: { leaf: "<i>ü€</i>" } });
        const full = renderFrame(compileFrame(markup), ctx, {}).html;
        const expected = Buffer.byteLength(full, "utf8") > bytes ? "bytes" : "none";
        assert.equal(spent(markup, items, budget(bytes), false), expected);
        assert.equal(spent(markup, items, budget(bytes), true), expected);
      }),
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

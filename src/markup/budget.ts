// Render budgets (docs/security.md "Bounded rendering"). A few hundred bytes of frames
// that embed each other several times can print hundreds of megabytes; a repeat over a repeat
// can loop for minutes printing nothing. Every render therefore runs within three budgets and
// stops as soon as one is spent, naming it and the frames it was inside.
//
// The renderer checks them at its checkpoints: each time markup is about to be printed (again) —
// a frame's body, an embedded frame, a layout's slot or block, a condition's branch, a repeat
// iteration. Between two checkpoints a render prints at most one frame's straight markup and
// values, so it cannot run far past a budget. `until` is a moment of `now()` (milliseconds): the engine gives a
// short slice to a render in the service's own thread and the whole time budget to one in the
// render worker (publish/render-pool.ts).

export type BudgetName = "bytes" | "expansions" | "time";

export interface RenderBudget {
  /** UTF-8 bytes of output. */
  bytes: number;
  /** Frames printed by `svc/frame` or `svc/partial` inserts. */
  expansions: number;
  /** The render stops once `now()` passes this. */
  until: number;
  now: () => number;
}

/** The budgets of every bake and render. */
export const RENDER_BUDGET = {
  bytes: 5 * 1024 * 1024,
  expansions: 10_000,
  /** Milliseconds of rendering. */
  timeMs: 2_000,
} as const;

/** A render spent a budget: `chain` the frames it was inside, outermost first. */
export class OverBudget extends Error {
  constructor(
    readonly budget: BudgetName,
    readonly chain: string[],
    /** Output counted when the render stopped (UTF-16 units, or UTF-8 bytes when measuring); -1 when not known. */
    readonly printed = -1,
  ) {
    super(`the render went past its ${budget} budget in ${chain.join(" > ") || "the frame"}`);
  }
}

/** Whether a finished output is within the bytes budget (the renderer counts UTF-16 units on the way). */
export function withinBytes(html: string, budget: Pick<RenderBudget, "bytes">): boolean {
  // Each UTF-16 unit is at least one UTF-8 byte, and at most three.
  if (html.length * 3 <= budget.bytes) return true;
  return html.length <= budget.bytes && Buffer.byteLength(html, "utf8") <= budget.bytes;
}

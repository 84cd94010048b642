// Every bake and render runs within the render budgets (markup/budget.ts: output bytes, frames
// printed, time) and never holds the service's thread for long: it starts in the service's
// thread (through the executor) with a slice of SLICE_MS; one that is not done by then is
// rendered again in a render worker (render-pool.ts) with the whole time budget, while this
// thread answers other requests. Most renders take well under a millisecond and never leave the
// thread; a long one pays the slice once, and the frame's renders after it go to the workers at
// once for a while.
import { createHash } from "node:crypto";
import { OverBudget, RENDER_BUDGET, renderFrame, type RenderResult } from "../markup/index.ts";
import { runBounded, type Executor } from "./executor.ts";
import type { RenderPool } from "./render-pool.ts";
import { renderContext, type ReachableFrame } from "./render-context.ts";
import type { PreparedRender } from "./render-job.ts";

/** The longest a render holds the service's thread: under 50 ms (docs/security.md, "Bounded rendering"). */
export const SLICE_MS = 30;

const now = () => performance.now();

/**
 * Frames (per site, by their markup and the markup of every frame they may embed) whose last
 * render outlasted its slice: their next renders go
 * to the workers at once (docs/security.md, "Fair between sites"). A site whose pages all render
 * slowly would otherwise spend a slice of the service's thread on every request before handing it over,
 * and with a few requests at once hold the thread every other site's quick renders wait for.
 * Remembered for a minute (a frame may be fast again), at most MAX_SLOW frames.
 */
const SLOW_FOR_MS = 60_000;
const MAX_SLOW = 2_000;
const slowFrames = new Map<string, number>();

/**
 * What a render's slowness is remembered by: the site, and the markup of the frame and of every
 * frame it may embed. A preview of an unsaved embedded frame (preview/service.ts) that is slow so
 * does not send the stored page's quick renders to the workers behind it.
 */
function slowKey(siteId: number, top: ReachableFrame, frames: PreparedRender["frames"]): string {
  const embedded = new Set<string>();
  for (const frame of frames.values()) if (frame !== top) embedded.add(frame.sha256);
  if (embedded.size === 0) return `${siteId} ${top.sha256}`;
  const digest = createHash("sha256");
  for (const sha256 of [...embedded].sort()) digest.update(sha256);
  return `${siteId} ${top.sha256} ${digest.digest("base64url")}`;
}

function knownSlow(key: string): boolean {
  const until = slowFrames.get(key);
  if (until === undefined) return false;
  if (until > now()) return true;
  slowFrames.delete(key);
  return false;
}

function rememberSlow(key: string): void {
  slowFrames.delete(key);
  slowFrames.set(key, now() + SLOW_FOR_MS);
  while (slowFrames.size > MAX_SLOW) slowFrames.delete(slowFrames.keys().next().value!);
}

export interface RenderPlace {
  executor: Executor;
  pool: RenderPool;
  /** A renderer that answers nothing in this long is unavailable (executor.ts). */
  timeoutMs: number;
}

/**
 * Renders in the service's thread (through the place's executor) within the budgets and at most
 * `ms` of time; null when that was not enough, or when the frame is known to take longer (it is
 * then remembered as slow: slowFrames). Throws OverBudget for any other budget spent.
 */
export async function renderWithin(
  place: RenderPlace,
  prepared: PreparedRender,
  measure: boolean,
  ms: number,
): Promise<RenderResult | null> {
  const { input, frames } = prepared;
  const top = frames.get(input.slug)!;
  // The key is made only when some frame is remembered, and for one that is slow: not on every
  // quick render of a service with none.
  const key = () => slowKey(prepared.siteId, top, frames);
  if (slowFrames.size > 0 && knownSlow(key())) return null;
  try {
    return await runBounded(
      place.executor,
      () =>
        renderFrame(top.compiled, renderContext(input, frames), {
          slug: input.slug,
          measure,
          budget: { bytes: RENDER_BUDGET.bytes, expansions: RENDER_BUDGET.expansions, until: now() + ms, now },
        }),
      place.timeoutMs,
    );
  } catch (error) {
    if (!(error instanceof OverBudget && error.budget === "time")) throw error;
    rememberSlow(key());
    return null;
  }
}

/**
 * Renders within the budgets; throws OverBudget when one is spent, ExecutorUnavailable when the
 * renderer does not answer. `measure`: only the budgets are checked, the output is not kept.
 */
export async function renderBounded(
  place: RenderPlace,
  prepared: PreparedRender,
  measure = false,
): Promise<RenderResult> {
  const started = now();
  const quick = await renderWithin(place, prepared, measure, SLICE_MS);
  if (quick !== null) return quick;
  const { input, frames } = prepared;
  const sent = new Map<string, { id: string; slug: string; sha256: string; html: string }>();
  for (const frame of frames.values())
    sent.set(frame.id, { id: frame.id, slug: frame.slug, sha256: frame.sha256, html: frame.compiled.html });
  const timeMs = Math.max(1, RENDER_BUDGET.timeMs - (now() - started));
  return place.pool.render(
    prepared.siteId,
    {
      input,
      frames: [...sent.values()],
      bytes: RENDER_BUDGET.bytes,
      expansions: RENDER_BUDGET.expansions,
      timeMs,
      measure,
    },
    place.timeoutMs,
  );
}

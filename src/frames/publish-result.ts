// Splits the publish step's report for a frame write into the answer's two objects:
// `bake` (this frame's own bake) and `rebaked` (the frames that embed it). With `bake: false` the
// publish step renders nothing (see docs/frames.md) and `bake` says skipped.
import { fail } from "../errors.ts";
import type { Rebaked } from "../write/change.ts";

export interface FramePublish {
  bake: Record<string, unknown>;
  rebaked: Rebaked;
}

export function splitOwnBake(report: Rebaked, ownSlug: string | null): FramePublish {
  const own = ownSlug === null ? undefined : report.frames.find((f) => f.slug === ownSlug);
  const frames = report.frames.filter((f) => f !== own);
  const rebaked: Rebaked = {
    ...report,
    // Always a list on frame answers (docs/frames.md): the slugs left for a later call.
    skipped: report.skipped ?? [],
    frames,
    total: frames.length,
    baked: frames.filter((f) => f.bake === "baked").length,
    not_needed: frames.filter((f) => f.bake === "not_needed").length,
  };
  const bake = own ? { status: report.status, response: own.detail ?? {} } : { status: report.status };
  return { bake, rebaked };
}

/** The report of a write with `bake: false`: nothing was baked (publish/run.ts `withdraw`). */
export function withoutBake(report: Rebaked): FramePublish {
  return { bake: { status: "skipped" }, rebaked: report };
}

/** A frame write's publish report split: baked (`ownSlug`'s own bake apart), or not. */
export function framePublish(report: Rebaked, bake: boolean, ownSlug: string | null): FramePublish {
  return bake ? splitOwnBake(report, ownSlug) : withoutBake(report);
}

/** The write is saved, but the renderer did not answer: 502 internal_unavailable (docs/frames.md). */
export function requireAvailable(report: Rebaked, saved: Record<string, unknown>): void {
  if (report.status === "unavailable") throw fail("internal_unavailable", { saved: true, ...saved });
}

// The analysis report of a frame's markup as it would stand in its site: references turned
// into slugs, conflicts inside one insert, cycles, missing frames, and why it renders on request.
import { fail } from "../http/errors.ts";
import { compileFrame, type CompiledFrame } from "../markup/index.ts";
import { DependencyIndex, type FrameNode } from "../publish/dependency-index.ts";
import type { StoredAnalysis } from "./record.ts";

export interface FrameReport {
  compiled: CompiledFrame;
  stored: StoredAnalysis;
  frameRefs: string[];
  frameRefsMissing: string[];
  liveReasons: string[];
  rendersOnRequest: boolean;
  /** The site's index with this frame in it, as it will be once written. */
  index: DependencyIndex;
}

export function nodeOf(id: string, slug: string, stored: StoredAnalysis): FrameNode {
  return { id, slug, sources: stored.analysis.sources, refs: stored.ref_values, liveReasons: stored.analysis.live_reasons };
}

/**
 * What is stored of compiled markup: its analysis and one reference value per svc/frame or
 * svc/partial insert (its `name`, else its first key). 400 frame_ref_conflict when one insert's
 * keys name different frames; a slug and the id of the same frame agree.
 */
export function storedAnalysisOf(compiled: CompiledFrame, resolve: (value: string) => string): StoredAnalysis {
  const refValues: string[] = [];
  for (const insert of compiled.analysis.frame_refs) {
    if (insert.keys.length === 0) continue;
    const named = new Set(insert.keys.map(([, value]) => resolve(value)));
    if (named.size > 1) throw fail("frame_ref_conflict", { conflicts: insert.keys, insert: insert.insert, at: insert.at });
    const main = insert.keys.find(([key]) => key === "name") ?? insert.keys[0];
    refValues.push(main[1]);
  }
  return { analysis: compiled.analysis, ref_values: [...new Set(refValues)] };
}

/**
 * Analyses markup for frame `id`/`slug` among `others` (the site's other frames).
 * Refuses 400 frame_ref_conflict when one insert names two frames, and 400 frame_cycle when
 * the references lead back to the frame itself.
 */
export function reportFor(html: string, id: string, slug: string, others: readonly FrameNode[]): FrameReport {
  const compiled = compileFrame(html);
  const othersIndex = new DependencyIndex(others);
  const resolve = (value: string) => (value === id ? slug : othersIndex.resolve(value));
  const stored = storedAnalysisOf(compiled, resolve);

  const cycle = othersIndex.cycleThrough(slug, stored.ref_values.map(resolve));
  if (cycle) throw fail("frame_cycle", { cycle }, `Embedding would loop: ${cycle.join(" → ")}.`);

  const index = new DependencyIndex([...others, nodeOf(id, slug, stored)]);
  const frameRefs = index.embeddedSlugs(slug);
  const liveReasons = [...index.liveReasons(slug)];
  return {
    compiled,
    stored,
    frameRefs,
    frameRefsMissing: frameRefs.filter((ref) => !index.get(ref)),
    liveReasons,
    rendersOnRequest: liveReasons.length > 0,
    index,
  };
}

// The analysis report of a frame's markup as it would stand in its site: references turned
// into slugs, conflicts inside one insert, cycles, missing frames, and why it renders on request.
import { fail } from "../errors.ts";
import { compileFrame, type CompiledFrame } from "../markup/index.ts";
import { DependencyIndex, type FrameNode } from "../effects/dependency-index.ts";
import type { StoredAnalysis } from "./record.ts";

export interface FrameReport {
  compiled: CompiledFrame;
  /** A reference as the frame will stand in its site, as a slug (ids turned into slugs). */
  resolve: (ref: string) => string;
  stored: StoredAnalysis;
  frameRefs: string[];
  frameRefsMissing: string[];
  liveReasons: string[];
  rendersOnRequest: boolean;
}

export function nodeOf(id: string, slug: string, stored: StoredAnalysis): FrameNode {
  return {
    id,
    slug,
    sources: stored.analysis.sources,
    refs: stored.ref_values,
    liveReasons: stored.analysis.live_reasons,
    lists: stored.analysis.lists ?? [],
  };
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
    if (named.size > 1)
      throw fail("frame_ref_conflict", { conflicts: insert.keys, insert: insert.insert, at: insert.at });
    const main = insert.keys.find(([key]) => key === "name") ?? insert.keys[0];
    refValues.push(main[1]);
  }
  return { analysis: compiled.analysis, ref_values: [...new Set(refValues)] };
}

/**
 * The site's other frames as they will stand once frame `id` is written under `slug`: references
 * to `previousSlug` (a rename, which rewrites them) name `slug`, and the frame itself is present
 * (without references) so that references to its id resolve to its slug.
 */
function othersAfterWrite(id: string, slug: string, others: readonly FrameNode[], previousSlug?: string): FrameNode[] {
  const renamed = previousSlug !== undefined && previousSlug !== slug;
  if (!renamed) return others.filter((node) => node.id !== id);
  const byId = new Map(others.map((node) => [node.id, node.slug]));
  const mapped = others
    .filter((node) => node.id !== id)
    .map((node) => {
      if (!renamed) return node;
      const refs = node.refs.map((ref) =>
        ref !== id && !byId.has(ref) && ref.trim().toLowerCase() === previousSlug ? slug : ref,
      );
      return refs.some((ref, i) => ref !== node.refs[i]) ? { ...node, refs } : node;
    });
  return mapped;
}

/** The cycle that frame `self` (already in `others` form, see othersAfterWrite) would close, or null. */
export function cycleOf(self: FrameNode, others: readonly FrameNode[]): string[] | null {
  const index = new DependencyIndex([...others, { ...self, refs: [] }]);
  return index.cycleThrough(
    self.slug,
    self.refs.map((ref) => (ref === self.id ? self.slug : index.resolve(ref))),
  );
}

/**
 * Analyses markup for frame `id`/`slug` in its site (`site`: the site's index as it stands, with
 * the frame's previous version if any; `previousSlug` when the write also renames the frame).
 * Refuses 400 frame_ref_conflict when one insert names two frames, and 400 frame_cycle when the
 * references lead back to the frame itself, whether written by slug or by id, directly or
 * through frames that wait for this slug.
 */
export function reportFor(
  html: string,
  id: string,
  slug: string,
  site: DependencyIndex,
  previousSlug?: string,
): FrameReport {
  const compiled = compileFrame(html);
  if (previousSlug !== undefined && previousSlug !== slug)
    return reportAmong(compiled, id, slug, [...site.frames()], previousSlug);
  // Without a rename, the other frames stay as they are: every answer below depends only on the
  // frames this one reaches, so they are looked up in the site's index rather than copied.
  const resolve = (value: string) => {
    if (value === id) return slug;
    const other = site.getById(value);
    return other && other.id !== id ? other.slug : value.trim().toLowerCase();
  };
  const stored = storedAnalysisOf(compiled, resolve);
  const self = nodeOf(id, slug, stored);
  const reached = new Map<string, FrameNode>([[slug, self]]);
  const queue: FrameNode[] = [self];
  for (let i = 0; i < queue.length; i++) {
    for (const ref of queue[i].refs) {
      const target = resolve(ref);
      const node = target === slug ? self : site.get(target);
      if (node && !reached.has(target)) {
        reached.set(target, node);
        queue.push(node);
      }
    }
  }
  const others = [...reached.values()].filter((node) => node !== self);
  return finish(compiled, stored, self, others, resolve);
}

/** The general case: the other frames as they will stand once the frame is written (and renamed). Also the reference the fast path of reportFor is tested against. */
export function reportAmong(
  compiled: CompiledFrame,
  id: string,
  slug: string,
  others: readonly FrameNode[],
  previousSlug?: string,
): FrameReport {
  const after = othersAfterWrite(id, slug, others, previousSlug);
  const lookup = new DependencyIndex([...after, { id, slug, sources: [], refs: [], liveReasons: [] }]);
  const resolve = (value: string) => lookup.resolve(value);
  const stored = storedAnalysisOf(compiled, resolve);
  return finish(compiled, stored, nodeOf(id, slug, stored), after, resolve);
}

function finish(
  compiled: CompiledFrame,
  stored: StoredAnalysis,
  self: FrameNode,
  others: readonly FrameNode[],
  resolve: (ref: string) => string,
): FrameReport {
  const cycle = cycleOf(self, others);
  if (cycle) throw fail("frame_cycle", { cycle }, `Embedding would loop: ${cycle.join(" → ")}.`);

  const index = new DependencyIndex([...others, self]);
  const frameRefs = index.embeddedSlugs(self.slug);
  const liveReasons = [...index.liveReasons(self.slug)];
  return {
    compiled,
    resolve,
    stored,
    frameRefs,
    frameRefsMissing: frameRefs.filter((ref) => !index.get(ref)),
    liveReasons,
    rendersOnRequest: liveReasons.length > 0,
  };
}

/**
 * 400 frame_cycle when renaming frame `self` to `newSlug` would close a loop: frames that wait
 * for `newSlug` (or name the old slug, which the rename rewrites) would embed it while it
 * embeds them.
 */
export function refuseRenameCycle(self: FrameNode, newSlug: string, others: readonly FrameNode[]): void {
  const after = othersAfterWrite(self.id, newSlug, others, self.slug);
  const renamed: FrameNode = {
    ...self,
    slug: newSlug,
    refs: self.refs.map((ref) => (ref.trim().toLowerCase() === self.slug ? newSlug : ref)),
  };
  const cycle = cycleOf(renamed, after);
  if (cycle) throw fail("frame_cycle", { cycle }, `After the rename, embedding would loop: ${cycle.join(" → ")}.`);
}

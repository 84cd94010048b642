// What one publish run covers, decided from the frames' dependency index before any page is read:
// the frames to rebake (and those left for a later call), or, without a bake, the frames whose
// pages are withdrawn; and from that the pages the run must read (its PageScope). A run then
// reads only those pages and their ancestors, so a write costs what it changes.
import type { PageScope } from "../effects/page-tree.ts";
import type { Change, PublishOptions } from "../write/change.ts";
import type { DependencyIndex } from "../effects/dependency-index.ts";
import { byCodeUnits } from "../effects/report.ts";
import { framesAffected } from "../effects/effects.ts";

/** `bake: false`: frames whose output changed, their embedders (left for a later bake), the pages named. */
export interface Withdrawn {
  frames: string[];
  embedders: string[];
  pages: number[];
}

export interface Plan {
  /** Frame slug → why it is affected. */
  affected: Map<string, string[]>;
  /** Slugs rebaked in this run, in order; `skipped` the rest (over `limit`). */
  processed: string[];
  skipped: string[];
  withdrawn?: Withdrawn;
  scope: PageScope;
}

function withdrawnBy(index: DependencyIndex, changes: readonly Change[]): Withdrawn {
  const own: string[] = [];
  const names: string[] = [];
  const pages = new Set<number>();
  for (const change of changes) {
    if (change.kind === "page") pages.add(change.pageId);
    if (change.kind !== "frame") continue;
    if (change.output !== false && index.get(change.slug)) own.push(change.slug);
    // A rename leaves frames that name this one by id printing the same.
    names.push(change.slug, ...(change.output === false ? [] : [change.frameId]));
  }
  const embedders = index
    .embeddersOf(names)
    .filter((slug) => index.get(slug))
    .sort(byCodeUnits);
  return { frames: [...new Set([...own, ...embedders])], embedders, pages: [...pages] };
}

export function planRun(index: DependencyIndex, changes: readonly Change[], options: PublishOptions): Plan {
  const pageChanges = changes.filter((change): change is Extract<Change, { kind: "page" }> => change.kind === "page");
  const changed = pageChanges.map((change) => change.pageId);
  const parents = pageChanges.flatMap((change) => change.parents ?? []);
  if (options.bake === false) {
    const withdrawn = withdrawnBy(index, changes);
    const scope = { pages: withdrawn.pages, onFrames: withdrawn.frames.map((slug) => index.get(slug)!.id) };
    return { affected: new Map(), processed: [], skipped: [], withdrawn, scope };
  }
  const affected = framesAffected(index, changes);
  const slugs = [...affected.keys()].filter((slug) => index.get(slug)).sort(byCodeUnits);
  if (options.first) {
    const first = new Set(options.first.filter((slug) => affected.has(slug) && index.get(slug)));
    slugs.splice(0, slugs.length, ...first, ...slugs.filter((slug) => !first.has(slug)));
  }
  const processed = slugs.slice(0, options.limit ?? Number.POSITIVE_INFINITY);
  const skipped = slugs.slice(processed.length);
  // The changed pages with their relatives (children, descendants, translations), their former
  // parents, and every page on a frame the run rebakes.
  const scope = { pages: parents, families: changed, onFrames: processed.map((slug) => index.get(slug)!.id) };
  return { affected, processed, skipped, scope };
}

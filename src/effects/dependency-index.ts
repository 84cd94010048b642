// The dependency index: for every frame of a site, what it reads (settings, languages, pages,
// each menu location, each data set, each media file, each stylesheet) and which frames it
// embeds, directly and transitively.
// What a change affects is asked of it by effects.ts; pages follow from the frames (publish step).
// Pure: built from the frames' analysis, no I/O. Every walk is a linear BFS/DFS with memos,
// so a change embedded by N frames costs O(N + edges), never a quadratic walk.
import { sourceName, type SourceName } from "../markup/source-name.ts";
import type { ListEntry } from "../markup/types.ts";

export interface FrameNode {
  id: string;
  slug: string;
  /** Direct sources of this frame's own markup (analysis `sources`). */
  sources: readonly string[];
  /** Direct reference values of its svc/frame and svc/partial inserts: ids or slugs, as written. */
  refs: readonly string[];
  /** Direct reasons this markup depends on the page (analysis `live_reasons`). */
  liveReasons: readonly string[];
  /** Its lists (analysis `lists`: repeats that sort or page; docs/markup.md, "Lists"); none stored before them. */
  lists?: readonly ListEntry[];
}

export class DependencyIndex {
  private readonly bySlug = new Map<string, FrameNode>();
  private readonly byId = new Map<string, FrameNode>();
  /** slug → slugs of frames that embed it directly (including embedders of a missing slug); built on first use. */
  private embeddersMemo: Map<string, Set<string>> | null = null;
  private readonly embeddedMemo = new Map<string, string[]>();
  private readonly effectiveMemo = new Map<string, ReadonlySet<string>>();
  private readonly namesMemo = new Map<string, readonly SourceName[]>();
  private readonly liveMemo = new Map<string, readonly string[]>();

  constructor(frames: Iterable<FrameNode>) {
    for (const frame of frames) {
      this.bySlug.set(frame.slug, frame);
      this.byId.set(frame.id, frame);
    }
  }

  /** The reverse edges, built once, when a walk up from a frame first needs them. */
  private get embedders(): Map<string, Set<string>> {
    if (this.embeddersMemo) return this.embeddersMemo;
    const embedders = new Map<string, Set<string>>();
    for (const frame of this.bySlug.values()) {
      for (const target of this.embeddedSlugs(frame.slug)) {
        let set = embedders.get(target);
        if (!set) {
          set = new Set();
          embedders.set(target, set);
        }
        set.add(frame.slug);
      }
    }
    this.embeddersMemo = embedders;
    return embedders;
  }

  frames(): IterableIterator<FrameNode> {
    return this.bySlug.values();
  }

  get(slug: string): FrameNode | undefined {
    return this.bySlug.get(slug);
  }

  getById(id: string): FrameNode | undefined {
    return this.byId.get(id);
  }

  /** A reference value names a frame by id first, then by slug (lower-cased). */
  resolve(value: string): string {
    return this.byId.get(value)?.slug ?? value.trim().toLowerCase();
  }

  /** Slugs a frame embeds directly, existing or not, sorted, unique. */
  embeddedSlugs(slug: string): string[] {
    const frame = this.bySlug.get(slug);
    if (!frame) return [];
    if (frame.refs.length === 0) return [];
    let slugs = this.embeddedMemo.get(slug);
    if (!slugs) {
      slugs = [...new Set(frame.refs.map((ref) => this.resolve(ref)))].sort();
      this.embeddedMemo.set(slug, slugs);
    }
    return [...slugs];
  }

  /** Direct embedders of a slug (frames that name it, even while it is missing). */
  directEmbedders(slug: string): string[] {
    return [...(this.embedders.get(slug) ?? [])].sort();
  }

  /** Every frame that embeds one of these slugs, directly or through others; sorted. */
  embeddersOf(slugs: Iterable<string>): string[] {
    const seen = new Set<string>();
    const queue = [...slugs];
    for (let i = 0; i < queue.length; i++) {
      for (const embedder of this.embedders.get(queue[i]) ?? []) {
        if (!seen.has(embedder)) {
          seen.add(embedder);
          queue.push(embedder);
        }
      }
    }
    return [...seen].sort();
  }

  /**
   * Computes a memoised value bottom-up (children before parents) with an explicit stack, so a
   * chain thousands of frames deep needs no deep recursion. A frame met again while still open
   * (a cycle in stored data) contributes nothing, so walks always end.
   */
  private bottomUp<T>(
    slug: string,
    memo: Map<string, T>,
    combine: (frame: FrameNode, children: Array<[string, T]>) => T,
    empty: T,
  ): T {
    const known = memo.get(slug);
    if (known !== undefined) return known;
    const open = new Set<string>();
    const stack: Array<{ slug: string; expanded: boolean }> = [{ slug, expanded: false }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const frame = this.bySlug.get(top.slug);
      if (!frame || memo.has(top.slug)) {
        stack.pop();
        continue;
      }
      if (!top.expanded) {
        top.expanded = true;
        open.add(top.slug);
        for (const child of this.embeddedSlugs(top.slug)) {
          if (!memo.has(child) && !open.has(child) && this.bySlug.has(child))
            stack.push({ slug: child, expanded: false });
        }
        continue;
      }
      stack.pop();
      open.delete(top.slug);
      const children = this.embeddedSlugs(top.slug).map((child): [string, T] => [child, memo.get(child) ?? empty]);
      memo.set(top.slug, combine(frame, children));
    }
    return memo.get(slug) ?? empty;
  }

  /** Sources read by the frame and everything it embeds. */
  effectiveSources(slug: string): ReadonlySet<string> {
    return this.bottomUp(
      slug,
      this.effectiveMemo,
      (frame, children) => {
        const out = new Set(frame.sources);
        for (const [, sources] of children) for (const source of sources) out.add(source);
        return out;
      },
      new Set<string>(),
    );
  }

  /** The sources the frame and everything it embeds read, parsed (markup/source-name.ts). */
  readNames(slug: string): readonly SourceName[] {
    let names = this.namesMemo.get(slug);
    if (!names) {
      names = [...this.effectiveSources(slug)].map(sourceName);
      this.namesMemo.set(slug, names);
    }
    return names;
  }

  /**
   * Why the frame renders on request: its own reasons, plus `frame <slug>` for each embedded
   * frame that renders on request. Empty when it can be baked.
   */
  liveReasons(slug: string): readonly string[] {
    return this.bottomUp(
      slug,
      this.liveMemo,
      (frame, children) => {
        const reasons = [...frame.liveReasons];
        for (const [child, childReasons] of children) if (childReasons.length > 0) reasons.push(`frame ${child}`);
        return reasons;
      },
      [] as readonly string[],
    );
  }

  rendersOnRequest(slug: string): boolean {
    return this.liveReasons(slug).length > 0;
  }

  /**
   * Would a frame `slug` that embeds `refs` close a cycle? True when it names itself or a frame
   * that (transitively) embeds `slug`. Returns the cycle path for the refusal, or null.
   */
  cycleThrough(slug: string, refs: readonly string[]): string[] | null {
    const targets = [...new Set(refs.map((ref) => this.resolve(ref)))];
    // Walk down from each target; reaching `slug` again closes the loop.
    for (const start of targets) {
      const path = this.pathDown(start, slug);
      if (path) return [slug, ...path];
    }
    return null;
  }

  /** A path of embeddings from `from` down to `to`, found breadth-first, or null. */
  private pathDown(from: string, to: string): string[] | null {
    const cameFrom = new Map<string, string | null>([[from, null]]);
    const queue = [from];
    for (let i = 0; i < queue.length; i++) {
      const at = queue[i];
      if (at === to) {
        const path: string[] = [];
        for (let step: string | null = at; step !== null; step = cameFrom.get(step) ?? null) path.unshift(step);
        return path;
      }
      for (const next of this.embeddedSlugs(at)) {
        if (!cameFrom.has(next)) {
          cameFrom.set(next, at);
          queue.push(next);
        }
      }
    }
    return null;
  }
}

// The dependency index: for every frame of a site, what it reads (settings, languages, pages,
// each menu location, each data set, each media file, each stylesheet) and which frames it
// embeds, directly and transitively.
// It answers "this change affects these frames"; pages follow from the frames (publish step).
// Pure: built from the frames' analysis, no I/O. Every walk is a linear BFS/DFS with memos,
// so a change embedded by N frames costs O(N + edges), never a quadratic walk.
import type { Change } from "../write/change.ts";

export interface FrameNode {
  id: string;
  slug: string;
  /** Direct sources of this frame's own markup (analysis `sources`). */
  sources: readonly string[];
  /** Direct reference values of its svc/frame and svc/partial inserts: ids or slugs, as written. */
  refs: readonly string[];
  /** Direct reasons this markup depends on the page (analysis `live_reasons`). */
  liveReasons: readonly string[];
}

export class DependencyIndex {
  private readonly bySlug = new Map<string, FrameNode>();
  private readonly byId = new Map<string, FrameNode>();
  /** slug → slugs of frames that embed it directly (including embedders of a missing slug); built on first use. */
  private embeddersMemo: Map<string, Set<string>> | null = null;
  private readonly embeddedMemo = new Map<string, string[]>();
  private readonly effectiveMemo = new Map<string, ReadonlySet<string>>();
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
        if (!set) embedders.set(target, (set = new Set()));
        set.add(frame.slug);
      }
    }
    return (this.embeddersMemo = embedders);
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
    if (!slugs) this.embeddedMemo.set(slug, (slugs = [...new Set(frame.refs.map((ref) => this.resolve(ref)))].sort()));
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
  private bottomUp<T>(slug: string, memo: Map<string, T>, combine: (frame: FrameNode, children: Array<[string, T]>) => T, empty: T): T {
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
          if (!memo.has(child) && !open.has(child) && this.bySlug.has(child)) stack.push({ slug: child, expanded: false });
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
    return this.bottomUp(slug, this.effectiveMemo, (frame, children) => {
      const out = new Set(frame.sources);
      for (const [, sources] of children) for (const source of sources) out.add(source);
      return out;
    }, new Set<string>());
  }

  /**
   * Why the frame renders on request: its own reasons, plus `frame <slug>` for each embedded
   * frame that renders on request. Empty when it can be baked.
   */
  liveReasons(slug: string): readonly string[] {
    return this.bottomUp(slug, this.liveMemo, (frame, children) => {
      const reasons = [...frame.liveReasons];
      for (const [child, childReasons] of children) if (childReasons.length > 0) reasons.push(`frame ${child}`);
      return reasons;
    }, [] as readonly string[]);
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

  /** Frames whose output depends on something that changed, each with the reasons why. */
  affectedBy(changes: readonly Change[]): Map<string, string[]> {
    const out = new Map<string, string[]>();
    const add = (slug: string, because: string) => {
      const list = out.get(slug);
      if (!list) out.set(slug, [because]);
      else if (!list.includes(because)) list.push(because);
    };
    const bySource = (because: string, test: (source: string) => boolean) => {
      for (const frame of this.bySlug.values()) {
        for (const source of this.effectiveSources(frame.slug)) if (test(source)) add(frame.slug, `${because}`);
      }
    };
    /** Frames reading one of these sources, directly or through embedded frames, each because of it. */
    const readingAny = (sources: ReadonlySet<string>) => {
      for (const frame of this.bySlug.values()) {
        for (const source of this.effectiveSources(frame.slug)) if (sources.has(source)) add(frame.slug, source);
      }
    };
    for (const change of changes) {
      switch (change.kind) {
        case "settings":
          bySource("settings", (s) => s === "settings" || s === "site");
          // The default title template names the site (`%s — <site name>`).
          if (change.keys === undefined || change.keys.includes("name")) bySource("settings", (s) => s === "seo");
          // Menus and stylesheets are kept per theme: a new theme changes what every menu location
          // and every stylesheet link prints.
          if (change.keys?.includes("theme")) bySource("menus", (s) => s.startsWith("menu."));
          if (change.keys?.includes("theme")) bySource("styles", (s) => s.startsWith("style."));
          // A page without a language is shown in the default one (`page.lang`); on a site with
          // languages a new default is also a `languages` change, on one without it is only this.
          if (change.keys?.includes("default_lang")) bySource("default_lang", (s) => s === "page");
          break;
        case "site":
          // A new domain moves every absolute address (site.url, page and menu links).
          if (change.domain) for (const frame of this.bySlug.values()) add(frame.slug, "site");
          else if (change.name) bySource("site", (s) => s === "settings" || s === "site" || s === "seo");
          break;
        case "languages":
          // Languages move addresses (prefixes) and the language of every output: all frames.
          for (const frame of this.bySlug.values()) add(frame.slug, "languages");
          break;
        case "page":
          // Frame-level only: frames that list pages. The page's own output and its relatives'
          // (children, parent, descendants) are page-level effects the publish step adds; a page
          // that menus point to is announced by the publish step as a menu change too.
          bySource("pages", (s) => s === "pages");
          break;
        case "dataset":
          // A data set also stands in for a menu location that has no menu (menu.<name>).
          bySource(`data.${change.name}`, (s) => s === `data.${change.name}` || s === `menu.${change.name}`);
          break;
        case "menu": {
          // Only the readers of the locations the menu held before or holds after the write; a
          // change that names none (POST /frames/rebake `menus`) reaches every menu reader.
          const locations = change.locations;
          if (locations === undefined) bySource("menus", (s) => s.startsWith("menu."));
          else if (locations.length > 0) {
            const sources = new Set(locations.map((location) => `menu.${location}`));
            bySource("menus", (s) => sources.has(s));
          }
          break;
        }
        case "media":
          // Frames read a file by any name it has or had (`media.<id>`, `media.<slug>`): a new
          // slug reaches the frames waiting for it, a former one those still naming it.
          readingAny(new Set(change.refs.map((ref) => `media.${ref}`)));
          break;
        case "style":
          // Frames linking one of the stylesheets whose bundle changed (the engine keeps only
          // changes of the site's theme): the link's address holds the bundle's hash.
          readingAny(new Set(change.names.map((name) => `style.${name}`)));
          break;
        case "strings":
          readingAny(new Set(change.keys.map((key) => `t.${key}`)));
          break;
        case "sidebar":
          readingAny(new Set([`sidebar.${change.name}`]));
          break;
        case "seo":
          if (change.head !== false) bySource("seo", (s) => s === "seo");
          break;
        case "all":
          for (const frame of this.bySlug.values()) add(frame.slug, "all");
          break;
        case "pages":
          bySource("pages", (s) => s === "pages" || s === "pages.children" || s === "breadcrumbs" || s === "page" || s === "seo" || s.startsWith("sidebar."));
          break;
        case "frame": {
          if (this.bySlug.has(change.slug)) add(change.slug, "frame");
          // Embedders by slug, and by id: once a frame is deleted its id no longer resolves to
          // its slug, so frames that name it by id are found under the id itself.
          const names = change.frameId ? [change.slug, change.frameId] : [change.slug];
          for (const embedder of this.embeddersOf(names)) add(embedder, `frame ${change.slug}`);
          break;
        }
      }
    }
    return out;
  }
}

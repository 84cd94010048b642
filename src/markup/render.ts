// renderFrame: runs a compiled program with a context. Synchronous and pure: every piece of
// data comes through the RenderContext. Output is an array of slices of the original markup
// and hole outputs, joined once at the end.

import { OverBudget, withinBytes, type BudgetName, type RenderBudget } from "./budget.ts";
import { escapeAttr, escapeText } from "./escape.ts";
import { imageHtml } from "./image-html.ts";
import { seoHeadHtml } from "./seo-html.ts";
import { pagerHtml, sidebarHtml, tocHtml } from "./docs-html.ts";
import { langSwitcherHtml, menuHtml } from "./lists-html.ts";
import type { InsertOp, Op, RepeatOp } from "./program.ts";
import type { CompiledFrame, MarkupWarning, RenderContext, RenderOptions, RenderResult } from "./types.ts";
import { readPath, scalarText } from "./values.ts";

const CLOSE_TAG_START = /<\//g;

/** Embedded frames nest at most this deep; deeper ones print nothing (warning frame_cycle). */
export const MAX_FRAME_DEPTH = 16;

/** What item.* and vars.* read at a point of the output. */
interface Scope {
  hasItem: boolean;
  item: unknown;
  vars: Record<string, unknown> | null;
  /** The current items came from a menu: their children are menu nodes too (valid:false skipped). */
  fromMenu: boolean;
}

const TOP_SCOPE: Scope = { hasItem: false, item: undefined, vars: null, fromMenu: false };

function sorted(values: Iterable<string>): string[] {
  return Array.from(values).sort();
}

class Renderer {
  readonly out: string[] = [];
  readonly unresolved = new Set<string>();
  readonly warnings: MarkupWarning[] = [];
  readonly frames = new Set<string>();
  readonly missing = new Set<string>();
  readonly unknown = new Set<string>();
  readonly bindTags = new Set<string>();
  inserts = 0;
  binds = 0;
  repeats = 0;
  blocks = 0;
  /** Context values are the same for the whole render: ask the context once per token. */
  private readonly memo = new Map<string, string | undefined>();
  /** Frames being rendered, outermost first (for cycle detection). */
  private readonly compiledStack: CompiledFrame[] = [];
  private readonly slugStack: string[] = [];
  /**
   * Frames printed by inserts, and the output counted up to `out[counted]`: UTF-16 units, or, when
   * only measuring, UTF-8 bytes (the pieces counted are then dropped: nothing is kept).
   */
  private expansions = 0;
  private chars = 0;
  private counted = 0;

  constructor(
    private readonly ctx: RenderContext,
    private readonly budget: RenderBudget | undefined,
    private readonly measuring: boolean,
  ) {}

  /** Counts the output written since the last count. */
  count(): number {
    const out = this.out;
    if (this.measuring) {
      for (let i = 0; i < out.length; i++) this.chars += Buffer.byteLength(out[i]!, "utf8");
      out.length = 0;
    } else {
      for (let i = this.counted; i < out.length; i++) this.chars += out[i]!.length;
      this.counted = out.length;
    }
    return this.chars;
  }

  /** Stops the render when a budget is spent (budget.ts): at each embedded frame and repeat iteration. */
  private checkpoint(): void {
    const budget = this.budget;
    if (budget === undefined) return;
    if (this.count() > budget.bytes) this.over("bytes");
    if (this.expansions > budget.expansions) this.over("expansions");
    if (budget.now() > budget.until) this.over("time");
  }

  over(budget: BudgetName): never {
    throw new OverBudget(budget, [...this.slugStack]);
  }

  run(frame: CompiledFrame, slug: string | undefined): void {
    this.compiledStack.push(frame);
    if (slug !== undefined) this.slugStack.push(slug);
    this.ops(frame.html, frame.program.ops, TOP_SCOPE, undefined);
  }

  private warn(code: string, message: string, at: number, frame: string | undefined): void {
    this.warnings.push(frame === undefined ? { code, message, at } : { code, message, at, frame });
  }

  /** The text of a token, or undefined (then listed as unresolved). */
  private value(token: string, scope: Scope): string | undefined {
    let text: string | undefined;
    if (token.startsWith("item.")) {
      text = scope.hasItem ? scalarText(readPath(scope.item, token.slice(5))) : undefined;
    } else if (token.startsWith("vars.")) {
      text = scope.vars !== null ? scalarText(readPath(scope.vars, token.slice(5))) : undefined;
    } else if (this.memo.has(token)) {
      text = this.memo.get(token);
    } else {
      text = scalarText(this.ctx.value(token));
      this.memo.set(token, text);
    }
    if (text === undefined) this.unresolved.add(token);
    return text;
  }

  private ops(html: string, ops: readonly Op[], scope: Scope, frame: string | undefined): void {
    const out = this.out;
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i]!;
      switch (op.t) {
        case "static":
          out.push(html.slice(op.s, op.e));
          break;
        case "bind": {
          this.binds++;
          this.bindTags.add(op.tag);
          for (const [name, token] of op.attrs) {
            const v = this.value(token, scope);
            if (v !== undefined) out.push(" ", name, '="', escapeAttr(v), '"');
          }
          break;
        }
        case "attr": {
          // An unresolved attribute target leaves the attribute out altogether.
          const v = this.value(op.token, scope);
          if (v !== undefined) out.push(html.slice(op.ws, op.nameStart), op.name, '="', escapeAttr(v), '"');
          break;
        }
        case "content": {
          const v = this.value(op.token, scope);
          if (v !== undefined) {
            out.push(op.mode === "text" ? escapeText(v) : op.mode === "html" ? v : v.replace(CLOSE_TAG_START, "<\\/"));
          }
          break;
        }
        case "insert":
          this.insert(op, scope, frame);
          break;
        case "repeat":
          this.repeat(html, op, scope, frame);
          break;
      }
    }
  }

  private insert(op: InsertOp, scope: Scope, frame: string | undefined): void {
    this.inserts++;
    switch (op.kind) {
      case "unknown":
        this.unknown.add(op.full);
        return;
      case "invalid":
        return;
      case "menu":
        this.blocks++;
        this.out.push(op.open, menuHtml(this.ctx.menu(op.location), op.depth, op.cls), op.close);
        return;
      case "lang":
        this.blocks++;
        this.out.push(op.open, langSwitcherHtml(this.ctx.languageLinks(), op.cls), op.close);
        return;
      case "frame":
      case "partial":
        this.embed(op, scope, frame);
        return;
      case "image":
        this.blocks++;
        this.out.push(op.open, this.image(op, frame), op.close);
        return;
      case "sidebar": {
        this.blocks++;
        const nodes = this.ctx.sidebar(op.name);
        this.out.push(op.open, nodes ? sidebarHtml(nodes, op.depth, op.cls) : "", op.close);
        return;
      }
      case "pager": {
        this.blocks++;
        const pager = this.ctx.pager(op.name);
        this.out.push(op.open, pager ? pagerHtml(pager) : "", op.close);
        return;
      }
      case "toc":
        this.blocks++;
        this.out.push(op.open, tocHtml(this.ctx.headings(), op.levels), op.close);
        return;
      case "seo": {
        this.blocks++;
        const head = this.ctx.seo();
        this.out.push(op.open, head ? seoHeadHtml(head) : "", op.close);
        return;
      }
      case "styles":
        this.blocks++;
        this.out.push(op.open);
        // One link per stylesheet the site has, in order; a name it does not have prints nothing.
        for (const name of op.styles) {
          const href = this.ctx.style(name);
          if (href !== undefined) this.out.push('<link rel="stylesheet" href="', escapeAttr(href), '">');
        }
        this.out.push(op.close);
        return;
    }
  }

  /** svc/image: the `<img>` of a media file of the site; nothing (with a warning) for an unknown ref or a file that is not an image. */
  private image(op: InsertOp, frame: string | undefined): string {
    const media = this.ctx.media(op.media);
    if (media === undefined) {
      this.warn("media_not_found", `svc/image "${op.media}" names no media file of this site; it prints nothing`, op.at, frame);
      return "";
    }
    if (!media.image) {
      this.warn("media_not_image", `svc/image "${op.media}" is not an image; it prints nothing`, op.at, frame);
      return "";
    }
    return imageHtml(media, op);
  }

  private embed(op: InsertOp, scope: Scope, frame: string | undefined): void {
    let found: ReturnType<RenderContext["frame"]>;
    for (const ref of op.refs) {
      found = this.ctx.frame(ref);
      if (found !== undefined) break;
    }
    this.blocks++;
    this.out.push(op.open);
    if (found === undefined) {
      this.missing.add(op.refs[0]!);
    } else if (this.compiledStack.includes(found.compiled) || this.slugStack.includes(found.slug)) {
      this.warn("frame_cycle", `${op.full} "${found.slug}" embeds itself; it prints nothing here`, op.at, frame);
    } else if (this.compiledStack.length > MAX_FRAME_DEPTH) {
      this.warn("frame_cycle", `${op.full} "${found.slug}" is nested more than ${MAX_FRAME_DEPTH} frames deep; it prints nothing here`, op.at, frame);
    } else {
      this.frames.add(found.slug);
      this.expansions++;
      // svc/frame prints the frame as it is for the page; svc/partial renders it in the
      // current context: it sees the current item, and its `with` values as vars.*.
      const inner: Scope =
        op.kind === "partial"
          ? { hasItem: scope.hasItem, item: scope.item, vars: op.vars, fromMenu: scope.fromMenu }
          : TOP_SCOPE;
      this.compiledStack.push(found.compiled);
      this.slugStack.push(found.slug);
      this.checkpoint();
      this.ops(found.compiled.html, found.compiled.program.ops, inner, found.slug);
      this.compiledStack.pop();
      this.slugStack.pop();
    }
    this.out.push(op.close);
  }

  private repeat(html: string, op: RepeatOp, scope: Scope, frame: string | undefined): void {
    this.inserts++;
    if (!op.valid) return;
    this.repeats++;
    let items: readonly unknown[] | undefined;
    let fromMenu: boolean;
    const src = op.source;
    if (src.kind === "item") {
      const v = scope.hasItem ? readPath(scope.item, src.path) : undefined;
      items = Array.isArray(v) ? v : undefined;
      fromMenu = scope.fromMenu;
      if (items === undefined) this.unresolved.add(src.token);
    } else {
      fromMenu = src.source.startsWith("menu.");
      items = this.ctx.items(src.source);
      if (items === undefined && fromMenu) items = this.ctx.menu(src.source.slice(5));
      if (items === undefined) {
        this.warn("unknown_source", `svc/repeat source "${src.source}" is not known; the block is empty`, op.at, frame);
      }
    }
    this.blocks++;
    this.out.push(op.open);
    if (items !== undefined) {
      let written = 0;
      for (const item of items) {
        this.checkpoint();
        if (op.limit >= 0 && written >= op.limit) break;
        if (fromMenu && item !== null && typeof item === "object" && (item as { valid?: unknown }).valid === false) continue;
        if (op.match !== null && !matches(item, op.match)) continue;
        written++;
        this.ops(html, op.body, { hasItem: true, item, vars: scope.vars, fromMenu }, frame);
      }
    }
    this.out.push(op.close);
  }
}

/** Every match field, read as a dotted path, must have exactly the given string form. */
function matches(item: unknown, match: ReadonlyArray<[string, string]>): boolean {
  for (const [path, expected] of match) {
    const v = readPath(item, path);
    const text = v === null ? "null" : scalarText(v);
    if (text !== expected) return false;
  }
  return true;
}

/**
 * Renders a compiled frame with a context. With `options.budget`, throws OverBudget (budget.ts)
 * as soon as the render spends one of its budgets; with `measure` too, only checks them: the
 * output is counted as it is written and not kept (`html` is empty), as a write's trial needs.
 */
export function renderFrame(frame: CompiledFrame, ctx: RenderContext, options: RenderOptions = {}): RenderResult {
  const measuring = options.measure === true && options.budget !== undefined;
  const r = new Renderer(ctx, options.budget, measuring);
  r.run(frame, options.slug);
  let html = "";
  if (measuring) {
    if (r.count() > options.budget!.bytes) r.over("bytes");
  } else {
    html = r.out.join("");
    if (options.budget !== undefined && !withinBytes(html, options.budget)) r.over("bytes");
  }
  return {
    html,
    unresolved: sorted(r.unresolved),
    warnings: r.warnings,
    frames: sorted(r.frames),
    frames_missing: sorted(r.missing),
    inserts: r.inserts,
    unknown_inserts: sorted(r.unknown),
    binds: r.binds,
    bind_tags: sorted(r.bindTags),
    repeats: r.repeats,
    blocks: r.blocks,
  };
}

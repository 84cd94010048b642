// renderFrame: runs a compiled program with a context. Synchronous and pure: every piece of
// data comes through the RenderContext. Output is an array of slices of the original markup
// and hole outputs, joined once at the end (output.ts).

import { OverBudget, withinBytes, type BudgetName, type RenderBudget } from "./budget.ts";
import { escapeAttr, escapeText } from "./escape.ts";
import { Marks } from "./current.ts";
import { Output } from "./output.ts";
import { printedInsert } from "./render-inserts.ts";
import type { InsertOp, Op, RepeatOp, SlotOp } from "./program.ts";
import type { CompiledFrame, MarkupWarning, RenderContext, RenderOptions, RenderResult } from "./types.ts";
import { listed, pageSlice } from "./list-window.ts";
import { RenderValues, TOP_SCOPE, type Scope } from "./render-values.ts";

const CLOSE_TAG_START = /<\//g;

/** Embedded frames nest at most this deep; deeper ones print nothing (warning frame_cycle). */
export const MAX_FRAME_DEPTH = 16;

/** One frame of a layout chain: the page's frame first, then its layout, its layout's layout, … */
interface Chain {
  frame: CompiledFrame;
  slug: string | undefined;
  scope: Scope;
  /** The slug its warnings name (undefined: the frame rendered itself). */
  warnAs: string | undefined;
}

/** The layout chain being printed, and which of its frames the current markup belongs to. */
interface Layout {
  chain: Chain[];
  level: number;
}

function sorted(values: Iterable<string>): string[] {
  return Array.from(values).sort();
}

/** The time budget is checked at every this many checkpoints (a power of two). */
const TIME_STRIDE = 32;

class Renderer {
  /** What is printed, counted as it goes (output.ts); `out` is its pieces, which the ops push to. */
  readonly output: Output;
  readonly out: string[];
  /** What the markup reads, and the tokens that read nothing (render-values.ts). */
  readonly values: RenderValues;
  readonly warnings: MarkupWarning[] = [];
  readonly frames = new Set<string>();
  readonly missing = new Set<string>();
  readonly unknown = new Set<string>();
  readonly bindTags = new Set<string>();
  inserts = 0;
  binds = 0;
  repeats = 0;
  blocks = 0;
  /** Frames being rendered, outermost first (for cycle detection). */
  private readonly compiledStack: CompiledFrame[] = [];
  private readonly slugStack: string[] = [];
  /** Frames printed by inserts. */
  private expansions = 0;
  private checkpoints = 0;

  /** How menus mark the page shown: at once for a page, with markers for a bake (current.ts). */
  readonly marks: Marks;

  constructor(
    private readonly ctx: RenderContext,
    private readonly budget: RenderBudget | undefined,
    measuring: boolean,
  ) {
    this.output = new Output(measuring);
    this.out = this.output.pieces;
    this.marks = new Marks(ctx.current());
    this.values = new RenderValues(ctx);
  }

  /**
   * Stops the render when a budget is spent (budget.ts). Checked each time markup is about to be
   * printed (again): a frame's body, an embedded frame, a layout's slot or block filled, a
   * condition's branch, a repeat's iteration. Whatever multiplies output goes through one of
   * those, so a render stops within one frame's straight markup of a budget.
   */
  private checkpoint(): void {
    const budget = this.budget;
    if (budget === undefined) return;
    if (this.output.count() > budget.bytes) this.over("bytes");
    if (this.expansions > budget.expansions) this.over("expansions");
    // The clock is read at every TIME_STRIDE-th checkpoint: reading it at each took half of a
    // long render's time (bench fairness, CPU profile of the render worker).
    if ((++this.checkpoints & (TIME_STRIDE - 1)) === 0 && budget.now() > budget.until) this.over("time");
  }

  over(budget: BudgetName): never {
    throw new OverBudget(budget, [...this.slugStack], this.output.count());
  }

  run(frame: CompiledFrame, slug: string | undefined): void {
    this.frameOut(frame, slug, TOP_SCOPE, true);
  }

  private warn(code: string, message: string, at: number, frame: string | undefined): void {
    this.warnings.push(frame === undefined ? { code, message, at } : { code, message, at, frame });
  }

  /**
   * A frame with the layouts it is printed inside (docs/markup.md, "Layouts"): the outermost layout
   * is printed, its slots filled from the frames nearer the page (the main slot by the next frame's
   * markup, a named slot by the nearest block of that name), else their default content.
   */
  private frameOut(frame: CompiledFrame, slug: string | undefined, scope: Scope, top: boolean): void {
    const chain: Chain[] = [{ frame, slug, scope, warnAs: top ? undefined : slug }];
    for (let at = frame; at.program.layout; ) {
      const layout = this.lookup(at.program.layout.refs);
      const from = chain[chain.length - 1]!;
      if (layout === undefined) {
        this.missing.add(at.program.layout.refs[0]!);
        break;
      }
      if (
        this.compiledStack.includes(layout.compiled) ||
        this.slugStack.includes(layout.slug) ||
        chain.some((c) => c.frame === layout.compiled || c.slug === layout.slug)
      ) {
        this.warn(
          "frame_cycle",
          `svc/layout "${layout.slug}" is printed inside itself; it is left out here`,
          at.program.layout.at,
          from.warnAs,
        );
        break;
      }
      if (this.compiledStack.length + chain.length > MAX_FRAME_DEPTH) {
        this.warn(
          "frame_cycle",
          `svc/layout "${layout.slug}" is nested more than ${MAX_FRAME_DEPTH} frames deep; it is left out here`,
          at.program.layout.at,
          from.warnAs,
        );
        break;
      }
      this.frames.add(layout.slug);
      this.expansions++;
      chain.push({ frame: layout.compiled, slug: layout.slug, scope, warnAs: layout.slug });
      at = layout.compiled;
    }
    for (const level of chain) {
      this.compiledStack.push(level.frame);
      if (level.slug !== undefined) this.slugStack.push(level.slug);
    }
    // `ops` checks the budgets with the frames on the stack, so a spent budget names them in its chain.
    const outer = chain[chain.length - 1]!;
    this.ops(outer.frame.html, outer.frame.program.ops, outer.scope, outer.warnAs, { chain, level: chain.length - 1 });
    // The frame rendered stays on the stack: the final byte count names it in its chain.
    for (const level of top ? chain.slice(1) : chain) {
      this.compiledStack.pop();
      if (level.slug !== undefined) this.slugStack.pop();
    }
  }

  /** svc/slot: the markup or block that fills it from nearer the page, else its default content. */
  private slot(html: string, op: SlotOp, scope: Scope, frame: string | undefined, lay: Layout): void {
    if (op.name === "" && lay.level > 0) {
      const inner = lay.chain[lay.level - 1]!;
      this.ops(inner.frame.html, inner.frame.program.ops, inner.scope, inner.warnAs, {
        chain: lay.chain,
        level: lay.level - 1,
      });
      return;
    }
    if (op.name !== "") {
      for (let j = 0; j < lay.level; j++) {
        const level = lay.chain[j]!;
        const block = level.frame.program.blocks?.find((b) => b.name === op.name);
        if (block) {
          this.ops(level.frame.html, block.ops, level.scope, level.warnAs, { chain: lay.chain, level: j });
          return;
        }
      }
    }
    this.ops(html, op.defaults, scope, frame, lay);
  }

  /** A frame by the first of its references that names one. */
  private lookup(refs: readonly string[]): ReturnType<RenderContext["frame"]> {
    for (const ref of refs) {
      const found = this.ctx.frame(ref);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  private ops(html: string, ops: readonly Op[], scope: Scope, frame: string | undefined, lay: Layout): void {
    this.checkpoint();
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
            const v = this.values.value(token, scope);
            if (v !== undefined) out.push(" ", name, '="', escapeAttr(v), '"');
          }
          break;
        }
        case "attr": {
          // An unresolved attribute target leaves the attribute out altogether.
          const v = this.values.value(op.token, scope);
          if (v !== undefined) out.push(html.slice(op.ws, op.nameStart), op.name, '="', escapeAttr(v), '"');
          break;
        }
        case "content": {
          const v = this.values.value(op.token, scope);
          if (v !== undefined) {
            out.push(op.mode === "text" ? escapeText(v) : op.mode === "html" ? v : v.replace(CLOSE_TAG_START, "<\\/"));
          }
          break;
        }
        case "insert":
          this.insert(op, scope, frame);
          break;
        case "repeat":
          this.repeat(html, op, scope, frame, lay);
          break;
        case "if":
          this.inserts++;
          if (op.valid) this.ops(html, this.values.truth(op, scope) ? op.then : op.else, scope, frame, lay);
          break;
        case "slot":
          this.slot(html, op, scope, frame, lay);
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
      case "frame":
      case "partial":
        this.embed(op, scope, frame);
        return;
      default:
        this.blocks++;
        this.out.push(
          op.open,
          printedInsert(this.ctx, op, this.marks, (code, message, at) => this.warn(code, message, at, frame)),
          op.close,
        );
    }
  }

  private embed(op: InsertOp, scope: Scope, frame: string | undefined): void {
    const found = this.lookup(op.refs);
    this.blocks++;
    this.out.push(op.open);
    if (found === undefined) {
      this.missing.add(op.refs[0]!);
    } else if (this.compiledStack.includes(found.compiled) || this.slugStack.includes(found.slug)) {
      this.warn("frame_cycle", `${op.full} "${found.slug}" embeds itself; it prints nothing here`, op.at, frame);
    } else if (this.compiledStack.length > MAX_FRAME_DEPTH) {
      this.warn(
        "frame_cycle",
        `${op.full} "${found.slug}" is nested more than ${MAX_FRAME_DEPTH} frames deep; it prints nothing here`,
        op.at,
        frame,
      );
    } else {
      this.frames.add(found.slug);
      this.expansions++;
      // svc/frame prints the frame as it is for the page; svc/partial renders it in the
      // current context: it sees the current item, and its `with` values as vars.*.
      const inner: Scope =
        op.kind === "partial"
          ? { hasItem: scope.hasItem, item: scope.item, vars: op.vars, fromMenu: scope.fromMenu }
          : TOP_SCOPE;
      this.frameOut(found.compiled, found.slug, inner, false);
    }
    this.out.push(op.close);
  }

  private repeat(html: string, op: RepeatOp, scope: Scope, frame: string | undefined, lay: Layout): void {
    this.inserts++;
    if (!op.valid) return;
    this.repeats++;
    const src = op.source;
    const { items, fromMenu } = this.values.repeatItems(src, scope);
    if (items === undefined && src.kind === "context") {
      this.warn("unknown_source", `svc/repeat source "${src.source}" is not known; the block is empty`, op.at, frame);
    }
    this.blocks++;
    this.out.push(op.open);
    if (items !== undefined) {
      for (const item of this.shown(op, items, fromMenu, frame)) {
        this.checkpoint();
        this.ops(html, op.body, { hasItem: true, item, vars: scope.vars, fromMenu }, frame, lay);
      }
    }
    this.out.push(op.close);
  }

  /**
   * The items a repeat prints (list-window.ts): matched (menu nodes `valid: false` left out),
   * ordered, past the offset, within the limit; of a paged list its first page, and of the page's
   * list printed in the page's own frame (`frame` undefined) the page its address names.
   */
  private shown(op: RepeatOp, items: readonly unknown[], fromMenu: boolean, frame: string | undefined): unknown[] {
    // The language is asked for only by a list that sorts (texts are collated in it).
    const lang = op.orderBy === null ? null : this.values.language();
    const list = listed(items, op, lang, fromMenu ? validNode : undefined);
    if (op.pageSize === 0) return list;
    const page = op.list && frame === undefined ? (this.ctx.listPage?.()?.page ?? 1) : 1;
    return pageSlice(list, op.pageSize, page);
  }
}

function validNode(item: unknown): boolean {
  return !(item !== null && typeof item === "object" && (item as { valid?: unknown }).valid === false);
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
    if (r.output.count() > options.budget!.bytes) r.over("bytes");
  } else {
    html = r.output.html();
    if (options.budget !== undefined && !withinBytes(html, options.budget)) r.over("bytes");
  }
  return {
    html,
    unresolved: sorted(r.values.unresolved),
    warnings: r.warnings,
    frames: sorted(r.frames),
    frames_missing: sorted(r.missing),
    inserts: r.inserts,
    unknown_inserts: sorted(r.unknown),
    binds: r.binds,
    bind_tags: sorted(r.bindTags),
    repeats: r.repeats,
    blocks: r.blocks,
    marks: r.marks.table,
  };
}

// Compiles insert comments (docs/markup.md, "Inserts") into the program: a self-closing
// insert becomes one hole; `<!-- svc/repeat {…} -->` and `<!-- /svc/repeat -->` open and close
// a block whose body is a nested operation list. Also the analysis side of each: counts,
// unknown names, bad parameters, stray and unclosed blocks. The parameters of each known
// insert are checked in insert-ops.ts; this file decides what a comment's form and name mean.
//
// Blocks nest at most MAX_BLOCK_DEPTH deep, so the renderer, which recurses once per open block,
// is bounded by construction (with at most 16 embedded frames, render.ts). A block opened deeper
// prints nothing (warning repeat_too_deep): its body is compiled into the block as usual, but a
// repeat opened inside it is not a block, only text of that body, so the program never nests deeper.

import type { AnalysisBuilder } from "./analysis.ts";
import { KNOWN_INSERTS, type ParsedInsert } from "./insert-grammar.ts";
import { MAX_JSON_DEPTH } from "./json-scan.ts";
import { frameOp, imageOp, insertOp, langOp, menuOp, repeatOp, stylesOp } from "./insert-ops.ts";
import type { ProgramBuilder } from "./program-builder.ts";
import { pagerOp, sidebarOp, tocOp } from "./docs-ops.ts";

/** Repeat blocks open inside one another at most this deep; a deeper one prints nothing. */
export const MAX_BLOCK_DEPTH = 64;

export class InsertCompiler {
  private readonly a: AnalysisBuilder;
  private readonly prog: ProgramBuilder;
  /**
   * 0, or inside a block opened too deep: 1 + the repeats opened (and not yet closed) inside it,
   * which are text of its body rather than blocks.
   */
  private tooDeep = 0;

  constructor(a: AnalysisBuilder, prog: ProgramBuilder) {
    this.a = a;
    this.prog = prog;
  }

  /** Compiles the insert comment html[start, end). */
  compile(ins: ParsedInsert, start: number, end: number): void {
    const kind = KNOWN_INSERTS.get(ins.full);
    if (ins.form === "close") {
      if (kind === "repeat") this.closeRepeat(start, end);
      return; // `<!-- /svc/other -->` is an ordinary comment
    }
    if (ins.form === "open") {
      if (kind === "repeat") {
        this.openRepeat(ins, start, end);
      } else if (kind !== undefined) {
        this.a.warn(
          "insert_not_self_closing",
          `${ins.full} must end with "/-->"; this comment is left as it is`,
          start,
        );
      }
      return; // any other `<!-- svc/x ... -->` is an ordinary comment
    }

    const a = this.a;
    const prog = this.prog;
    a.insert(ins.full, kind !== undefined);
    if (ins.paramsTooDeep) {
      a.warn("insert_params_too_deep", `the parameters of ${ins.full} nest deeper than ${MAX_JSON_DEPTH} levels; it prints nothing`, start);
    } else if (ins.paramsError) {
      a.warn("bad_insert_params", `the parameters of ${ins.full} are not a JSON object; it prints nothing`, start);
    }
    if (kind === undefined) {
      prog.hole(start, end, insertOp("unknown", ins, start));
      return;
    }
    if (ins.paramsError) {
      if (kind === "repeat") a.repeats++;
      prog.hole(start, end, insertOp("invalid", ins, start));
      return;
    }
    switch (kind) {
      case "repeat":
        // A self-closed repeat is a block with an empty body.
        prog.hole(start, end, repeatOp(a, ins, start));
        return;
      case "frame":
      case "partial":
        prog.hole(start, end, frameOp(a, kind, ins, start));
        return;
      case "menu":
        prog.hole(start, end, menuOp(a, ins, start));
        return;
      case "lang":
        a.source("languages");
        a.liveReason("insert op/lang-switcher");
        prog.hole(start, end, langOp(a, ins, start));
        return;
      case "image":
        prog.hole(start, end, imageOp(a, ins, start));
        return;
      case "styles":
        prog.hole(start, end, stylesOp(a, ins, start));
        return;
      case "sidebar":
        prog.hole(start, end, sidebarOp(a, ins, start));
        return;
      case "pager":
        prog.hole(start, end, pagerOp(a, ins, start));
        return;
      case "toc":
        prog.hole(start, end, tocOp(a, ins, start));
        return;
      case "seo":
        // The head tags of the page shown: its title, address, translations and SEO fields.
        a.source("seo");
        a.source("page");
        a.liveReason("insert svc/seo");
        prog.hole(start, end, insertOp("seo", ins, start));
        return;
    }
  }

  private openRepeat(ins: ParsedInsert, start: number, end: number): void {
    if (this.tooDeep > 0) {
      this.tooDeep++; // text of the too-deep block's body
      return;
    }
    this.a.insert(ins.full, true);
    if (this.prog.depth() >= MAX_BLOCK_DEPTH) {
      this.a.warn(
        "repeat_too_deep",
        `svc/repeat blocks nest at most ${MAX_BLOCK_DEPTH} deep; this block prints nothing, and repeats inside it are not blocks`,
        start,
      );
      this.tooDeep = 1;
      this.prog.openBlock(repeatOp(this.a, { ...ins, params: null, paramsError: true }, start), start, end);
      return;
    }
    if (ins.paramsTooDeep) {
      this.a.warn("insert_params_too_deep", `the parameters of ${ins.full} nest deeper than ${MAX_JSON_DEPTH} levels; the block prints nothing`, start);
    } else if (ins.paramsError) {
      this.a.warn("bad_insert_params", `the parameters of ${ins.full} are not a JSON object; the block prints nothing`, start);
    }
    this.prog.openBlock(repeatOp(this.a, ins, start), start, end);
  }

  private closeRepeat(start: number, end: number): void {
    if (this.tooDeep > 1) {
      this.tooDeep--; // closes a repeat that is text of the too-deep block's body
      return;
    }
    this.tooDeep = 0;
    if (!this.prog.inBlock()) {
      this.a.warn("stray_repeat_close", "<!-- /svc/repeat --> without an open svc/repeat; left as it is", start);
      return;
    }
    this.prog.closeBlock(start, end);
  }

  /** The svc/repeat opened at `openStart` has no close comment; the program prints it once, as written. */
  unclosedRepeat(openStart: number): void {
    this.a.warn("unclosed_repeat", "svc/repeat has no <!-- /svc/repeat -->; the block is printed once, as written", openStart);
  }
}

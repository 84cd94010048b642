// The block pairs of the markup (docs/markup.md, "Blocks"): `svc/repeat`, `svc/if` (with
// `<!-- svc/else /-->`), `svc/slot` (default content of a layout's slot) and `svc/block` (a frame's
// content for a named slot up its layout chain). An open comment opens a nested operation list; the
// close comment of the same name closes it. A close that is not the innermost block's (none open,
// or blocks crossing) is stray and left as plain markup; a block never closed is printed once, as
// written. svc/repeat keeps its own warning codes (`stray_repeat_close`, `unclosed_repeat`); the
// others are `stray_block_close` and `unclosed_block` with the insert's `name`.
//
// Blocks nest at most MAX_BLOCK_DEPTH deep, so the renderer, which recurses once per open block,
// is bounded by construction (with at most 16 embedded frames, render.ts). A block opened deeper
// prints nothing (warning repeat_too_deep, for any block): its body is compiled into it as usual,
// but blocks opened inside it are not blocks, only text of that body.
import type { AnalysisBuilder } from "./analysis.ts";
import type { InsertKind, ParsedInsert } from "./insert-grammar.ts";
import { MAX_JSON_DEPTH } from "./json-scan.ts";
import { repeatOp } from "./repeat-op.ts";
import type { ProgramBuilder } from "./program-builder.ts";
import type { BlockHolder, IfOp } from "./program.ts";
import { matchText } from "./insert-ops.ts";

/** Blocks open inside one another at most this deep; a deeper one prints nothing. */
export const MAX_BLOCK_DEPTH = 64;

export type BlockKind = Extract<InsertKind, "repeat" | "if" | "slot" | "block">;
export const BLOCK_KINDS: ReadonlySet<InsertKind> = new Set<InsertKind>(["repeat", "if", "slot", "block"]);

/** A name of a slot or block: a non-empty string (trimmed); "" for the main slot. */
function nameParam(a: AnalysisBuilder, ins: ParsedInsert, at: number, required: boolean): string | null {
  const name = ins.params?.name;
  if (name === undefined || name === null) {
    if (required)
      a.warn("insert_param_missing", `${ins.full} needs "name"; it prints nothing`, at, {
        insert: ins.full,
        param: "name",
      });
    return required ? null : "";
  }
  if (typeof name !== "string" || name.trim() === "") {
    a.warn("insert_param_invalid", `${ins.full}: "name" must be a non-empty string; it prints nothing`, at, {
      insert: ins.full,
      param: "name",
    });
    return null;
  }
  return name.trim();
}

/** The svc/if operation: `when` (a token), `equals` (compared as svc/repeat match compares), `not`. */
export function ifOp(a: AnalysisBuilder, ins: ParsedInsert, at: number): IfOp {
  const op: IfOp = {
    t: "if",
    valid: !ins.paramsError,
    at,
    token: "",
    equals: null,
    not: false,
    then: [],
    else: [],
    inElse: false,
  };
  if (!op.valid) return op;
  const params = ins.params ?? {};
  const when = params.when;
  if (typeof when !== "string" || when.trim() === "") {
    a.warn("insert_param_missing", `${ins.full} needs "when" (a token); the block prints nothing`, at, {
      insert: ins.full,
      param: "when",
    });
    op.valid = false;
    return op;
  }
  op.token = when.trim();
  a.token(op.token, at);
  if (params.equals !== undefined) {
    const text = matchText(params.equals);
    if (text === undefined) {
      a.warn(
        "insert_param_invalid",
        `${ins.full}: "equals" must be a string, number, boolean or null; the block prints nothing`,
        at,
        { insert: ins.full, param: "equals" },
      );
      op.valid = false;
      return op;
    }
    op.equals = text;
  }
  if (params.not !== undefined && params.not !== null) {
    if (typeof params.not !== "boolean") {
      a.warn("insert_param_invalid", `${ins.full}: "not" must be true or false; the block prints nothing`, at, {
        insert: ins.full,
        param: "not",
      });
      op.valid = false;
      return op;
    }
    op.not = params.not;
  }
  return op;
}

export class BlockCompiler {
  /**
   * 0, or inside a block opened too deep: 1 + the blocks opened (and not yet closed) inside it,
   * which are text of its body rather than blocks.
   */
  private tooDeep = 0;

  constructor(
    private readonly a: AnalysisBuilder,
    private readonly prog: ProgramBuilder,
  ) {}

  /** The holder of an open comment of `kind` (its parameters checked; analysis recorded). */
  private holderOf(kind: BlockKind, ins: ParsedInsert, start: number): BlockHolder | null {
    const a = this.a;
    switch (kind) {
      case "repeat":
        return repeatOp(a, ins, start, !this.prog.insideRepeat());
      case "if":
        return ifOp(a, ins, start);
      case "slot": {
        const name = ins.paramsError ? null : nameParam(a, ins, start, false);
        a.slot(name ?? "", true, start);
        return { t: "slot", name: name ?? "", at: start, defaults: [] };
      }
      case "block": {
        const name = ins.paramsError ? null : nameParam(a, ins, start, true);
        if (name !== null) a.block(name, start);
        return { t: "block", name: name ?? "", at: start, body: [] };
      }
    }
  }

  open(kind: BlockKind, ins: ParsedInsert, start: number, end: number): void {
    if (this.tooDeep > 0) {
      this.tooDeep++; // text of the too-deep block's body
      return;
    }
    this.a.insert(ins.full, true);
    if (this.prog.depth() >= MAX_BLOCK_DEPTH) {
      this.a.warn(
        "repeat_too_deep",
        `blocks nest at most ${MAX_BLOCK_DEPTH} deep; this ${ins.full} prints nothing, and blocks inside it are not blocks`,
        start,
      );
      this.tooDeep = 1;
      const holder =
        kind === "repeat"
          ? repeatOp(this.a, { ...ins, params: null, paramsError: true }, start)
          : ({
              t: "if",
              valid: false,
              at: start,
              token: "",
              equals: null,
              not: false,
              then: [],
              else: [],
              inElse: false,
            } satisfies IfOp);
      this.prog.openBlock(holder, ins.full, start, end);
      return;
    }
    if (ins.paramsTooDeep) {
      this.a.warn(
        "insert_params_too_deep",
        `the parameters of ${ins.full} nest deeper than ${MAX_JSON_DEPTH} levels; the block prints nothing`,
        start,
      );
    } else if (ins.paramsError) {
      this.a.warn(
        "bad_insert_params",
        `the parameters of ${ins.full} are not a JSON object; the block prints nothing`,
        start,
      );
    }
    const holder = this.holderOf(kind, ins, start)!;
    this.prog.openBlock(holder, ins.full, start, end);
  }

  close(ins: ParsedInsert, start: number, end: number): void {
    if (this.tooDeep > 1) {
      this.tooDeep--; // closes a block that is text of the too-deep block's body
      return;
    }
    if (this.tooDeep === 1) {
      this.tooDeep = 0;
      this.prog.closeBlock(start, end);
      return;
    }
    if (this.prog.openName() !== ins.full) {
      const what =
        this.prog.openName() === ""
          ? `without an open ${ins.full}`
          : `while ${this.prog.openName()} is the innermost open block`;
      if (ins.full === "svc/repeat")
        this.a.warn("stray_repeat_close", `<!-- /svc/repeat --> ${what}; left as it is`, start);
      else this.a.warn("stray_block_close", `<!-- /${ins.full} --> ${what}; left as it is`, start, { name: ins.full });
      return;
    }
    this.prog.closeBlock(start, end);
  }

  /** `<!-- svc/else /-->`: the else-branch of the innermost svc/if. */
  elseBranch(ins: ParsedInsert, start: number, end: number): void {
    if (this.tooDeep > 0) return;
    this.a.insert(ins.full, true);
    if (this.prog.openName() !== "svc/if" || this.prog.level.elseAt) {
      this.a.warn(
        "stray_block_close",
        "<!-- svc/else /--> outside a svc/if (or a second one in it); it prints nothing",
        start,
        { name: "svc/else" },
      );
      this.prog.hole(start, end, null);
      return;
    }
    this.prog.elseBranch(start, end);
  }

  /** A block opened at `openStart` never closed: printed once, as written. */
  unclosed(openStart: number, name: string): void {
    if (name === "svc/repeat") this.a.dropList(openStart);
    if (name === "svc/repeat")
      this.a.warn(
        "unclosed_repeat",
        "svc/repeat has no <!-- /svc/repeat -->; the block is printed once, as written",
        openStart,
      );
    else
      this.a.warn(
        "unclosed_block",
        `${name} has no <!-- /${name} -->; the block is printed once, as written`,
        openStart,
        { name },
      );
  }
}

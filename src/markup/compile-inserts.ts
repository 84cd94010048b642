// Compiles insert comments (docs/markup.md, "Inserts") into the program: a self-closing
// insert becomes one hole; block pairs (`svc/repeat`, `svc/if`, `svc/slot`, `svc/block`) open and
// close nested operation lists (compile-blocks.ts). Also the analysis side of each: counts, unknown
// names (with the closest known one), bad parameters. The parameters of each known insert are
// checked in insert-ops.ts; this file decides what a comment's form and name mean.

import type { AnalysisBuilder } from "./analysis.ts";
import { KNOWN_INSERTS, REF_KEY_SET, REF_KEYS, type ParsedInsert } from "./insert-grammar.ts";
import { MAX_JSON_DEPTH } from "./json-scan.ts";
import { frameOp, imageOp, insertOp, langOp, menuOp, stylesOp } from "./insert-ops.ts";
import { paginationOp } from "./pagination-op.ts";
import { repeatOp } from "./repeat-op.ts";
import type { ProgramBuilder } from "./program-builder.ts";
import { pagerOp, sidebarOp, tocOp } from "./docs-ops.ts";
import { formOp } from "./form-op.ts";
import { searchOp } from "./search-op.ts";
import { BLOCK_KINDS, BlockCompiler, type BlockKind } from "./compile-blocks.ts";
import { closestName } from "./suggest.ts";

export { MAX_BLOCK_DEPTH } from "./compile-blocks.ts";

export class InsertCompiler {
  private readonly a: AnalysisBuilder;
  private readonly prog: ProgramBuilder;
  readonly blocks: BlockCompiler;
  /** `svc/layout`: the first one's references, in the order tried. */
  layout: { refs: string[]; at: number } | null = null;

  constructor(a: AnalysisBuilder, prog: ProgramBuilder) {
    this.a = a;
    this.prog = prog;
    this.blocks = new BlockCompiler(a, prog);
  }

  /** Compiles the insert comment html[start, end). */
  compile(ins: ParsedInsert, start: number, end: number): void {
    const kind = KNOWN_INSERTS.get(ins.full);
    if (ins.form === "close") {
      if (kind !== undefined && BLOCK_KINDS.has(kind)) this.blocks.close(ins, start, end);
      return; // `<!-- /svc/other -->` is an ordinary comment
    }
    if (ins.form === "open") {
      if (kind !== undefined && BLOCK_KINDS.has(kind)) {
        this.blocks.open(kind as BlockKind, ins, start, end);
      } else if (kind !== undefined) {
        this.a.warn(
          "insert_not_self_closing",
          `${ins.full} must end with "/-->"; this comment is left as it is`,
          start,
        );
      }
      return; // any other `<!-- svc/x ... -->` is an ordinary comment
    }
    if (kind === "else") {
      this.blocks.elseBranch(ins, start, end);
      return;
    }

    const a = this.a;
    const prog = this.prog;
    a.insert(ins.full, kind !== undefined);
    if (ins.paramsTooDeep) {
      a.warn(
        "insert_params_too_deep",
        `the parameters of ${ins.full} nest deeper than ${MAX_JSON_DEPTH} levels; it prints nothing`,
        start,
      );
    } else if (ins.paramsError) {
      a.warn("bad_insert_params", `the parameters of ${ins.full} are not a JSON object; it prints nothing`, start);
    }
    if (kind === undefined) {
      const suggestion = closestName(ins.full, KNOWN_INSERTS.keys());
      a.warn(
        "unknown_insert",
        `${ins.full} is not an insert; it prints nothing${suggestion ? ` (did you mean ${suggestion}?)` : ""}`,
        start,
        { name: ins.full, suggestion },
      );
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
        prog.hole(start, end, repeatOp(a, ins, start, !prog.insideRepeat()));
        return;
      case "frame":
      case "partial":
        prog.hole(start, end, frameOp(a, kind, ins, start));
        return;
      case "menu":
        prog.hole(start, end, menuOp(a, ins, start));
        return;
      case "lang":
        a.source("languages", start);
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
      case "form":
        prog.hole(start, end, formOp(a, ins, start));
        return;
      case "search":
        prog.hole(start, end, searchOp(a, ins, start));
        return;
      case "toc":
        prog.hole(start, end, tocOp(a, ins, start));
        return;
      case "slot": {
        // A slot without default content.
        const name = typeof ins.params?.name === "string" ? ins.params.name.trim() : "";
        a.slot(name, false, start);
        prog.hole(start, end, { t: "slot", name, at: start, defaults: [] });
        return;
      }
      case "layout":
        this.layoutInsert(ins, start, end);
        return;
      case "if":
      case "block":
        // Self-closed: an empty block.
        prog.hole(start, end, null);
        return;
      case "pagination":
        prog.hole(start, end, paginationOp(a, ins, start));
        return;
      case "seo":
        // The head tags of the page shown: its title, address, translations and SEO fields.
        a.source("seo", start);
        a.source("page", start);
        a.liveReason("insert svc/seo");
        prog.hole(start, end, insertOp("seo", ins, start));
        return;
    }
  }

  /** `svc/layout {"name": "<frame>"}`: the layout this frame is printed inside (the first one counts). */
  private layoutInsert(ins: ParsedInsert, start: number, end: number): void {
    const params = ins.params ?? {};
    const keys: Array<[string, string]> = [];
    for (const key of Object.keys(params)) {
      if (!REF_KEY_SET.has(key)) continue;
      const v = params[key];
      if (typeof v === "string") keys.push([key, v]);
      else if (typeof v === "number" && Number.isFinite(v)) keys.push([key, String(v)]);
    }
    const refs = REF_KEYS.flatMap((key) =>
      keys.filter((pair) => pair[0] === key && pair[1] !== "").map((pair) => pair[1]),
    );
    this.prog.hole(start, end, null);
    if (refs.length === 0) {
      this.a.warn("insert_param_missing", `${ins.full} needs "name" (the layout frame); it prints nothing`, start, {
        insert: ins.full,
        param: "name",
      });
      return;
    }
    if (this.layout !== null) {
      this.a.warn("insert_param_invalid", `a frame has one layout; this ${ins.full} is ignored`, start, {
        insert: ins.full,
      });
      return;
    }
    this.a.frameRefs.push({ insert: "svc/layout", at: start, keys });
    this.a.layout = refs[0]!;
    this.layout = { refs, at: start };
  }
}

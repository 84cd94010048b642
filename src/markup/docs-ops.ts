// The documentation inserts (docs/sidebars.md): `svc/sidebar {"name", "depth", "class"}`
// prints a sidebar's tree, `svc/pager {"name"}` the previous and next pages of its reading order,
// `svc/toc {"levels": [2, 3]}` the page's own headings. Each marks or reads the page shown, so the
// frame renders on request; the two sidebar ones read `sidebar.<name>`.
import { sourceText } from "./source-name.ts";
import type { AnalysisBuilder } from "./analysis.ts";
import type { ParsedInsert } from "./insert-grammar.ts";
import { insertOp, invalid, missing, toCount } from "./insert-ops.ts";
import type { InsertOp } from "./program.ts";

/** The default heading levels of svc/toc. */
export const TOC_LEVELS = [2, 3];

function nameOf(a: AnalysisBuilder, ins: ParsedInsert, op: InsertOp, at: number): boolean {
  const name = ins.params?.name;
  if (typeof name !== "string" || name.trim() === "") {
    missing(a, ins, "name", `"name" (a sidebar's name)`, at);
    op.kind = "invalid";
    return false;
  }
  op.name = name.trim();
  a.source(sourceText.sidebar(op.name), at);
  a.source("page", at);
  a.liveReason(`insert ${ins.full}`);
  return true;
}

/** svc/sidebar: `name` (required), `depth` (levels printed; 0 or absent: all), `class` of the nav. */
export function sidebarOp(a: AnalysisBuilder, ins: ParsedInsert, at: number): InsertOp {
  const params = ins.params ?? {};
  const op = insertOp("sidebar", ins, at);
  if (!nameOf(a, ins, op, at)) return op;
  if (params.depth !== undefined && params.depth !== null) {
    const depth = toCount(params.depth);
    if (depth === undefined) {
      invalid(a, ins, "depth", `"depth" must be a non-negative number`, at);
      op.kind = "invalid";
      return op;
    }
    op.depth = depth;
  }
  if (params.class !== undefined && params.class !== null) {
    if (typeof params.class !== "string") {
      invalid(a, ins, "class", `"class" must be a string`, at);
      op.kind = "invalid";
      return op;
    }
    op.cls = params.class;
  }
  return op;
}

/** svc/pager: `name` (required). */
export function pagerOp(a: AnalysisBuilder, ins: ParsedInsert, at: number): InsertOp {
  const op = insertOp("pager", ins, at);
  nameOf(a, ins, op, at);
  return op;
}

/** svc/toc: `levels`, heading levels 1 to 6 (default [2, 3]). */
export function tocOp(a: AnalysisBuilder, ins: ParsedInsert, at: number): InsertOp {
  const op = insertOp("toc", ins, at);
  const levels = ins.params?.levels;
  a.source("page", at);
  a.liveReason("insert svc/toc");
  if (levels === undefined || levels === null) {
    op.levels = TOC_LEVELS;
    return op;
  }
  if (!Array.isArray(levels) || levels.length === 0 || levels.some((l) => !Number.isInteger(l) || l < 1 || l > 6)) {
    invalid(a, ins, "levels", `"levels" must be a list of heading levels from 1 to 6`, at);
    op.kind = "invalid";
    return op;
  }
  op.levels = [...new Set(levels as number[])].sort((x, y) => x - y);
  return op;
}

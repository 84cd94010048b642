// svc/pagination (docs/markup.md, "Lists"): the previous, next and numbered links of the page's
// list. Optional strings: `label` (the nav's aria-label, default "Pagination"), `previous` and `next`
// (the links' texts, default "Previous" and "Next"), `class` of the nav (default `pagination`).
// Which page is shown depends on the address, so the frame renders on request.
import type { AnalysisBuilder } from "./analysis.ts";
import type { ParsedInsert } from "./insert-grammar.ts";
import { insertOp, invalid } from "./insert-ops.ts";
import type { InsertOp, PaginationLabels } from "./program.ts";

export const PAGINATION_DEFAULTS: PaginationLabels = { label: "Pagination", previous: "Previous", next: "Next" };

export function paginationOp(a: AnalysisBuilder, ins: ParsedInsert, at: number): InsertOp {
  const params = ins.params ?? {};
  const op = insertOp("pagination", ins, at);
  const labels = { ...PAGINATION_DEFAULTS };
  for (const key of ["label", "previous", "next", "class"] as const) {
    const value = params[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== "string") {
      invalid(a, ins, key, `"${key}" must be a string`, at);
      op.kind = "invalid";
      return op;
    }
    if (key === "class") op.cls = value;
    else labels[key] = value;
  }
  op.labels = labels;
  a.source("page", at);
  a.liveReason(`insert ${ins.full}`);
  return op;
}

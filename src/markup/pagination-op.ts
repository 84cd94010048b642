// svc/pagination (docs/markup.md, "Lists"): the previous, next and numbered links of the page's
// list. Optional strings: `label` (the nav's aria-label, default "Pagination"), `previous` and `next`
// (the links' texts, default "Previous" and "Next"), `class` of the nav (default `pagination`).
// Which page is shown depends on the address, so the frame renders on request.
import type { AnalysisBuilder } from "./analysis.ts";
import type { ParsedInsert } from "./insert-grammar.ts";
import { insertOp, textParams } from "./insert-ops.ts";
import type { InsertOp, PaginationLabels } from "./program.ts";

export const PAGINATION_DEFAULTS: PaginationLabels = { label: "Pagination", previous: "Previous", next: "Next" };

export function paginationOp(a: AnalysisBuilder, ins: ParsedInsert, at: number): InsertOp {
  const op = insertOp("pagination", ins, at);
  const texts = textParams(a, ins, ["label", "previous", "next", "class"], at);
  if (texts === null) {
    op.kind = "invalid";
    return op;
  }
  const { class: cls, ...labels } = texts;
  if (cls !== undefined) op.cls = cls;
  op.labels = { ...PAGINATION_DEFAULTS, ...labels };
  a.source("page", at);
  a.liveReason(`insert ${ins.full}`);
  return op;
}

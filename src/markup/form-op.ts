// `svc/form {"name": "contact"}` (docs/forms.md): prints the site's form by that name (forms/);
// it reads `form.<name>` and the submit button's text, `t.form.submit`. Nothing in it depends on
// the page shown (the time token is filled by each answer), so a page printing it keeps a
// static copy like any other.
import { sourceText } from "./source-name.ts";
import type { AnalysisBuilder } from "./analysis.ts";
import type { ParsedInsert } from "./insert-grammar.ts";
import { insertOp, missing } from "./insert-ops.ts";
import type { InsertOp } from "./program.ts";

/** The string key of the submit button's text. */
export const SUBMIT_KEY = "form.submit";

export function formOp(a: AnalysisBuilder, ins: ParsedInsert, at: number): InsertOp {
  const op = insertOp("form", ins, at);
  const name = ins.params?.name;
  if (typeof name !== "string" || name.trim() === "") {
    missing(a, ins, "name", `"name" (a form's name)`, at);
    op.kind = "invalid";
    return op;
  }
  op.name = name.trim();
  a.source(sourceText.form(op.name), at);
  a.source(sourceText.text(SUBMIT_KEY), at);
  return op;
}

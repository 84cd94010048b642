// `svc/search` (docs/search.md): prints the site's search form, and on an answer to `?q=` the
// results (search-html.ts). It takes no parameters; it reads the strings `t.search.*`, so a change
// of one publishes the pages printing it again.
import { sourceText } from "./source-name.ts";
import type { AnalysisBuilder } from "./analysis.ts";
import type { ParsedInsert } from "./insert-grammar.ts";
import { insertOp } from "./insert-ops.ts";
import type { InsertOp } from "./program.ts";
import { SEARCH_STRINGS } from "./search-html.ts";

export function searchOp(a: AnalysisBuilder, ins: ParsedInsert, at: number): InsertOp {
  for (const key of Object.keys(SEARCH_STRINGS)) a.source(sourceText.text(key), at);
  return insertOp("search", ins, at);
}

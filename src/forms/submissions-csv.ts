// A form's submissions as CSV for spreadsheets (docs/forms.md, "Submissions as CSV"): RFC 4180 with
// CRLF line ends, a header row `id, created_at, page, lang`, the form's fields by name in their
// declared order, then `user_agent`. UTF-8 with a byte order mark, which Excel needs to read it as
// UTF-8. A visitor's text is data, never a formula: a cell starting with `=`, `+`, `-`, `@`, a tab
// or a carriage return is prefixed with `'` (csv-stringify's `escape_formulas`, as OWASP's "CSV
// injection" advises), which spreadsheets show as the text typed.
import { stringify } from "csv-stringify/sync";
import type { Submission } from "./submissions-queries.ts";

const BEFORE = ["id", "created_at", "page", "lang"];
const AFTER = ["user_agent"];

const OPTIONS = { record_delimiter: "windows", escape_formulas: true, quoted_match: /[\r\n]/ } as const;

/** The header row, with the byte order mark: the start of the document. */
export function csvHeader(fieldNames: readonly string[]): string {
  return `\uFEFF${stringify([[...BEFORE, ...fieldNames, ...AFTER]], OPTIONS)}`;
}

/** One row per submission; a field not sent is an empty cell, a field not declared is left out. */
export function csvRows(fieldNames: readonly string[], submissions: readonly Submission[]): string {
  return stringify(
    submissions.map((one) => [
      String(one.id),
      one.created_at,
      one.page?.path ?? (one.page ? String(one.page.id) : ""),
      one.lang ?? "",
      ...fieldNames.map((name) => one.fields[name] ?? ""),
      one.user_agent,
    ]),
    OPTIONS,
  );
}

// Redirects as CSV (docs/seo.md, "Redirects as CSV"): what GET /seo/redirects answers to
// `Accept: text/csv`, and what POST /seo/redirects reads from a `text/csv` body. RFC 4180: a header
// row `from,to,status`, then one row per redirect, CRLF line ends, a field quoted when it holds a
// comma, a quote or a line end. Written and read by csv-stringify and csv-parse, never by hand.
import { CsvError, parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { fail } from "../errors.ts";

const COLUMNS = ["from", "to", "status"] as const;

/** One redirect as a CSV row holds it. */
export interface CsvRedirect {
  from: string;
  to: string;
  status: number;
}

/** The redirects as a CSV document: the header row, then one row each, in order. */
export function redirectsCsv(redirects: readonly CsvRedirect[]): string {
  return stringify(
    redirects.map(({ from, to, status }) => [from, to, String(status)]),
    // A lone CR or LF is quoted too (csv-stringify quotes the record delimiter only), as RFC 4180 has it.
    { header: true, columns: [...COLUMNS], record_delimiter: "windows", quoted_match: /[\r\n]/ },
  );
}

/** `status` as read: empty for the default, a number when it is digits, else the text (which POST refuses by name). */
function statusOf(text: string | undefined): number | string | undefined {
  if (text === undefined || text === "") return undefined;
  return /^\d{1,9}$/.test(text) ? Number(text) : text;
}

/**
 * A CSV document as the list POST /seo/redirects takes. The first row names the columns: `from` and
 * `to` are required, `status` may be left out (or left empty: 301), others are ignored; names are
 * read trimmed and in any case. A UTF-8 byte order mark is skipped, empty lines too.
 * 400 invalid_csv (`line`, `reason`) when the text is not CSV or its header lacks a column.
 */
export function redirectsFromCsv(text: string): Array<{ from: string; to: string; status?: number | string }> {
  let rows: Array<Record<string, string>>;
  let header: string[] = [];
  try {
    rows = parse(text, {
      bom: true,
      skip_empty_lines: true,
      trim: true,
      columns: (names: string[]) => {
        header = names.map((name) => name.trim().toLowerCase());
        return header;
      },
    });
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const line = (error as CsvError & { lines?: number }).lines;
    throw fail("invalid_csv", { line, reason: error.code }, `The CSV body cannot be read: ${error.message}`);
  }
  const missing = ["from", "to"].filter((name) => !header.includes(name));
  if (missing.length > 0)
    throw fail(
      "invalid_csv",
      { line: 1, reason: "missing_columns", missing, expected: [...COLUMNS] },
      `The first row names the columns: ${COLUMNS.join(",")} (status may be left out); ${missing.join(" and ")} missing.`,
    );
  return rows.map((row) => {
    const status = statusOf(row.status);
    return { from: row.from ?? "", to: row.to ?? "", ...(status === undefined ? {} : { status }) };
  });
}

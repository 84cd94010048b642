// What a stored row weighs against its quota. `stored_bytes`: the UTF-8 bytes of frame markup, of a
// page's title, content, fields and tags (the stored JSON texts), of a data set's items as JSON, of a
// revision's content, fields and summary, and of a trash entry's name and what a restore needs
// (`extra_json`). `published_bytes`: a static copy's or a frame bake's `bytes` (its HTML), and a
// stylesheet bundle's (its CSS and brotli and gzip forms, styles/copies.ts).
// Each weight is given twice, for a row at hand (JS) and summed by the database (SQL), and the
// two must agree: the counters are moved with the first and recounted with the second.
import { sql, type RawBuilder } from "kysely";
import { isPostgres, type Db } from "../store/database.ts";

export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** The page columns a page's weight counts. */
export const PAGE_TEXTS = ["title", "content", "fields_json", "tags_json"] as const;

/** A page's weight: its title, content, fields and tags as stored. */
export function pageBytes(page: Record<(typeof PAGE_TEXTS)[number], string>): number {
  return PAGE_TEXTS.reduce((sum, column) => sum + utf8Bytes(page[column]), 0);
}

/** A page row's weight, by the database. */
export function pageBytesSql(db: Db): RawBuilder<number> {
  return textsBytes(db, PAGE_TEXTS);
}

/** The UTF-8 byte length of a text column, computed by the database (no text is read out). */
export function textBytes(db: Db, column: string): RawBuilder<number> {
  return isPostgres(db)
    ? sql<number>`octet_length(${sql.ref(column)})`
    : sql<number>`length(cast(${sql.ref(column)} as blob))`;
}

/** The sum of several text columns' byte lengths, by the database. */
function textsBytes(db: Db, columns: readonly string[]): RawBuilder<number> {
  return sql<number>`(${sql.join(
    columns.map((column) => textBytes(db, column)),
    sql` + `,
  )})`;
}

const REVISION_TEXTS = ["content", "fields_json", "summary_json"] as const;
const TRASH_TEXTS = ["slug", "extra_json"] as const;

/** A revision's weight: its content, its fields as stored and its summary. */
export function revisionBytes(row: Record<(typeof REVISION_TEXTS)[number], string>): number {
  return REVISION_TEXTS.reduce((sum, column) => sum + utf8Bytes(row[column]), 0);
}

/** A revision row's weight, by the database (`prefix`: the table's alias, e.g. "r."). */
export function revisionBytesSql(db: Db, prefix = ""): RawBuilder<number> {
  return textsBytes(
    db,
    REVISION_TEXTS.map((column) => `${prefix}${column}`),
  );
}

/** A trash entry's weight: the name it was deleted under and what its restore needs besides its last revision. */
export function trashBytes(row: Record<(typeof TRASH_TEXTS)[number], string>): number {
  return TRASH_TEXTS.reduce((sum, column) => sum + utf8Bytes(row[column]), 0);
}

export function trashBytesSql(db: Db, prefix = ""): RawBuilder<number> {
  return textsBytes(
    db,
    TRASH_TEXTS.map((column) => `${prefix}${column}`),
  );
}

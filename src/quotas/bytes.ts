// What a stored row weighs against `stored_bytes`: the UTF-8 bytes of frame markup, of a page's
// title, content and fields (the stored JSON text), and of a data set's items as JSON.
import { sql, type RawBuilder } from "kysely";
import { isPostgres, type Db } from "../store/database.ts";

export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** A page's weight: its title, content and fields as stored. */
export function pageBytes(page: { title: string; content: string; fields_json: string }): number {
  return utf8Bytes(page.title) + utf8Bytes(page.content) + utf8Bytes(page.fields_json);
}

/** The UTF-8 byte length of a text column, computed by the database (no text is read out). */
export function textBytes(db: Db, column: string): RawBuilder<number> {
  return isPostgres(db) ? sql<number>`octet_length(${sql.ref(column)})` : sql<number>`length(cast(${sql.ref(column)} as blob))`;
}

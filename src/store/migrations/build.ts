// What a migration is, and what differs between the dialects: an auto-increment id, a byte length.
import { sql, type ColumnDefinitionBuilder, type Kysely, type RawBuilder } from "kysely";
import type { Dialect } from "../database.ts";

export type Build = (db: Kysely<any>, dialect: Dialect) => Promise<void>;

/** `integer primary key autoincrement` on SQLite, `serial primary key` on PostgreSQL. */
export function idColumn(dialect: Dialect): {
  type: "serial" | "integer";
  build: (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
} {
  return dialect === "postgres"
    ? { type: "serial", build: (c) => c.primaryKey() }
    : { type: "integer", build: (c) => c.primaryKey().autoIncrement() };
}

/**
 * The byte length of a column, text (as UTF-8) or bytes: `octet_length` on PostgreSQL, the length
 * of the value cast to a blob on SQLite (whose `length` of a text counts characters).
 */
export function byteLength(dialect: Dialect, column: string): RawBuilder<number> {
  return dialect === "postgres"
    ? sql<number>`octet_length(${sql.ref(column)})`
    : sql<number>`length(cast(${sql.ref(column)} as blob))`;
}

// What a migration is, and the one dialect-specific column: an auto-increment id.
import type { ColumnDefinitionBuilder, Kysely } from "kysely";
import type { Dialect } from "../database.ts";

export type Build = (db: Kysely<any>, dialect: Dialect) => Promise<void>;

/** `integer primary key autoincrement` on SQLite, `serial primary key` on PostgreSQL. */
export function idColumn(dialect: Dialect): { type: "serial" | "integer"; build: (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder } {
  return dialect === "postgres"
    ? { type: "serial", build: (c) => c.primaryKey() }
    : { type: "integer", build: (c) => c.primaryKey().autoIncrement() };
}

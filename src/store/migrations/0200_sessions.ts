// Sign-in sessions of the admin (docs/security.md, "Sessions"): a cookie holds a random secret, and
// only its SHA-256 is stored (as for API tokens). A session ends when it has been idle for 12
// hours, is 7 days old, is signed out, or its user's password changes; with its user it goes.
import type { Build } from "./build.ts";
import { idColumn } from "./build.ts";

export const up: Build = async (db, dialect) => {
  await db.schema
    .createTable("sessions")
    .addColumn("id", idColumn(dialect).type, idColumn(dialect).build)
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("hash", "text", (c) => c.notNull().unique())
    .addColumn("created_at_gmt", "text", (c) => c.notNull())
    .addColumn("seen_at_gmt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sessions_user").on("sessions").column("user_id").execute();
};

// Sites, users, memberships and tokens.
import type { Build } from "./build.ts";
import { idColumn } from "./build.ts";

export const up: Build = async (db, dialect) => {
  await db.schema
    .createTable("sites")
    .addColumn("id", idColumn(dialect).type, idColumn(dialect).build)
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("domain", "text", (c) => c.notNull().unique())
    .addColumn("created_at_gmt", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("users")
    .addColumn("id", idColumn(dialect).type, idColumn(dialect).build)
    .addColumn("login", "text", (c) => c.notNull().unique())
    .addColumn("email", "text")
    .addColumn("password_hash", "text")
    .addColumn("super_admin", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at_gmt", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("memberships")
    .addColumn("site_id", "integer", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("role", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("memberships_pk", ["site_id", "user_id"])
    .execute();

  await db.schema
    .createTable("tokens")
    .addColumn("id", idColumn(dialect).type, idColumn(dialect).build)
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("label", "text")
    .addColumn("hash", "text", (c) => c.notNull().unique())
    .addColumn("created_at_gmt", "text", (c) => c.notNull())
    .addColumn("last_issued_at_gmt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("tokens_user").on("tokens").column("user_id").execute();
};

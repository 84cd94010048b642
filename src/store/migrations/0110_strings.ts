// Strings per language (docs/markup.md): the texts frames print with `t.<key>`, one row per site,
// language and key ('' is the language of a site without languages).
import type { Build } from "./build.ts";

export const up: Build = async (db) => {
  await db.schema
    .createTable("strings")
    .addColumn("site_id", "integer", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("lang", "text", (c) => c.notNull())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("text", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("strings_pk", ["site_id", "lang", "key"])
    .execute();
};

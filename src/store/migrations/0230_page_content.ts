// What pages gain to be written as posts are (docs/content-model.md): `content_format` (`html`, as
// every page before, or `markdown`: the source is kept, its HTML made when it is printed),
// `date_gmt` (the publication date: set by the writer, else the first publication; a `future`
// page is published at it; pages published before it existed take their creation time) and
// `tags_json` (a list of texts). The index finds the pages whose
// scheduled time has come.
import { sql } from "kysely";
import type { Build } from "./build.ts";

export const up: Build = async (db) => {
  await db.schema
    .alterTable("pages")
    .addColumn("content_format", "text", (c) => c.notNull().defaultTo("html"))
    .execute();
  await db.schema.alterTable("pages").addColumn("date_gmt", "text").execute();
  await db.schema
    .alterTable("pages")
    .addColumn("tags_json", "text", (c) => c.notNull().defaultTo("[]"))
    .execute();
  // Pages published before dates existed were published when they were made, as far as is known.
  await sql`update pages set date_gmt = created_at_gmt where status = 'publish'`.execute(db);
  await db.schema.createIndex("pages_scheduled").on("pages").columns(["status", "date_gmt"]).execute();
};

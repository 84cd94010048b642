// Stylesheet bundles count against `published_bytes` (docs/security.md, "Quotas"): every copy kept in
// `style_copies` (the current one of each stylesheet and those replaced in the last 24 hours)
// weighs its CSS and its brotli and gzip forms, now kept in its `bytes` column (written by
// styles/copies.ts as it stores a copy). The copies that exist get their weight here, and each
// site's counter their sum, once; from then on styles/ moves it in the transaction that stores or
// drops a copy. A site holding copies without a usage row (no write of it moved a counter) gets
// one, at zero but for them.
// `style_copies_replaced` lets a stylesheet write find the site's expired copies (which it drops,
// freeing their bytes) without reading its other copies.
import { sql } from "kysely";
import { byteLength, type Build } from "./build.ts";

export const up: Build = async (db, dialect) => {
  await db.schema
    .alterTable("style_copies")
    .addColumn("bytes", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex("style_copies_replaced")
    .on("style_copies")
    .columns(["site_id", "replaced_at_gmt"])
    .execute();
  await sql`update style_copies set bytes = ${byteLength(dialect, "css")} + ${byteLength(dialect, "br")} + ${byteLength(dialect, "gzip")}`.execute(
    db,
  );
  await sql`
    insert into site_usage (site_id)
    select distinct c.site_id from style_copies c
    where not exists (select 1 from site_usage u where u.site_id = c.site_id)
  `.execute(db);
  await sql`
    update site_usage set published_bytes = published_bytes
      + (select coalesce(sum(c.bytes), 0) from style_copies c where c.site_id = site_usage.site_id)
  `.execute(db);
};

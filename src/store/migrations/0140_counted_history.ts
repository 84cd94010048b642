// Every byte a site causes is counted (docs/security.md, "Quotas"). `stored_bytes` now counts
// revisions and the trash besides the live content, and `published_bytes` (a new counter) the
// static copies and frame bakes the publish engine keeps. The sites that exist now get them counted
// here, once, from what they hold; from then on revisions/ and publish/ move them in each write's
// transaction (src/quotas/usage.ts). A site holding revisions but no usage row (its only writes
// were of menus or sidebars, which no quota counted) gets its row here.
// `revisions_site_order` lets a write at its quota find a site's oldest revisions without reading
// other sites' (revisions/reclaim.ts).
// Portable SQL; only the byte length of a text differs: octet_length on PostgreSQL, the length of
// the text cast to a blob on SQLite (UTF-8 bytes in both), as in 0050_quotas.
import { sql, type RawBuilder } from "kysely";
import type { Build } from "./build.ts";

export const up: Build = async (db, dialect) => {
  await db.schema
    .alterTable("site_usage")
    .addColumn("published_bytes", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("revisions_site_order").on("revisions").columns(["site_id", "id"]).execute();

  const bytes = (...columns: string[]): RawBuilder<number> =>
    sql`(${sql.join(
      columns.map((column) =>
        dialect === "postgres" ? sql`octet_length(${sql.ref(column)})` : sql`length(cast(${sql.ref(column)} as blob))`,
      ),
      sql` + `,
    )})`;
  await sql`
    insert into site_usage (site_id, pages, frames, data_items, stored_bytes)
    select s.id, 0, 0, 0, 0 from sites s
    where not exists (select 1 from site_usage u where u.site_id = s.id)
      and (exists (select 1 from revisions r where r.site_id = s.id) or exists (select 1 from trash t where t.site_id = s.id)
        or exists (select 1 from static_copies c where c.site_id = s.id) or exists (select 1 from frame_bakes b where b.site_id = s.id))
  `.execute(db);
  await sql`
    update site_usage set
      stored_bytes = stored_bytes
        + (select coalesce(sum(${bytes("r.content", "r.fields_json", "r.summary_json")}), 0) from revisions r where r.site_id = site_usage.site_id)
        + (select coalesce(sum(${bytes("t.slug", "t.extra_json")}), 0) from trash t where t.site_id = site_usage.site_id),
      published_bytes = (select coalesce(sum(c.bytes), 0) from static_copies c where c.site_id = site_usage.site_id)
        + (select coalesce(sum(b.bytes), 0) from frame_bakes b where b.site_id = site_usage.site_id)
  `.execute(db);
};

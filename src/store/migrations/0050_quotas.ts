// Per-site quotas (docs/security.md, "Quotas"): `site_quotas` holds the limits a
// super-administrator set (one row per site and quota; a quota without a row has its default,
// src/quotas/catalogue.ts), and `site_usage` one row of running counters per site, kept by every
// write in its own transaction (src/quotas/usage.ts), so checking a quota costs one row, never a
// count of the site.
// The counters of the sites that exist now are counted here, once, from what they hold; a site
// made later starts at zero (its row is made by its first counted write).
// Portable SQL; only the byte length of a text differs: octet_length on PostgreSQL, the length of
// the text cast to a blob on SQLite (UTF-8 bytes in both).
import { sql, type RawBuilder } from "kysely";
import type { Build } from "./build.ts";

export const up: Build = async (db, dialect) => {
  await db.schema
    .createTable("site_quotas")
    .addColumn("site_id", "integer", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    /** pages, frames, data_items or stored_bytes (media_bytes once media exist). */
    .addColumn("quota", "text", (c) => c.notNull())
    .addColumn("value", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("site_quotas_pk", ["site_id", "quota"])
    .execute();

  await db.schema
    .createTable("site_usage")
    .addColumn("site_id", "integer", (c) => c.primaryKey().references("sites.id").onDelete("cascade"))
    .addColumn("pages", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("frames", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("data_items", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("stored_bytes", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();

  const bytes = (column: string): RawBuilder<number> =>
    dialect === "postgres" ? sql`octet_length(${sql.ref(column)})` : sql`length(cast(${sql.ref(column)} as blob))`;
  await sql`
    insert into site_usage (site_id, pages, frames, data_items, stored_bytes)
    select s.id,
      (select count(*) from pages p where p.site_id = s.id),
      (select count(*) from frames f where f.site_id = s.id),
      (select coalesce(sum(d.total), 0) from datasets d where d.site_id = s.id),
      (select coalesce(sum(${bytes("f.html")}), 0) from frames f where f.site_id = s.id)
        + (select coalesce(sum(${bytes("p.title")} + ${bytes("p.content")} + ${bytes("p.fields_json")}), 0) from pages p where p.site_id = s.id)
        + (select coalesce(sum(${bytes("d.items_json")}), 0) from datasets d where d.site_id = s.id)
    from sites s
  `.execute(db);
};

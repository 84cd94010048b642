// Domains of a site (docs/domains.md): every domain of every site, its primary one and its aliases,
// one row each, stored normalised (lower case, IDN as punycode: network/domain-name.ts), so the
// primary key makes a domain belong to at most one site whatever its case. `sites.domain` stays
// the primary domain, written in the same transaction as its row here (network/ owns both); at
// most one primary row per site (a partial unique index, portable to both dialects). Existing
// sites get their primary row from `sites.domain`.
import { sql } from "kysely";
import type { Build } from "./build.ts";

export const up: Build = async (db) => {
  await db.schema
    .createTable("site_domains")
    .addColumn("domain", "text", (c) => c.primaryKey())
    .addColumn("site_id", "integer", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("is_primary", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("site_domains_site").on("site_domains").column("site_id").execute();
  await sql`create unique index site_domains_one_primary on site_domains (site_id) where is_primary = 1`.execute(db);
  await sql`insert into site_domains (domain, site_id, is_primary) select lower(domain), id, 1 from sites`.execute(db);
};

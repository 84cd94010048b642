import type { Db } from "../store/database.ts";
import type { Selectable } from "kysely";
import type { SitesTable } from "../store/schema.ts";

export type SiteRow = Selectable<SitesTable>;

export const MAIN_SITE_ID = 1;

export function siteById(db: Db, id: number): Promise<SiteRow | undefined> {
  return db.selectFrom("sites").selectAll().where("id", "=", id).executeTakeFirst();
}

export function siteByDomain(db: Db, domain: string): Promise<SiteRow | undefined> {
  return db.selectFrom("sites").selectAll().where("domain", "=", domain).executeTakeFirst();
}

/** The site a domain is an alias of (docs/domains.md), or undefined; `domain` as stored (normalised). */
export function siteByAlias(db: Db, domain: string): Promise<SiteRow | undefined> {
  return db
    .selectFrom("site_domains")
    .innerJoin("sites", "sites.id", "site_domains.site_id")
    .selectAll("sites")
    .where("site_domains.domain", "=", domain)
    .where("site_domains.is_primary", "=", 0)
    .executeTakeFirst();
}

export interface SiteDomain {
  domain: string;
  primary: boolean;
  /** As stored (docs/domains.md, "Schemes"): true https, false plain HTTP, null as SVC_PUBLIC_SCHEME says. */
  https: boolean | null;
}

const httpsOf = (stored: number | null): boolean | null => (stored === null ? null : stored === 1);

/** Every domain of a site: its primary one (`sites.domain`) first, then its aliases by name. */
export async function domainsOf(db: Db, site: SiteRow): Promise<SiteDomain[]> {
  const aliases = await db
    .selectFrom("site_domains")
    .select(["domain", "https"])
    .where("site_id", "=", site.id)
    .where("is_primary", "=", 0)
    .execute();
  // Sorted here, by code units: PostgreSQL's collation may order `-` and `.` otherwise.
  aliases.sort((a, b) => (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0));
  return [
    { domain: site.domain, primary: true, https: httpsOf(site.https) },
    ...aliases.map((row) => ({ domain: row.domain, primary: false, https: httpsOf(row.https) })),
  ];
}

/** Which site holds a domain, as primary or alias, or undefined. */
export async function domainHolder(db: Db, domain: string): Promise<{ siteId: number; primary: boolean } | undefined> {
  const primary = await db.selectFrom("sites").select("id").where("domain", "=", domain).executeTakeFirst();
  if (primary) return { siteId: primary.id, primary: true };
  const row = await db
    .selectFrom("site_domains")
    .select(["site_id", "is_primary"])
    .where("domain", "=", domain)
    .executeTakeFirst();
  return row ? { siteId: row.site_id, primary: row.is_primary === 1 } : undefined;
}

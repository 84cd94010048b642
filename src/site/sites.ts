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

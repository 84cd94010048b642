// Host → site for public requests, held in memory so a cached page needs no database read.
// Site writes (create, re-domain, delete) clear it; an unknown host gets the main site.
import type { Db } from "../store/database.ts";
import { MAIN_SITE_ID, siteByDomain, siteById, type SiteRow } from "../network/sites-queries.ts";

export class SiteDirectory {
  private readonly byHost = new Map<string, SiteRow>();

  constructor(private readonly db: Db) {}

  async resolve(host: string): Promise<SiteRow | undefined> {
    const known = this.byHost.get(host);
    if (known) return known;
    const site = (await siteByDomain(this.db, host)) ?? (await siteById(this.db, MAIN_SITE_ID));
    if (site && this.byHost.size < 10_000) this.byHost.set(host, site);
    return site;
  }

  /** The site a host maps to without touching the database, when known. */
  peek(host: string): SiteRow | undefined {
    return this.byHost.get(host);
  }

  clear(): void {
    this.byHost.clear();
  }
}

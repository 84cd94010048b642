// Host → site for public requests, held in memory so a cached page needs no database read.
// Site writes (create, re-domain, delete) clear it; an unknown host gets the main site.
// A clear is reported to a listener (invalidation.ts tells the other service processes);
// `applyClear` is another process's clear, applied here without being reported again.
import type { Db } from "../store/database.ts";
import { MAIN_SITE_ID, siteByDomain, siteById, type SiteRow } from "../site/sites.ts";

export class SiteDirectory {
  private readonly byHost = new Map<string, SiteRow>();
  private listener: (() => void) | null = null;
  /** Ticks on every clear: a lookup that started before a clear does not store its answer. */
  private generation = 0;

  constructor(private readonly db: Db) {}

  async resolve(host: string): Promise<SiteRow | undefined> {
    const known = this.byHost.get(host);
    if (known) return known;
    const generation = this.generation;
    const site = (await siteByDomain(this.db, host)) ?? (await siteById(this.db, MAIN_SITE_ID));
    if (site && this.byHost.size < 10_000 && generation === this.generation) this.byHost.set(host, site);
    return site;
  }

  /** The site a host maps to without touching the database, when known. */
  peek(host: string): SiteRow | undefined {
    return this.byHost.get(host);
  }

  /** Reports every local clear (not the applied ones) to `listener`. */
  onClear(listener: (() => void) | null): void {
    this.listener = listener;
  }

  clear(): void {
    this.applyClear();
    this.listener?.();
  }

  /** A clear made by another process. */
  applyClear(): void {
    this.generation++;
    this.byHost.clear();
  }
}

// Host → site for public requests, held in memory so a cached page needs no database read.
// An unknown host gets the main site. A host that is an alias of a site (docs/domains.md) maps to
// that site and is marked as one: the public site answers it 301 to the site's primary domain
// (`primaryOf`), from memory too.
//
// A site write (create, re-domain, delete) makes stale only what names that site: the hosts that
// map to it (its old domain), and the hosts that matched no domain and were given the main site
// (its new domain may be one of them). `forgetSite` drops just those, so creating or changing one
// site never makes another site's next request look its host up again. An alias added
// or removed is such a site write: the alias matched no site before, or maps to the site. `clear()`
// drops everything. Each is reported to a listener (invalidation.ts tells the other service
// processes); `applyForget`/`applyClear` are another process's, applied without being reported.
//
// A reserved host (the admin's, SVC_ADMIN_HOST: docs/admin.md) is no site's, whatever the sites
// table holds: it matches none and never gets the main site, so no page, file or preview of a
// site is answered there, from memory or otherwise.
import type { Db } from "../store/database.ts";
import { MAIN_SITE_ID, siteByAlias, siteByDomain, siteById, type SiteRow } from "../site/sites.ts";

/** Told of each local change: the site whose hosts were forgotten, or null for a clear of every host. */
export type DirectoryListener = (siteId: number | null) => void;

const MAX_HOSTS = 10_000;

export class SiteDirectory {
  private readonly byHost = new Map<string, SiteRow>();
  /** Hosts that matched no site's domain (given the main site). */
  private readonly unmatched = new Set<string>();
  /** Hosts that are an alias of the site they map to. */
  private readonly aliases = new Set<string>();
  private listener: DirectoryListener | null = null;
  /** Ticks on every clear or forget: a lookup that started before one does not store its answer. */
  private generation = 0;

  constructor(
    private readonly db: Db,
    /** Hosts that are no site's (the admin's): `match` answers undefined for them. */
    private readonly reserved: ReadonlySet<string> = new Set(),
  ) {}

  async resolve(host: string): Promise<SiteRow | undefined> {
    return (await this.match(host))?.site;
  }

  /** The host's site, and whether the host is an alias of it (answered 301 to `site.domain`). */
  async match(host: string): Promise<{ site: SiteRow; alias: boolean } | undefined> {
    const known = this.byHost.get(host);
    if (known) return { site: known, alias: this.aliases.has(host) };
    if (this.reserved.has(host)) return undefined;
    const generation = this.generation;
    const primary = await siteByDomain(this.db, host);
    const aliasOf = primary ? undefined : await siteByAlias(this.db, host);
    const matched = primary ?? aliasOf;
    const site = matched ?? (await siteById(this.db, MAIN_SITE_ID));
    if (!site) return undefined;
    if (this.byHost.size < MAX_HOSTS && generation === this.generation) {
      this.byHost.set(host, site);
      if (!matched) this.unmatched.add(host);
      if (aliasOf) this.aliases.add(host);
    }
    return { site, alias: aliasOf !== undefined };
  }

  /** The site a known host is an alias of (its row names the primary domain), without touching the database. */
  primaryOf(host: string): SiteRow | undefined {
    return this.aliases.has(host) ? this.byHost.get(host) : undefined;
  }

  /** The site a host maps to without touching the database, when known. */
  peek(host: string): SiteRow | undefined {
    return this.byHost.get(host);
  }

  /** Reports every local clear or forget (not the applied ones) to `listener`. */
  onClear(listener: DirectoryListener | null): void {
    this.listener = listener;
  }

  /** A site was created, given a new domain or deleted: forgets what that makes stale, and nothing else. */
  forgetSite(siteId: number): void {
    this.applyForget(siteId);
    this.listener?.(siteId);
  }

  /** Every host: `clear(siteId)` is `forgetSite(siteId)`. */
  clear(siteId?: number): void {
    if (siteId !== undefined) {
      this.forgetSite(siteId);
      return;
    }
    this.applyClear();
    this.listener?.(null);
  }

  /** Another process's `forgetSite`. */
  applyForget(siteId: number): void {
    this.generation++;
    for (const [host, site] of this.byHost) {
      if (site.id === siteId || this.unmatched.has(host)) {
        this.byHost.delete(host);
        this.unmatched.delete(host);
        this.aliases.delete(host);
      }
    }
  }

  /** Another process's `clear()`. */
  applyClear(): void {
    this.generation++;
    this.byHost.clear();
    this.unmatched.clear();
    this.aliases.clear();
  }

  /** How many hosts are known (for tests and diagnostics). */
  get size(): number {
    return this.byHost.size;
  }
}

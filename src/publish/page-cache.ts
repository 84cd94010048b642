// Rendered public pages held in memory, per site and address, ready to send as they are.
// Static copies are loaded here from the database on first request; on-request renders are
// kept here until a write that affects them flushes them. Bounded by total bytes (64 MiB), shared
// fairly between sites (docs/security.md, "Fair cache shares"): any site may use free room, and once
// the cache is full the site holding the most bytes gives way, its least recently used page first.
// That site holds more than budget / (sites holding pages), the fair share; so a site within its
// fair share never loses a page to another site's traffic, however much that site requests.
// Reads are two Map lookups (site, then address); only a put that must make room looks further.
//
// Every flush is also reported to a listener (invalidation.ts tells the other service
// processes on the same PostgreSQL database); `apply` is the same flush coming from another
// process, applied here without being reported again. A reader that loads a page from the
// database takes a `ticket()` first and hands it to `put`: an entry whose site was flushed
// after the ticket was taken is answered but not kept, since it may hold what the flush
// replaced.
import { createHash } from "node:crypto";

export type Printed = "static" | "on_request";

export interface CachedPage {
  siteId: number;
  address: string;
  /** The page whose change drops it (SITEMAP_PAGE_ID for sitemaps; 0 for none). */
  pageId: number;
  body: Buffer;
  etag: string;
  printed: Printed;
  /** Answers other than a page (a redirect, a 404 page, sitemap.xml, robots.txt); a page has none. */
  answer?: CachedAnswer;
  /** Kept until this moment (`Date.now()`) only: a short negative answer (a render that failed). */
  expires?: number;
}

/** How a cached answer that is not a page is sent: its status and headers (a redirect's Location). */
export interface CachedAnswer {
  status: number;
  headers: Readonly<Record<string, string>>;
}

export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * The page id the site's sitemap answers are kept under (they list every page): the publish step
 * flushes them with this id whenever pages, languages or SEO settings change.
 */
export const SITEMAP_PAGE_ID = -1;

/**
 * The cache key of a site's own 404 page in one language (`not_found_page`, docs/seo.md): not an
 * address (every address starts with `/`), so no request reaches it but through a miss.
 */
export function notFoundKey(lang: string | null): string {
  return `404:${lang ?? ""}`;
}

export function etagOf(body: Buffer | string): string {
  return `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
}

/** One flush, as told to other processes: addresses or pages of a site, a whole site, every site. */
export type CacheFlush =
  | { kind: "addresses"; site: number; addresses: string[] }
  | { kind: "pages"; site: number; pages: number[] }
  | { kind: "site"; site: number }
  | { kind: "all" };

export type FlushListener = (flush: CacheFlush) => void;

/**
 * One site's pages in memory: by address, least recently used first (a Map keeps insertion order;
 * a read re-inserts its entry), and their bytes.
 */
interface Shelf {
  bytes: number;
  entries: Map<string, CachedPage>;
}

export class PageCache {
  /** Per site; a site without pages in memory has no shelf, so `shelves.size` counts the sites holding pages. */
  private readonly shelves = new Map<number, Shelf>();
  private bytes = 0;
  private count = 0;
  private listener: FlushListener | null = null;
  /** Flush clock: each flush ticks it; per site, the tick of its last flush. */
  private tick = 0;
  private allFlushedAt = 0;
  private readonly siteFlushedAt = new Map<number, number>();

  constructor(private readonly maxBytes = DEFAULT_CACHE_BYTES) {}

  /** Reports every local flush (not the applied ones) to `listener`; one listener at a time. */
  onFlush(listener: FlushListener | null): void {
    this.listener = listener;
  }

  /** Taken before reading a page from the database; `put` with it keeps the entry only if no flush of its site came in between. */
  ticket(): number {
    return this.tick;
  }

  /** Whether a flush of this site (or of every site) came after `ticket` was taken. */
  flushedSince(siteId: number, ticket: number): boolean {
    return Math.max(this.allFlushedAt, this.siteFlushedAt.get(siteId) ?? 0) > ticket;
  }

  private mark(siteId: number | null): void {
    this.tick++;
    if (siteId === null) {
      this.allFlushedAt = this.tick;
      this.siteFlushedAt.clear();
    } else {
      this.siteFlushedAt.set(siteId, this.tick);
    }
  }

  /** The page held for this address of this site, marked most recently used. Two Map reads, no allocation. */
  get(siteId: number, address: string): CachedPage | undefined {
    const shelf = this.shelves.get(siteId);
    if (shelf === undefined) return undefined;
    const entry = shelf.entries.get(address);
    if (entry !== undefined) {
      if (entry.expires !== undefined && entry.expires <= Date.now()) {
        this.removeFrom(siteId, shelf, address, entry);
        return undefined;
      }
      // Re-inserting marks it most recently used.
      shelf.entries.delete(address);
      shelf.entries.set(address, entry);
    }
    return entry;
  }

  /** Whether a page is held for this address, without marking it used. */
  has(siteId: number, address: string): boolean {
    return this.shelves.get(siteId)?.entries.has(address) ?? false;
  }

  /**
   * Keeps a page (unless its site was flushed since `ticket`), then makes room: while the cache is
   * over its budget, the least recently used page of the site holding the most bytes goes (that
   * site holds more than budget / sites, its fair share; it may be the adding site, and the page
   * just added). Answers the entry, kept or not.
   */
  put(entry: Omit<CachedPage, "etag"> & { etag?: string }, ticket?: number): CachedPage {
    const full: CachedPage = { ...entry, etag: entry.etag ?? etagOf(entry.body) };
    if (ticket !== undefined && this.flushedSince(full.siteId, ticket)) return full;
    this.remove(full.siteId, full.address);
    if (full.body.length > this.maxBytes) return full;
    let shelf = this.shelves.get(full.siteId);
    if (shelf === undefined) {
      shelf = { bytes: 0, entries: new Map() };
      this.shelves.set(full.siteId, shelf);
    }
    shelf.entries.set(full.address, full);
    shelf.bytes += full.body.length;
    this.bytes += full.body.length;
    this.count++;
    while (this.bytes > this.maxBytes) {
      const victim = this.fullest();
      const [address, oldest] = victim.entries.entries().next().value!;
      this.removeFrom(oldest.siteId, victim, address, oldest);
    }
    return full;
  }

  /**
   * The shelf holding the most bytes: a scan of one number per site holding pages, made only by a
   * put that must make room (a miss, which has read the database and hashed the page already).
   */
  private fullest(): Shelf {
    let best: Shelf | undefined;
    for (const shelf of this.shelves.values()) if (best === undefined || shelf.bytes > best.bytes) best = shelf;
    return best!;
  }

  private remove(siteId: number, address: string): boolean {
    const shelf = this.shelves.get(siteId);
    const entry = shelf?.entries.get(address);
    if (shelf === undefined || entry === undefined) return false;
    this.removeFrom(siteId, shelf, address, entry);
    return true;
  }

  private removeFrom(siteId: number, shelf: Shelf, address: string, entry: CachedPage): void {
    shelf.entries.delete(address);
    shelf.bytes -= entry.body.length;
    this.bytes -= entry.body.length;
    this.count--;
    if (shelf.entries.size === 0) this.shelves.delete(siteId);
  }

  /** Drops the given addresses of a site; answers the ones that were cached. */
  flushAddresses(siteId: number, addresses: Iterable<string>): string[] {
    const list = [...addresses];
    if (list.length === 0) return [];
    const flushed = this.dropAddresses(siteId, list);
    this.listener?.({ kind: "addresses", site: siteId, addresses: list });
    return flushed;
  }

  /** Drops every cached address of these pages; answers the addresses dropped. */
  flushPages(siteId: number, pageIds: Iterable<number>): string[] {
    const ids = [...new Set(pageIds)];
    if (ids.length === 0) return [];
    const flushed = this.dropPages(siteId, ids);
    this.listener?.({ kind: "pages", site: siteId, pages: ids });
    return flushed;
  }

  /** Drops everything of a site (or of every site). */
  flushSite(siteId?: number): string[] {
    const flushed = this.dropSite(siteId ?? null);
    this.listener?.(siteId === undefined ? { kind: "all" } : { kind: "site", site: siteId });
    return flushed;
  }

  /** A flush made by another process: applied here, not reported again. */
  apply(flush: CacheFlush): string[] {
    switch (flush.kind) {
      case "addresses":
        return this.dropAddresses(flush.site, flush.addresses);
      case "pages":
        return this.dropPages(flush.site, flush.pages);
      case "site":
        return this.dropSite(flush.site);
      case "all":
        return this.dropSite(null);
    }
  }

  private dropAddresses(siteId: number, addresses: readonly string[]): string[] {
    this.mark(siteId);
    const flushed: string[] = [];
    for (const address of addresses) if (this.remove(siteId, address)) flushed.push(address);
    return flushed;
  }

  private dropPages(siteId: number, pageIds: readonly number[]): string[] {
    this.mark(siteId);
    const shelf = this.shelves.get(siteId);
    if (shelf === undefined) return [];
    const ids = new Set(pageIds);
    const flushed: string[] = [];
    for (const [address, entry] of shelf.entries) {
      if (!ids.has(entry.pageId)) continue;
      this.removeFrom(siteId, shelf, address, entry);
      flushed.push(address);
    }
    return flushed;
  }

  private dropSite(siteId: number | null): string[] {
    this.mark(siteId);
    const flushed: string[] = [];
    for (const [id, shelf] of this.shelves) {
      if (siteId !== null && id !== siteId) continue;
      flushed.push(...shelf.entries.keys());
      this.bytes -= shelf.bytes;
      this.count -= shelf.entries.size;
      this.shelves.delete(id);
    }
    return flushed;
  }

  /** Pages held, of every site. */
  get size(): number {
    return this.count;
  }

  get totalBytes(): number {
    return this.bytes;
  }

  /** The pages and bytes one site holds. */
  usageOf(siteId: number): { pages: number; bytes: number } {
    const shelf = this.shelves.get(siteId);
    return { pages: shelf?.entries.size ?? 0, bytes: shelf?.bytes ?? 0 };
  }

  /** How many sites hold pages. */
  get sites(): number {
    return this.shelves.size;
  }

  /** The budget in bytes. */
  get budget(): number {
    return this.maxBytes;
  }
}

// Rendered public pages held in memory, per site and address, ready to send as they are.
// Static copies are loaded here from the database on first request; on-request renders are
// kept here until a write that affects them flushes them. Bounded by total bytes: the least
// recently used entries go first.
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
  pageId: number;
  body: Buffer;
  etag: string;
  printed: Printed;
}

export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

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

const keyOf = (siteId: number, address: string) => `${siteId} ${address}`;

export class PageCache {
  private readonly entries = new Map<string, CachedPage>();
  private bytes = 0;
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

  private flushedSince(siteId: number, ticket: number): boolean {
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

  get(siteId: number, address: string): CachedPage | undefined {
    const key = keyOf(siteId, address);
    const entry = this.entries.get(key);
    if (entry) {
      // Map keeps insertion order: re-inserting marks it most recently used.
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  put(entry: Omit<CachedPage, "etag"> & { etag?: string }, ticket?: number): CachedPage {
    const full: CachedPage = { ...entry, etag: entry.etag ?? etagOf(entry.body) };
    if (ticket !== undefined && this.flushedSince(full.siteId, ticket)) return full;
    this.remove(keyOf(full.siteId, full.address));
    if (full.body.length > this.maxBytes) return full;
    this.entries.set(keyOf(full.siteId, full.address), full);
    this.bytes += full.body.length;
    for (const [key, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(key, old);
    }
    return full;
  }

  private remove(key: string, entry = this.entries.get(key)): boolean {
    if (!entry) return false;
    this.entries.delete(key);
    this.bytes -= entry.body.length;
    return true;
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
    for (const address of addresses) if (this.remove(keyOf(siteId, address))) flushed.push(address);
    return flushed;
  }

  private dropPages(siteId: number, pageIds: readonly number[]): string[] {
    this.mark(siteId);
    const ids = new Set(pageIds);
    const flushed: string[] = [];
    for (const [key, entry] of this.entries) {
      if (entry.siteId === siteId && ids.has(entry.pageId) && this.remove(key, entry)) flushed.push(entry.address);
    }
    return flushed;
  }

  private dropSite(siteId: number | null): string[] {
    this.mark(siteId);
    const flushed: string[] = [];
    for (const [key, entry] of this.entries) {
      if ((siteId === null || entry.siteId === siteId) && this.remove(key, entry)) flushed.push(entry.address);
    }
    return flushed;
  }

  get size(): number {
    return this.entries.size;
  }

  get totalBytes(): number {
    return this.bytes;
  }
}

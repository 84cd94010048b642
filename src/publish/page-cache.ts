// Rendered public pages held in memory, per site and address, ready to send as they are.
// Static copies are loaded here from the database on first request; on-request renders are
// kept here until a write that affects them flushes them. Bounded by total bytes: the least
// recently used entries go first.
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

const keyOf = (siteId: number, address: string) => `${siteId} ${address}`;

export class PageCache {
  private readonly entries = new Map<string, CachedPage>();
  private bytes = 0;

  constructor(private readonly maxBytes = DEFAULT_CACHE_BYTES) {}

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

  put(entry: Omit<CachedPage, "etag"> & { etag?: string }): CachedPage {
    const full: CachedPage = { ...entry, etag: entry.etag ?? etagOf(entry.body) };
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
    const flushed: string[] = [];
    for (const address of addresses) if (this.remove(keyOf(siteId, address))) flushed.push(address);
    return flushed;
  }

  /** Drops every cached address of these pages; answers the addresses dropped. */
  flushPages(siteId: number, pageIds: Iterable<number>): string[] {
    const ids = new Set(pageIds);
    const flushed: string[] = [];
    for (const [key, entry] of this.entries) {
      if (entry.siteId === siteId && ids.has(entry.pageId) && this.remove(key, entry)) flushed.push(entry.address);
    }
    return flushed;
  }

  /** Drops everything of a site (or of every site). */
  flushSite(siteId?: number): string[] {
    const flushed: string[] = [];
    for (const [key, entry] of this.entries) {
      if ((siteId === undefined || entry.siteId === siteId) && this.remove(key, entry)) flushed.push(entry.address);
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

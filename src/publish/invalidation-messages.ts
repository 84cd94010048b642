// The messages of cross-process invalidation (invalidation.ts): flushes waiting to be told,
// merged per site (Outbox), and their NOTIFY payloads, split to stay under PostgreSQL's limit and
// parsed back defensively (a payload from anywhere on the channel is checked, never trusted).
import { Type } from "@sinclair/typebox";
import { jsonColumn } from "../store/json-column.ts";
import { SITEMAP_PAGE_ID, type CacheFlush } from "./page-cache.ts";

export const CHANNEL = "svc_invalidate";
/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; this leaves room to spare. */
export const MAX_PAYLOAD_BYTES = 7900;

/**
 * What travels: a flush of the page cache, or a change of the host directory: the hosts of one
 * site forgotten (`site`), or every host (no `site`; also how an older process reads either).
 */
export type Invalidated = CacheFlush | { kind: "directory"; site?: number };

/** The JSON of one NOTIFY payload. */
export interface InvalidationMessage {
  origin: string;
  flushes: Invalidated[];
  /** The marks the sender bumped for these flushes (invalidation-marks.ts), scope → mark. */
  marks?: Record<number, number>;
}

/** Flushes waiting to be told, merged: per site the addresses and pages, or the whole site; the host directory's changes. */
export class Outbox {
  all = false;
  /** Every host of the directory forgotten. */
  everyHost = false;
  /** Sites whose hosts were forgotten (while not every host was). */
  readonly hostsOf = new Set<number>();
  readonly sites = new Map<number, { whole: boolean; addresses: Set<string>; pages: Set<number> }>();

  get empty(): boolean {
    return !this.all && !this.directory && this.sites.size === 0;
  }

  /** Whether the host directory changed. */
  get directory(): boolean {
    return this.everyHost || this.hostsOf.size > 0;
  }

  private site(id: number) {
    let entry = this.sites.get(id);
    if (!entry) {
      entry = { whole: false, addresses: new Set(), pages: new Set() };
      this.sites.set(id, entry);
    }
    return entry;
  }

  add(flush: Invalidated): void {
    switch (flush.kind) {
      case "directory":
        if (flush.site === undefined) {
          this.everyHost = true;
          this.hostsOf.clear();
        } else if (!this.everyHost) {
          this.hostsOf.add(flush.site);
        }
        return;
      case "all":
        this.all = true;
        this.sites.clear();
        return;
      case "site":
        if (!this.all) Object.assign(this.site(flush.site), { whole: true, addresses: new Set(), pages: new Set() });
        return;
      case "addresses": {
        const entry = this.all ? null : this.site(flush.site);
        if (entry && !entry.whole) for (const address of flush.addresses) entry.addresses.add(address);
        return;
      }
      case "pages": {
        const entry = this.all ? null : this.site(flush.site);
        if (entry && !entry.whole) for (const page of flush.pages) entry.pages.add(page);
        return;
      }
    }
  }

  /** The merged flushes, directory first. */
  flushes(): Invalidated[] {
    const out: Invalidated[] = [];
    if (this.everyHost) out.push({ kind: "directory" });
    for (const site of this.hostsOf) out.push({ kind: "directory", site });
    if (this.all) {
      out.push({ kind: "all" });
      return out;
    }
    for (const [site, entry] of this.sites) {
      if (entry.whole) {
        out.push({ kind: "site", site });
        continue;
      }
      if (entry.pages.size > 0) out.push({ kind: "pages", site, pages: [...entry.pages] });
      if (entry.addresses.size > 0) out.push({ kind: "addresses", site, addresses: [...entry.addresses] });
    }
    return out;
  }

  static of(flushes: Invalidated[]): Outbox {
    const box = new Outbox();
    for (const flush of flushes) box.add(flush);
    return box;
  }
}

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), "utf8");

/** Splits an address or page list into flushes that each fit in a message; an item too big to travel alone becomes a flush of its site. */
function fitting(flush: Extract<Invalidated, { kind: "addresses" | "pages" }>, room: number): Invalidated[] {
  const empty = flush.kind === "pages" ? { ...flush, pages: [] as number[] } : { ...flush, addresses: [] as string[] };
  const base = bytes(empty);
  const items: Array<string | number> = flush.kind === "pages" ? flush.pages : flush.addresses;
  const out: Invalidated[] = [];
  let chunk: Array<string | number> = [];
  let size = base;
  const emit = () => {
    if (chunk.length === 0) return;
    out.push(
      flush.kind === "pages"
        ? { kind: "pages", site: flush.site, pages: chunk as number[] }
        : { kind: "addresses", site: flush.site, addresses: chunk as string[] },
    );
    chunk = [];
    size = base;
  };
  for (const item of items) {
    const itemBytes = bytes(item) + 1;
    if (base + itemBytes > room) return [{ kind: "site", site: flush.site }];
    if (size + itemBytes > room) emit();
    chunk.push(item);
    size += itemBytes;
  }
  emit();
  return out;
}

/** The NOTIFY payloads that carry these flushes, each under `maxBytes` bytes of UTF-8. */
export function encodeMessages(
  origin: string,
  flushes: Invalidated[],
  maxBytes = MAX_PAYLOAD_BYTES,
  marks?: Record<number, number>,
): string[] {
  // Every payload carries the marks (a few numbers): whichever arrives first tells them.
  const head = marks && Object.keys(marks).length > 0 ? { origin, marks } : { origin };
  const frame = bytes({ ...head, flushes: [] });
  const room = maxBytes - frame;
  const parts: Invalidated[] = [];
  for (const flush of flushes) {
    if ((flush.kind === "addresses" || flush.kind === "pages") && bytes(flush) > room)
      parts.push(...fitting(flush, room));
    else parts.push(flush);
  }
  const payloads: string[] = [];
  let current: Invalidated[] = [];
  let size = frame;
  for (const part of parts) {
    const partBytes = bytes(part) + 1;
    if (current.length > 0 && size + partBytes > maxBytes) {
      payloads.push(JSON.stringify({ ...head, flushes: current }));
      current = [];
      size = frame;
    }
    current.push(part);
    size += partBytes;
  }
  if (current.length > 0) payloads.push(JSON.stringify({ ...head, flushes: current }));
  return payloads;
}

const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;
/** A page id in a flush: a page's, or the one the site's sitemaps are kept under. */
const isPageId = (value: unknown): value is number => isId(value) || value === SITEMAP_PAGE_ID;

/** A received flush, checked; null when it is not one this version understands. */
function parseFlush(value: unknown): Invalidated | null {
  if (typeof value !== "object" || value === null) return null;
  const flush = value as Record<string, unknown>;
  switch (flush.kind) {
    case "directory":
      if (flush.site === undefined) return { kind: "directory" };
      return isId(flush.site) ? { kind: "directory", site: flush.site } : null;
    case "all":
      return { kind: flush.kind };
    case "site":
      return isId(flush.site) ? { kind: "site", site: flush.site } : null;
    case "pages":
      return isId(flush.site) && Array.isArray(flush.pages) && flush.pages.every(isPageId)
        ? { kind: "pages", site: flush.site, pages: flush.pages }
        : null;
    case "addresses":
      return isId(flush.site) && Array.isArray(flush.addresses) && flush.addresses.every((a) => typeof a === "string")
        ? { kind: "addresses", site: flush.site, addresses: flush.addresses as string[] }
        : null;
    default:
      return null;
  }
}

/**
 * A payload's envelope. Its flushes and marks are checked one by one (parseFlush, marksOf), so a
 * flush this version does not know is left out rather than the whole message.
 */
const PAYLOAD = jsonColumn(
  "invalidation payload",
  Type.Object({ origin: Type.String(), flushes: Type.Array(Type.Unknown()), marks: Type.Optional(Type.Unknown()) }),
);

/** A received payload, checked; null when it is not a message (not JSON, or no origin and flushes). */
export function parseMessage(payload: string): InvalidationMessage | null {
  const message = PAYLOAD.readOr(payload, null);
  if (message === null) return null;
  const { origin, flushes, marks } = message;
  const parsed = { origin, flushes: flushes.map(parseFlush).filter((f): f is Invalidated => f !== null) };
  return marks !== null && typeof marks === "object"
    ? { ...parsed, marks: marksOf(marks as Record<string, unknown>) }
    : parsed;
}

function marksOf(value: Record<string, unknown>): Record<number, number> {
  const out: Record<number, number> = {};
  for (const [scope, mark] of Object.entries(value))
    if (/^-?\d{1,10}$/.test(scope) && Number.isSafeInteger(mark) && (mark as number) > 0)
      out[Number(scope)] = mark as number;
  return out;
}

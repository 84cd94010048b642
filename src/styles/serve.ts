// Public serving of stylesheet bundles (docs/styles.md, "Public serving"): which copy an
// address names on a site, whether it still answers, and the status, headers and bytes of the
// answer. Nothing here knows HTTP frameworks; public/style-routes.ts sends what this decides.
//
// An address is `/styles/<name>.<hash>.css`, `<hash>` the first 16 hex digits of the bundle's
// sha256, so its bytes never change: the current copy answers, and a replaced one for 24 hours
// after it was replaced, then 404. Copies are looked up among the site's own rows only.
//
// Copies are kept in memory once read (bounded, least recently used first out), with the time
// until which they answer for sure: a copy read as current answers at least REPLACED_COPY_MS from
// that read (were it replaced the next instant), a replaced one until its time is up. A process
// therefore answers from memory without asking the database, and with several processes none of
// them needs to hear of a replacement.
import type { Clock } from "../clock.ts";
import type { Db } from "../store/database.ts";
import { REPLACED_COPY_MS, HASH_LENGTH } from "./copies.ts";
import { codingFor, type Coding } from "../http/content-coding.ts";

export interface StyleAddress {
  name: string;
  hash: string;
}

const ADDRESS = new RegExp(`^/styles/([a-z0-9][a-z0-9_-]*)\\.([0-9a-f]{${HASH_LENGTH}})\\.css(?:[?#]|$)`);

/** The name and hash of a stylesheet address (query string ignored); null when it is none. */
export function styleAddressOf(url: string): StyleAddress | null {
  const match = ADDRESS.exec(url);
  return match === null ? null : { name: match[1]!, hash: match[2]! };
}

/** A copy as served: its bytes in each encoding, made once when the bundle was made. */
export interface ServedCopy {
  hash: string;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
  /** Until this time (ms) the copy answers without asking the database again. */
  answersUntil: number;
}

/** Default room for copies in memory. */
export const SERVED_STYLES_BYTES = 16 * 1024 * 1024;

function replacedAt(value: string): number {
  return Date.parse(`${value.replace(" ", "T")}Z`);
}

export class ServedStyles {
  /** `<site> <name> <hash>` → copy, least recently used first. */
  private readonly kept = new Map<string, ServedCopy>();
  private bytes = 0;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly maxBytes = SERVED_STYLES_BYTES,
  ) {}

  /** The copy an address names on a site, while it answers; undefined otherwise (404). */
  async find(siteId: number, address: StyleAddress): Promise<ServedCopy | undefined> {
    const key = `${siteId} ${address.name} ${address.hash}`;
    const now = this.clock();
    const known = this.kept.get(key);
    if (known !== undefined) {
      this.kept.delete(key);
      if (now < known.answersUntil) {
        this.kept.set(key, known);
        return known;
      }
      this.bytes -= size(known);
    }
    const copy = await this.read(siteId, address, now);
    if (copy === undefined || now >= copy.answersUntil) return undefined;
    this.keep(key, copy);
    return copy;
  }

  /** The copy from the database; the same bundle in two themes is one copy (the longest-lived). */
  private async read(siteId: number, address: StyleAddress, now: number): Promise<ServedCopy | undefined> {
    const rows = await this.db
      .selectFrom("style_copies")
      .select(["css", "br", "gzip", "replaced_at_gmt"])
      .where("site_id", "=", siteId)
      .where("name", "=", address.name)
      .where("hash", "=", address.hash)
      .execute();
    let best: ServedCopy | undefined;
    for (const row of rows) {
      const answersUntil =
        row.replaced_at_gmt === null ? now + REPLACED_COPY_MS : replacedAt(row.replaced_at_gmt) + REPLACED_COPY_MS;
      if (best === undefined || answersUntil > best.answersUntil) {
        best = {
          hash: address.hash,
          identity: Buffer.from(row.css, "utf8"),
          br: Buffer.from(row.br),
          gzip: Buffer.from(row.gzip),
          answersUntil,
        };
      }
    }
    return best;
  }

  private keep(key: string, copy: ServedCopy): void {
    const bytes = size(copy);
    if (bytes > this.maxBytes) return;
    this.kept.set(key, copy);
    this.bytes += bytes;
    for (const [oldest, old] of this.kept) {
      if (this.bytes <= this.maxBytes) break;
      this.kept.delete(oldest);
      this.bytes -= size(old);
    }
  }
}

function size(copy: ServedCopy): number {
  return copy.identity.length + copy.br.length + copy.gzip.length;
}

function etagOf(hash: string, coding: Coding): string {
  return coding === "identity" ? `"${hash}"` : `"${hash}-${coding}"`;
}

/** Whether an If-None-Match list names this copy in any of its encodings (weak comparison), or is `*`. */
function names(list: string, hash: string): boolean {
  return list.split(",").some((entry) => {
    const tag = entry.trim().replace(/^W\//, "");
    return tag === "*" || tag === `"${hash}"` || tag === `"${hash}-br"` || tag === `"${hash}-gzip"`;
  });
}

export interface StyleRequest {
  method: "GET" | "HEAD";
  acceptEncoding: string | undefined;
  ifNoneMatch: string | undefined;
}

export interface StylePlan {
  status: 200 | 304;
  headers: Record<string, string>;
  /** The bytes to send; undefined for a 304 or a HEAD. */
  body: Buffer | undefined;
}

/** The answer to a GET or HEAD of a copy: its bytes in the encoding the request allows. */
export function planStyleAnswer(copy: ServedCopy, request: StyleRequest): StylePlan {
  const coding = codingFor(request.acceptEncoding);
  const validators = {
    etag: etagOf(copy.hash, coding),
    "cache-control": "public, max-age=31536000, immutable",
    vary: "Accept-Encoding",
  };
  if (request.ifNoneMatch !== undefined && names(request.ifNoneMatch, copy.hash))
    return { status: 304, headers: validators, body: undefined };
  const bytes = copy[coding];
  const headers: Record<string, string> = { "content-type": "text/css; charset=utf-8" };
  if (coding !== "identity") headers["content-encoding"] = coding;
  Object.assign(headers, validators, { "content-length": String(bytes.length), "x-content-type-options": "nosniff" });
  return { status: 200, headers, body: request.method === "HEAD" ? undefined : bytes };
}

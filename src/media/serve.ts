// Public serving of media files and their variants (docs/media.md,
// "Serving and variants"): which file an address names on a site, and the status, headers and
// byte range of the answer. Nothing here knows HTTP frameworks; public/media-routes.ts sends what
// this decides, streaming the bytes from the blob store.
//
// An address is `/media/<16 hex>/<name>` (media/addresses.ts, the one rule): `<name>` is a file's
// name (the file itself) or `<stem>-<width>w.webp` (one of its variants). It is looked up among
// the site's own rows only, so a file answers on its own site's domains and nowhere else.
import { parse as parseRange } from "range-parser";
import type { ByteRange } from "../blobs/blob-store.ts";
import type { Db } from "../store/database.ts";
import { addressPrefix, variantName, variantsOf } from "./addresses.ts";

/** What an address names: a stored file, or one width of its variants. */
export interface ServedFile {
  /** The file's row (what its variants are charged to). */
  mediaId: number;
  sha256: string;
  mime: string;
  /** The stored file's size as its row records it (a variant's is the blob store's). */
  bytes: number;
  /** The variant's size as variantsOf lists it; undefined for the file itself. */
  variant: { width: number; height: number } | undefined;
}

export interface MediaAddress {
  prefix: string;
  /** The last segment, percent-decoded. */
  name: string;
}

const ADDRESS = /^\/media\/([0-9a-f]{16})\/([^/?#]+)(?:[?#]|$)/;

/** The prefix and name of a media address (query string ignored); null when it is none. */
export function mediaAddressOf(url: string): MediaAddress | null {
  const match = ADDRESS.exec(url);
  if (match === null) return null;
  try {
    return { prefix: match[1], name: decodeURIComponent(match[2]) };
  } catch {
    return null; // malformed percent-encoding names no file
  }
}

/**
 * The site's file or variant at an address, or undefined. One indexed read: the rows of the site
 * whose sha256 starts with the prefix (as a range, so the sha256 index serves it in both
 * dialects); two uploads of the same bytes under other names share the prefix, hence the name.
 */
export async function findServed(db: Db, siteId: number, address: MediaAddress): Promise<ServedFile | undefined> {
  const { prefix, name } = address;
  const rows = await db
    .selectFrom("media")
    .select(["id", "sha256", "filename", "mime", "bytes", "width", "height"])
    .where("site_id", "=", siteId)
    .where("sha256", ">=", prefix)
    .where("sha256", "<", `${prefix}g`) // 'g' follows every hex digit
    .execute();
  const mine = rows.filter((row) => addressPrefix(row.sha256) === prefix);
  const file = mine.find((row) => row.filename === name);
  if (file)
    return {
      mediaId: Number(file.id),
      sha256: file.sha256,
      mime: file.mime,
      bytes: Number(file.bytes),
      variant: undefined,
    };
  for (const row of mine) {
    const variant = variantsOf(row).find((v) => variantName(row.filename, v.width) === name);
    if (variant)
      return {
        mediaId: Number(row.id),
        sha256: row.sha256,
        mime: variant.mime,
        bytes: Number(row.bytes),
        variant: { width: variant.width, height: variant.height },
      };
  }
  return undefined;
}

/** A strong validator from the bytes' hash: the file's sha256, and the variant's width beside it. */
export function etagOf(file: ServedFile): string {
  return file.variant === undefined ? `"${file.sha256}"` : `"${file.sha256}-${file.variant.width}w"`;
}

/**
 * SVG can carry script. Served with this policy it runs none, loads nothing and is a sandboxed
 * document (a unique origin) even when opened directly, so it never acts on the site's origin;
 * inline styles still draw. Raster images and other types carry no script a browser runs.
 */
export const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/** The request's headers that decide the answer. */
export interface ServeRequest {
  method: "GET" | "HEAD";
  range: string | undefined;
  ifNoneMatch: string | undefined;
  ifRange: string | undefined;
}

/** What to send: status, headers, and which bytes (none for 304, 416 and HEAD). */
export interface ServePlan {
  status: 200 | 206 | 304 | 416;
  headers: Record<string, string>;
  /** The bytes to stream: undefined for none, `whole` for all of them. */
  body: ByteRange | "whole" | undefined;
}

/** Whether an If-None-Match list names this ETag (weak comparison, RFC 9110 §13.1.2), or is `*`. */
function matchesAny(list: string, etag: string): boolean {
  const opaque = etag.replace(/^W\//, "");
  return list.split(",").some((entry) => {
    const tag = entry.trim();
    return tag === "*" || tag.replace(/^W\//, "") === opaque;
  });
}

/** A Range the answer follows: one satisfiable byte range; `unsatisfiable`; or null (send it whole). */
function rangeOf(header: string, size: number): ByteRange | "unsatisfiable" | null {
  // Longer than any honest single range: not parsed (range-parser's advice), sent whole.
  if (header.length > 200) return null;
  const parsed = parseRange(size, header);
  if (parsed.type !== "bytes" || parsed.code & 1) return null; // malformed: ignored (RFC 9110 §14.2)
  if (parsed.ranges.length === 0) return size === 0 ? null : "unsatisfiable";
  // Several ranges are answered whole (200): allowed by RFC 9110 §14.2 and no multipart to build.
  if (parsed.ranges.length > 1) return null;
  const { start, end } = parsed.ranges[0];
  return { start, end };
}

/** The answer to a GET or HEAD of a file of `size` bytes. */
export function planAnswer(file: ServedFile, size: number, request: ServeRequest): ServePlan {
  const etag = etagOf(file);
  const validators = { etag, "cache-control": "public, max-age=31536000, immutable" };
  if (request.ifNoneMatch !== undefined && matchesAny(request.ifNoneMatch, etag)) {
    return { status: 304, headers: validators, body: undefined };
  }
  const headers: Record<string, string> = {
    ...validators,
    "content-type": file.mime,
    "accept-ranges": "bytes",
    "x-content-type-options": "nosniff",
  };
  if (file.mime === "image/svg+xml") {
    headers["content-security-policy"] = SVG_POLICY;
    headers["content-disposition"] = "inline";
  }
  // Range is for GET (RFC 9110 §14.2); an If-Range naming other bytes asks for all of them.
  const honoursRange =
    request.method === "GET" &&
    request.range !== undefined &&
    (request.ifRange === undefined || request.ifRange === etag);
  const range = honoursRange ? rangeOf(request.range!, size) : null;
  if (range === "unsatisfiable") {
    // Not the file: nothing a cache should keep for a year under its address.
    const refusal = {
      "accept-ranges": "bytes",
      "x-content-type-options": "nosniff",
      "content-range": `bytes */${size}`,
      "content-length": "0",
    };
    return { status: 416, headers: refusal, body: undefined };
  }
  const wanted = request.method === "HEAD" ? undefined : (range ?? "whole");
  if (range === null) return { status: 200, headers: { ...headers, "content-length": String(size) }, body: wanted };
  return {
    status: 206,
    headers: {
      ...headers,
      "content-range": `bytes ${range.start}-${range.end}/${size}`,
      "content-length": String(range.end - range.start + 1),
    },
    body: wanted,
  };
}

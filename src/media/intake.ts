// An upload's bytes, from the request into the blob store, with the upload's checks in their
// order and nothing stored on a refusal (docs/media.md, "Uploads"):
//   1. over the size limit: 413 media_too_large, answered as soon as the limit is passed (a
//      Content-Length over it before a byte is read);
//   2. a sniffed type not allowed: 415 unsupported_media_type;
//   3. an allowed type other than a specific claimed one: 400 media_type_mismatch.
// The first SNIFF_BYTES are read and sniffed before anything is written. When they already
// decide a refusal, the rest is read only to count it (the size check comes first) and thrown
// away; otherwise the bytes stream into the store, which stops at the limit and keeps nothing.
// On the way, a JPEG, PNG, WebP or AVIF loses its personal metadata (metadata/private.ts) unless
// the upload asks to keep it: the stored file is what the record's sha256, bytes and size say.
import type { Readable } from "node:stream";
import { fail, type ServiceError } from "../errors.ts";
import { BlobTooLarge, type BlobStore } from "../blobs/blob-store.ts";
import { ALLOWED_TYPES, claimedType, isAllowedType, sniff, SNIFF_BYTES, SVG_TYPE, type MediaKind } from "./sniff.ts";
import { RASTER_TYPES } from "./addresses.ts";
import { withoutPersonalMetadata } from "./metadata/private.ts";

/** Where media bytes go and how many one file may have. */
export interface MediaFiles {
  blobs: BlobStore;
  maxBytes: number;
}

/** The bytes of one uploaded file, as the request carries them. */
export interface UploadSource {
  /** The file name the client gave (?filename= or the part's), unchecked; null when none. */
  filename: string | null;
  /** The Content-Type the client gave the file (the body's, or the part's). */
  contentType: string | null;
  /** The file's bytes, read as they arrive. */
  bytes: AsyncIterable<Uint8Array>;
  /** The body's Content-Length for a raw upload: past the limit, refused before a byte is read. */
  declaredBytes: number | null;
  /** `?keep_metadata=1`: stored as sent; otherwise images lose their personal metadata (metadata/private.ts). */
  keepMetadata: boolean;
}

/** What an upload stored, and what its bytes are. */
export interface StoredFile {
  sha256: string;
  bytes: number;
  mime: string;
  kind: MediaKind;
  width: number | null;
  height: number | null;
}

/** The request ended before its body did (the client went away): nothing is kept. */
class SourceFailed extends Error {}

function tooLarge(maxBytes: number) {
  return fail(
    "media_too_large",
    { max_bytes: maxBytes },
    `The file is larger than ${maxBytes} bytes; nothing was stored.`,
  );
}

/** The source's chunks, failures marked as the source's own (a disk error is not the client's). */
async function* marked(iterator: AsyncIterator<Uint8Array>): AsyncGenerator<Uint8Array> {
  for (;;) {
    let next: IteratorResult<Uint8Array>;
    try {
      next = await iterator.next();
    } catch (error) {
      throw new SourceFailed(error instanceof Error ? error.message : String(error));
    }
    if (next.done) return;
    yield next.value;
  }
}

/** The first chunks, until there are at least `want` bytes or the source ends. */
async function readHead(chunks: AsyncGenerator<Uint8Array>, want: number): Promise<Buffer> {
  const head: Uint8Array[] = [];
  let length = 0;
  while (length < want) {
    const next = await chunks.next();
    if (next.done) break;
    head.push(next.value);
    length += next.value.byteLength;
  }
  return Buffer.concat(head);
}

/** Reads the rest to count it, keeping nothing; true when the whole passes `maxBytes`. */
async function passesLimit(chunks: AsyncGenerator<Uint8Array>, counted: number, maxBytes: number): Promise<boolean> {
  if (counted > maxBytes) return true;
  for await (const chunk of chunks) {
    counted += chunk.byteLength;
    if (counted > maxBytes) return true;
  }
  return false;
}

async function* prepend(head: Uint8Array, rest: AsyncGenerator<Uint8Array>): AsyncGenerator<Uint8Array> {
  if (head.byteLength > 0) yield head;
  yield* rest;
}

/**
 * The chunks, refused past `maxBytes` as they are sent: the limit is the upload's, so a file over
 * it is refused whatever its metadata's removal would leave, and a multipart file busboy cut at
 * the limit plus one is never stored cut.
 */
async function* limited(chunks: AsyncIterable<Uint8Array>, maxBytes: number): AsyncGenerator<Uint8Array> {
  let counted = 0;
  for await (const chunk of chunks) {
    counted += chunk.byteLength;
    if (counted > maxBytes) throw new BlobTooLarge(maxBytes);
    yield chunk;
  }
}

/** The chunks as they are, their first `want` bytes also kept in `head`. */
async function* keepingHead(
  chunks: AsyncIterable<Uint8Array>,
  want: number,
  head: Uint8Array[],
): AsyncGenerator<Uint8Array> {
  let kept = 0;
  for await (const chunk of chunks) {
    if (kept < want) {
      head.push(chunk.subarray(0, want - kept));
      kept += head.at(-1)!.byteLength;
    }
    yield chunk;
  }
}

/** The refusal the sniffed type decides (steps 2 and 3), or null when the bytes may be stored. */
function typeRefusal(detected: string | null, contentType: string | null): ServiceError | null {
  if (!isAllowedType(detected)) {
    return fail(
      "unsupported_media_type",
      { detected, allowed: Object.keys(ALLOWED_TYPES) },
      `${detected === null ? "The file is of no known type" : `The file is ${detected}`}, which is not allowed here: JPEG, PNG, WebP, AVIF, GIF, SVG, PDF, MP4, WebM, MP3 or WOFF2. Nothing was stored.`,
    );
  }
  const claimed = claimedType(contentType);
  if (claimed !== null && claimed !== detected) {
    return fail(
      "media_type_mismatch",
      { claimed, detected },
      `The Content-Type says ${claimed} but the bytes are ${detected}; send the right type, or application/octet-stream. Nothing was stored.`,
    );
  }
  return null;
}

/** Width and height of a raster image, as it is shown (EXIF orientation applied); null when sharp cannot tell. */
async function rasterSize(
  head: Buffer,
  whole: () => Promise<Readable | undefined>,
): Promise<{ width: number; height: number } | null> {
  // Loaded on first use: a start of the service does not pay for the native library.
  const { default: sharp } = await import("sharp");
  const sizeOf = (meta: { width?: number; height?: number; autoOrient?: { width: number; height: number } }) => {
    const width = meta.autoOrient?.width ?? meta.width;
    const height = meta.autoOrient?.height ?? meta.height;
    return width && height ? { width, height } : null;
  };
  try {
    // PNG, JPEG and AVIF say their size in the first bytes.
    return sizeOf(await sharp(head).metadata());
  } catch {
    // WebP and GIF are read to their end by libvips: the stored file then, not the request.
  }
  try {
    const stream = await whole();
    if (!stream) return null;
    const reader = sharp();
    stream.pipe(reader);
    return sizeOf(await reader.metadata());
  } catch {
    return null; // sniffed as an image, but not one sharp can read: no size, no variants
  }
}

/**
 * Checks an upload and streams it into the store; throws the refusal (nothing stored) or answers
 * what was stored. The caller owns the blob from then on: it records it or releases it.
 */
export async function storeUpload(files: MediaFiles, source: UploadSource): Promise<StoredFile> {
  const { blobs, maxBytes } = files;
  if (source.declaredBytes !== null && source.declaredBytes > maxBytes) throw tooLarge(maxBytes);
  const chunks = marked(source.bytes[Symbol.asyncIterator]());
  try {
    const head = await readHead(chunks, SNIFF_BYTES);
    const sniffed = await sniff(head);
    const refusal = typeRefusal(sniffed.mime, source.contentType);
    if (refusal !== null) {
      if (await passesLimit(chunks, head.byteLength, maxBytes)) throw tooLarge(maxBytes);
      throw refusal;
    }
    const mime = sniffed.mime!;
    const sent = limited(prepend(head, chunks), maxBytes);
    // What is stored is what the record describes: its sha256, bytes and size are the stored file's.
    const storedHead: Uint8Array[] = [];
    const stored = keepingHead(
      source.keepMetadata ? sent : withoutPersonalMetadata(mime, sent),
      SNIFF_BYTES,
      storedHead,
    );
    const written = await blobs.put(stored, maxBytes).catch((error: unknown) => {
      throw error instanceof BlobTooLarge ? tooLarge(maxBytes) : error;
    });
    const size =
      mime === SVG_TYPE
        ? sniffed.svgSize
        : RASTER_TYPES.has(mime)
          ? await rasterSize(Buffer.concat(storedHead), () => blobs.read(written.sha256))
          : null;
    return { ...written, mime, kind: ALLOWED_TYPES[mime]!, width: size?.width ?? null, height: size?.height ?? null };
  } catch (error) {
    if (error instanceof SourceFailed)
      throw fail(
        "invalid_body",
        { reason: "incomplete" },
        `The upload ended before its body did (${error.message}); nothing was stored.`,
      );
    throw error;
  }
}

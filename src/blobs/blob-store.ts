// Where media bytes live (docs/media.md, "Storage"): one interface, two backends chosen by
// configuration: the file system under SVC_DATA_DIR/media (fs-store.ts, the default) and
// S3-compatible object storage (s3-store.ts) for several processes on several machines.
//
// Blobs are content-addressed: a blob's key is the sha256 of its bytes, so two uploads of the
// same bytes share one blob. A blob is written under a temporary name while it is hashed and
// becomes visible under its key only once whole (rename, or copy on S3), so a crash mid-upload —
// even kill -9 — never leaves a half blob under a key. Files derived from a blob (image variants)
// are stored beside it, under the blob's key and a name, and go with it.
//
// Who points at a blob is the media table's business (src/media/): the store only stores.
import type { Readable } from "node:stream";

/** What a put stored. */
export interface BlobWritten {
  sha256: string;
  bytes: number;
}

/** An inclusive byte range, as HTTP Range gives it. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface BlobStore {
  /**
   * Streams `source` into the store, hashing it on the way; it is stored under its sha256 once
   * whole. Past `maxBytes` it stops reading at once, removes what it wrote and throws
   * BlobTooLarge. A source that fails leaves nothing either.
   */
  put(source: AsyncIterable<Uint8Array>, maxBytes: number): Promise<BlobWritten>;
  /** Stores a file derived from a blob (a variant), named `name` (e.g. `w640.webp`), whole or not at all. */
  putDerived(sha256: string, name: string, data: Uint8Array): Promise<void>;
  /** The blob's bytes, or a derived file's (`name`), whole or a range of them; undefined when absent. */
  read(sha256: string, options?: { name?: string; range?: ByteRange }): Promise<Readable | undefined>;
  /** The size of a blob, or of a derived file; undefined when absent. */
  size(sha256: string, name?: string): Promise<number | undefined>;
  /** Removes a blob and every file derived from it; absent ones are no error. */
  delete(sha256: string): Promise<void>;
  /** Releases what the store holds open (clients, handles). */
  close(): Promise<void>;
}

/** A put went past its byte limit; nothing was stored. */
export class BlobTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`the blob is larger than ${maxBytes} bytes`);
  }
}

/** A blob key: 64 lower-case hex digits. Anything else is refused before it reaches a path or key. */
export function isBlobKey(sha256: string): boolean {
  return /^[0-9a-f]{64}$/.test(sha256);
}

/** A derived file's name: letters, digits, dot, dash, underscore; no path. */
export function isDerivedName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name) && !name.includes("..");
}

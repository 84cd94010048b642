// The blob store on S3-compatible object storage (docs/media.md), for several processes on several
// machines sharing one bucket. Layout of the bucket:
//
//   blobs/<sha256>                 a blob, under the sha256 of its bytes
//   derived/<sha256>/<name>        files derived from it (image variants)
//   tmp/<uuid>                     a put on its way, before its sha256 is known
//
// No key is also the folder of other keys (`<sha256>` beside `<sha256>/w640.webp`): MinIO refuses
// such a pair or leaves the folder out of listings. A blob's key is known only once its bytes
// are read, so a put streams them to a temporary key, hashing and counting on the way, then copies
// the temporary to the blob's key (the storage copies; no byte comes back) and removes it. A copy
// is all or nothing, so a key never holds half a blob, whatever happens to the process.
import { createHash, randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCopyCommand,
  type CompletedPart,
  type S3ClientConfig,
} from "@aws-sdk/client-s3";
import type { MediaS3Options } from "../config.ts";
import {
  BlobTooLarge,
  isBlobKey,
  isDerivedName,
  type BlobStore,
  type BlobWritten,
  type ByteRange,
} from "./blob-store.ts";
import { MIN_PART_BYTES, PartedUpload } from "./s3-parted-upload.ts";

const blobKey = (sha256: string) => `blobs/${sha256}`;
const derivedPrefix = (sha256: string) => `derived/${sha256}/`;
const TEMPORARY_PREFIX = "tmp/";

/** A put holds at most two parts of this size in memory (up to 8 GB; s3-parted-upload.ts). */
const DEFAULT_PART_BYTES = 8 * 1024 * 1024;
/** The most CopyObject copies in one request; a larger blob is copied in parts of this size. */
const COPY_LIMIT_BYTES = 5 * 1024 ** 3;
/** Derived files removed at once when a blob goes. */
const DELETES_AT_ONCE = 8;

export interface S3BlobStoreOptions {
  bucket: string;
  /** Bytes per part of an upload (at least 5 MiB, S3's minimum); default 8 MiB. */
  partBytes?: number;
  /** Blobs larger than this are copied in parts of this size; S3's limit, 5 GiB, unless a test lowers it. */
  copyLimitBytes?: number;
}

/** The client for the configured storage; `overrides` lets a test give credentials of its own. */
export function s3ClientFor(options: MediaS3Options, overrides: Partial<S3ClientConfig> = {}): S3Client {
  return new S3Client({
    region: options.region,
    endpoint: options.endpoint ?? undefined,
    forcePathStyle: options.forcePathStyle,
    // Since 3.729 the SDK adds a CRC32 checksum to every upload and asks for one on every read;
    // many S3-compatible servers refuse or mishandle those headers. Checksums are sent where an
    // operation requires one; what is sent is hashed (sha256) on the way, and TLS guards it.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    // Without it a storage host that drops packets holds a request forever.
    requestHandler: { connectionTimeout: 10_000 },
    ...overrides,
  });
}

/** A temporary object lives for the seconds between a put's last part and its copy; one this old
 * was left by a process that died in between. (Unfinished multipart uploads are not objects:
 * the bucket's lifecycle rule ends them, docs/media.md.) An hour leaves room for clock skew. */
export const STALE_TEMPORARY_MS = 60 * 60 * 1000;

/** The store the configuration names, with a crash's stale temporaries removed. */
export async function openS3BlobStore(options: MediaS3Options): Promise<S3BlobStore> {
  const store = new S3BlobStore(s3ClientFor(options), { bucket: options.bucket });
  await store.removeStaleTemporaries(Date.now() - STALE_TEMPORARY_MS);
  return store;
}

export class S3BlobStore implements BlobStore {
  private readonly bucket: string;
  private readonly partBytes: number;
  private readonly copyLimitBytes: number;

  constructor(
    private readonly client: S3Client,
    options: S3BlobStoreOptions,
  ) {
    this.bucket = options.bucket;
    this.partBytes = options.partBytes ?? DEFAULT_PART_BYTES;
    this.copyLimitBytes = options.copyLimitBytes ?? COPY_LIMIT_BYTES;
    if (this.partBytes < MIN_PART_BYTES || this.copyLimitBytes < MIN_PART_BYTES)
      throw new RangeError(`S3 parts hold at least ${MIN_PART_BYTES} bytes`);
  }

  async put(source: AsyncIterable<Uint8Array>, maxBytes: number): Promise<BlobWritten> {
    const upload = new PartedUpload(this.client, this.bucket, TEMPORARY_PREFIX + randomUUID(), this.partBytes);
    const hash = createHash("sha256");
    let bytes = 0;
    try {
      // Leaving the loop by a throw ends the source (its return()), so nothing more is read.
      for await (const chunk of source) {
        bytes += chunk.byteLength;
        if (bytes > maxBytes) throw new BlobTooLarge(maxBytes);
        hash.update(chunk);
        await upload.write(chunk);
      }
      await upload.finish();
    } catch (error) {
      await upload.discard();
      throw error;
    }
    const sha256 = hash.digest("hex");
    try {
      // The same bytes stored already (another upload of them): the copy would change nothing.
      if ((await this.sizeOf(blobKey(sha256))) !== bytes) await this.copy(upload.key, blobKey(sha256), bytes);
    } finally {
      await upload.discard();
    }
    return { sha256, bytes };
  }

  async putDerived(sha256: string, name: string, data: Uint8Array): Promise<void> {
    const key = this.keyOf(sha256, name);
    // One PutObject: S3 makes an object visible whole or not at all.
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: data, ContentLength: data.byteLength }),
    );
    // Made from a blob that a delete removed meanwhile: it goes too, so nothing outlives its blob.
    if ((await this.sizeOf(blobKey(sha256))) === undefined) await this.deleteKey(key);
  }

  async read(sha256: string, options: { name?: string; range?: ByteRange } = {}): Promise<Readable | undefined> {
    const key = this.keyOf(sha256, options.name);
    const range = options.range && rangeHeader(options.range);
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: range }));
      // In Node the body is the HTTP response itself: a Readable, streamed as it arrives.
      if (!(answer.Body instanceof Readable)) throw new Error(`the S3 client answered GetObject without a stream`);
      return answer.Body;
    } catch (error) {
      if (isAbsent(error)) return undefined;
      throw error;
    }
  }

  async size(sha256: string, name?: string): Promise<number | undefined> {
    return this.sizeOf(this.keyOf(sha256, name));
  }

  async delete(sha256: string): Promise<void> {
    const key = this.keyOf(sha256);
    // Derived files first and the blob last, so that a delete cut short leaves the blob, and
    // with it the sign that something under its key remains (a second delete finishes the job).
    // One DeleteObject per key rather than DeleteObjects: the SDK sends DeleteObjects without the
    // Content-MD5 header that MinIO releases before 2025, Ceph and others require, and a blob has
    // a handful of derived files.
    for await (const objects of this.objectsUnder(derivedPrefix(sha256)))
      await this.deleteKeys(objects.map((object) => object.key));
    await this.deleteKey(key);
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  /** Removes temporaries last written before `olderThan` (ms since the epoch, compared with the storage's clock). */
  async removeStaleTemporaries(olderThan: number): Promise<void> {
    for await (const objects of this.objectsUnder(TEMPORARY_PREFIX)) {
      const stale = objects.filter(
        (object) => object.lastModified !== undefined && object.lastModified.getTime() < olderThan,
      );
      await this.deleteKeys(stale.map((object) => object.key));
    }
  }

  /** The key of a blob or of one of its derived files; anything else is refused before it becomes a key. */
  private keyOf(sha256: string, name?: string): string {
    if (!isBlobKey(sha256)) throw new TypeError(`not a blob key: ${JSON.stringify(sha256)}`);
    if (name === undefined) return blobKey(sha256);
    if (!isDerivedName(name)) throw new TypeError(`not a derived file name: ${JSON.stringify(name)}`);
    return derivedPrefix(sha256) + name;
  }

  private async sizeOf(key: string): Promise<number | undefined> {
    try {
      return (await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }))).ContentLength;
    } catch (error) {
      if (isAbsent(error)) return undefined;
      throw error;
    }
  }

  private async deleteKey(key: string): Promise<void> {
    // S3 answers a delete of an absent key with success.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  private async deleteKeys(keys: string[]): Promise<void> {
    for (let at = 0; at < keys.length; at += DELETES_AT_ONCE) {
      await Promise.all(keys.slice(at, at + DELETES_AT_ONCE).map((key) => this.deleteKey(key)));
    }
  }

  /** The objects whose keys start with `prefix`, a page (up to 1,000) at a time. */
  private async *objectsUnder(prefix: string): AsyncGenerator<Array<{ key: string; lastModified?: Date }>> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      yield (page.Contents ?? []).flatMap((object) =>
        object.Key === undefined ? [] : [{ key: object.Key, lastModified: object.LastModified }],
      );
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
  }

  private async copy(from: string, to: string, bytes: number): Promise<void> {
    const source = `${this.bucket}/${from}`;
    if (bytes <= this.copyLimitBytes) {
      await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: to, CopySource: source }));
      return;
    }
    const { UploadId } = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: to }));
    try {
      const parts: CompletedPart[] = [];
      for (let start = 0; start < bytes; start += this.copyLimitBytes) {
        const end = Math.min(start + this.copyLimitBytes, bytes) - 1;
        const PartNumber = parts.length + 1;
        const answer = await this.client.send(
          new UploadPartCopyCommand({
            Bucket: this.bucket,
            Key: to,
            UploadId,
            PartNumber,
            CopySource: source,
            CopySourceRange: `bytes=${start}-${end}`,
          }),
        );
        parts.push({ PartNumber, ETag: answer.CopyPartResult?.ETag });
      }
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: to,
          UploadId,
          MultipartUpload: { Parts: parts },
        }),
      );
    } catch (error) {
      await this.client
        .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: to, UploadId }))
        .catch(() => {});
      throw error;
    }
  }
}

function rangeHeader({ start, end }: ByteRange): string {
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new RangeError(`not a byte range: ${start}-${end}`);
  }
  return `bytes=${start}-${end}`;
}

/** An answer that the key holds nothing (GetObject says NoSuchKey; HeadObject, without a body, NotFound). */
function isAbsent(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === "NoSuchKey" || name === "NotFound";
}

// The file-system blob store (blob-store.ts), the default: under SVC_DATA_DIR/media.
//
// Layout (fs-layout.ts), spread over two levels of directories so none holds more than a few
// thousand entries: a blob at <root>/ab/cd/<sha256>, the files derived from it (image variants) in
// <root>/ab/cd/<sha256>.derived/, and writes under way at <root>/tmp/<random>.part.
// A blob and a derived file are written under tmp/ (the same file system, so the rename is atomic),
// flushed to disk (fsync), then renamed into place, and the directory is flushed: a crash at any
// point — kill -9 included — leaves at most a temporary, never a half file under a key. A
// temporary older than a few minutes when a store opens is a crash's leftover and is removed.
// Every key and name is checked (isBlobKey, isDerivedName) before it reaches a path.
import { createHash, randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import { mkdir, open, readdir, rename, rm, stat, type FileHandle } from "node:fs/promises";
import { dirname, join } from "node:path";
import {
  BlobTooLarge,
  isBlobKey,
  isDerivedName,
  type BlobStore,
  type BlobWritten,
  type ByteRange,
} from "./blob-store.ts";
import { blobFile, derivedFolder } from "./fs-layout.ts";

/** A temporary this old was left by a process that died (an upload takes seconds, not minutes). */
export const STALE_TEMPORARY_MS = 10 * 60 * 1000;

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === "ENOENT";
}

function checkKey(sha256: string): void {
  if (!isBlobKey(sha256)) throw new Error(`not a blob key: ${JSON.stringify(sha256)}`);
}

function checkName(name: string): void {
  if (!isDerivedName(name)) throw new Error(`not a derived file name: ${JSON.stringify(name)}`);
}

/** Writes all of `chunk` (a write may take less than it is given). */
async function writeAll(handle: FileHandle, chunk: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < chunk.byteLength) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.byteLength - offset);
    offset += bytesWritten;
  }
}

/** Flushes a directory's entries, so a rename into it survives a power cut (not every system allows it). */
async function syncDirectory(path: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, "r");
    await handle.sync();
  } catch {
    // Some platforms refuse fsync on a directory; the rename is atomic all the same.
  } finally {
    await handle?.close();
  }
}

export class FsBlobStore implements BlobStore {
  private readonly temporaries: string;

  private constructor(readonly root: string) {
    this.temporaries = join(root, "tmp");
  }

  /** The store under `root`, created if absent, with a crash's stale temporaries removed. */
  static async open(root: string, staleAfterMs = STALE_TEMPORARY_MS): Promise<FsBlobStore> {
    const store = new FsBlobStore(root);
    await mkdir(store.temporaries, { recursive: true });
    await store.removeStaleTemporaries(Date.now() - staleAfterMs);
    return store;
  }

  private async removeStaleTemporaries(olderThan: number): Promise<void> {
    for (const name of await readdir(this.temporaries)) {
      const path = join(this.temporaries, name);
      try {
        if ((await stat(path)).mtimeMs < olderThan) await rm(path, { force: true, recursive: true });
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    }
  }

  /** Where a blob's bytes are. */
  blobPath(sha256: string): string {
    checkKey(sha256);
    return join(this.root, blobFile(sha256));
  }

  private derivedDirectory(sha256: string): string {
    return join(this.root, derivedFolder(sha256));
  }

  private derivedPath(sha256: string, name: string): string {
    checkName(name);
    return join(this.derivedDirectory(sha256), name);
  }

  /** Writes `write`'s bytes to a temporary, flushed; renamed to what `place` answers, or removed on any failure. */
  private async writeThenRename<T>(
    write: (handle: FileHandle) => Promise<T>,
    place: (written: T) => string,
  ): Promise<T> {
    const temporary = join(this.temporaries, `${randomUUID()}.part`);
    const handle = await open(temporary, "wx", 0o644);
    let closed = false;
    try {
      const written = await write(handle);
      await handle.sync();
      await handle.close();
      closed = true;
      const target = place(written);
      await mkdir(dirname(target), { recursive: true });
      await rename(temporary, target);
      await syncDirectory(dirname(target));
      return written;
    } catch (error) {
      if (!closed) await handle.close().catch(() => undefined);
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async put(source: AsyncIterable<Uint8Array>, maxBytes: number): Promise<BlobWritten> {
    return this.writeThenRename(
      async (handle) => {
        const hash = createHash("sha256");
        let bytes = 0;
        for await (const chunk of source) {
          bytes += chunk.byteLength;
          // Leaving the loop stops reading the source: nothing past the limit is read.
          if (bytes > maxBytes) throw new BlobTooLarge(maxBytes);
          hash.update(chunk);
          await writeAll(handle, chunk);
        }
        return { sha256: hash.digest("hex"), bytes };
      },
      // Renaming over a blob already there replaces it with the same bytes: two uploads of one
      // file share it, and an upload puts back a blob that a delete removed meanwhile.
      (written) => this.blobPath(written.sha256),
    );
  }

  async putDerived(sha256: string, name: string, data: Uint8Array): Promise<void> {
    const target = this.derivedPath(sha256, name);
    await this.writeThenRename(
      (handle) => writeAll(handle, data),
      () => target,
    );
    // Made from a blob that a delete removed meanwhile: it goes too, so nothing outlives its blob.
    if ((await this.size(sha256)) === undefined)
      await rm(this.derivedDirectory(sha256), { recursive: true, force: true });
  }

  async read(sha256: string, options: { name?: string; range?: ByteRange } = {}): Promise<Readable | undefined> {
    const path = options.name === undefined ? this.blobPath(sha256) : this.derivedPath(sha256, options.name);
    const range = options.range;
    if (
      range &&
      !(
        Number.isSafeInteger(range.start) &&
        Number.isSafeInteger(range.end) &&
        range.start >= 0 &&
        range.end >= range.start
      )
    ) {
      throw new RangeError(`not a byte range: ${range.start}-${range.end}`);
    }
    let handle: FileHandle;
    try {
      // Opened first: a delete after this leaves the open file readable to its end.
      handle = await open(path, "r");
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    return handle.createReadStream({ start: range?.start, end: range?.end, autoClose: true });
  }

  async size(sha256: string, name?: string): Promise<number | undefined> {
    const path = name === undefined ? this.blobPath(sha256) : this.derivedPath(sha256, name);
    try {
      return (await stat(path)).size;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async delete(sha256: string): Promise<void> {
    // Derived files first: a crash in between leaves a blob without variants (made again on
    // request), never variants without their blob.
    await rm(this.derivedDirectory(sha256), { recursive: true, force: true });
    await rm(this.blobPath(sha256), { force: true });
  }

  async close(): Promise<void> {
    // Nothing is held open between calls: every read's file closes with its stream.
  }
}

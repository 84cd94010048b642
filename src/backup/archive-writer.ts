// Writes a backup file: a gzip-compressed tar (tar-stream), entry by entry, each file streamed from
// disk and hashed on the way, so the manifest written last holds the sha256 of the bytes packed.
// The file is created new (never over another) and removed again when the backup is given up.
import { createHash } from "node:crypto";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { open, rm, type FileHandle } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { pack as tarPack, type Pack } from "tar-stream";
import type { EntryDigest } from "./format.ts";

const FILE_MODE = 0o644;

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === "ENOENT";
}

export class ArchiveWriter {
  /** What was packed so far, by entry name. */
  readonly entries: Record<string, EntryDigest> = {};
  private readonly pack = tarPack();
  private readonly written: Promise<void>;

  constructor(readonly path: string) {
    this.written = pipeline(this.pack, createGzip(), createWriteStream(path, { flags: "wx", mode: 0o600 }));
    // Awaited by finish or abort; a failure meanwhile surfaces in the next entry's write.
    this.written.catch(() => undefined);
  }

  /** Packs the file at `path` as `name`; false (nothing packed) when there is no such file. */
  async addFile(name: string, path: string): Promise<boolean> {
    let handle: FileHandle;
    try {
      // Opened first: a delete after this leaves the open file readable to its end.
      handle = await open(path, "r");
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
    try {
      const { size, mtime } = await handle.stat();
      const hash = createHash("sha256");
      let sink!: ReturnType<Pack["entry"]>;
      const entryDone = new Promise<void>((settle, reject) => {
        sink = this.pack.entry({ name, size, mode: FILE_MODE, mtime }, (error) => (error ? reject(error) : settle()));
      });
      let bytes = 0;
      // Blobs never change under their name, and the database copy is this backup's own file.
      for await (const chunk of handle.createReadStream({ autoClose: false, start: 0 })) {
        bytes += chunk.length;
        hash.update(chunk);
        if (!sink.write(chunk)) await once(sink, "drain");
      }
      if (bytes !== size) throw new Error(`${path} changed size while it was packed`);
      sink.end(undefined);
      await entryDone;
      this.entries[name] = { sha256: hash.digest("hex"), bytes: size };
      return true;
    } finally {
      await handle.close();
    }
  }

  /** Packs a JSON document as `name` (the manifest: not listed in `entries`). */
  async addJson(name: string, value: unknown): Promise<void> {
    const text = Buffer.from(`${JSON.stringify(value, null, 2)}\n`);
    await new Promise<void>((resolve, reject) =>
      this.pack.entry({ name, size: text.length, mode: FILE_MODE, mtime: new Date() }, text, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
  }

  /** Ends the archive and waits until it is on disk. */
  async finish(): Promise<void> {
    this.pack.finalize();
    await this.written;
  }

  /** Gives the archive up: the partial file is removed. */
  async abort(): Promise<void> {
    this.pack.destroy();
    await this.written.catch(() => undefined);
    await rm(this.path, { force: true });
  }
}

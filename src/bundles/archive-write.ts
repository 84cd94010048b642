// Writes a bundle as a stream: manifest.json first, then each entry in turn, gzipped as it goes.
// Every entry's sha256 is known before the first byte is sent (JSON and markup are made in
// memory; a media file's is the blob store's own address), so the manifest can lead.
import { createHash } from "node:crypto";
import { PassThrough, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { pack } from "tar-stream";
import { jsonEntry, MANIFEST, type Manifest } from "./format.ts";

/** One entry of a bundle: its bytes in memory, or a file read when it is written. */
export interface OutEntry {
  path: string;
  sha256: string;
  size: number;
  bytes?: Buffer;
  open?: () => Promise<Readable>;
}

export function memoryEntry(path: string, bytes: Buffer): OutEntry {
  return { path, bytes, size: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") };
}

/** The bundle of `entries` under `manifest` (whose `entries` this fills), as a gzip stream. */
export function writeBundle(manifest: Omit<Manifest, "entries">, entries: readonly OutEntry[]): Readable {
  const full: Manifest = { ...manifest, entries: Object.fromEntries(entries.map((e) => [e.path, e.sha256])) };
  const tar = pack();
  const out = new PassThrough();
  const mtime = new Date(manifest.source.exported_at);
  const feed = async () => {
    tar.entry({ name: MANIFEST, mtime }, jsonEntry(full));
    for (const entry of entries) {
      if (entry.bytes) {
        tar.entry({ name: entry.path, mtime, size: entry.size }, entry.bytes);
        continue;
      }
      const sink = tar.entry({ name: entry.path, mtime, size: entry.size });
      const source = await entry.open!();
      await pipeline(source, sink as unknown as NodeJS.WritableStream);
    }
    tar.finalize();
  };
  feed().catch((error: Error) => out.destroy(error));
  pipeline(tar as unknown as Readable, createGzip(), out).catch((error: Error) => out.destroy(error));
  return out;
}

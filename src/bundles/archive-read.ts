// Reads a bundle (a .tar.gz stream) whole into memory, within its limits, and checks it against
// its manifest before anything is written (docs/bundles.md, "Refusals"): a bad gzip or tar, an
// entry that is not a plain file, a name that is absolute or holds `..`, an entry over its limit,
// a missing manifest, an entry whose sha256 is not the manifest's. Any of them is 400
// invalid_bundle with its `reason`.
import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { extract } from "tar-stream";
import { fail, ServiceError } from "../errors.ts";
import {
  badEntryName,
  entryLimit,
  invalidBundle,
  MANIFEST,
  MAX_ENTRIES,
  readManifest,
  type Manifest,
} from "./format.ts";

export interface ReadLimits {
  /** The whole bundle, unpacked. */
  maxBytes: number;
  /** One media file. */
  mediaMaxBytes: number;
}

export interface ReadBundle {
  manifest: Manifest;
  /** Every entry but the manifest, by path. */
  entries: Map<string, Buffer>;
}

/** The entries of the archive, each checked as it arrives. */
async function unpack(body: Readable, limits: ReadLimits): Promise<Map<string, Buffer>> {
  const entries = new Map<string, Buffer>();
  let total = 0;
  let refusal: ServiceError | null = null;
  const tar = extract();
  // A refused entry is drained, and so is every entry after it: the archive is read to its end
  // (the body's limit bounds it) and the first refusal answered.
  tar.on("entry", (header, stream, next) => {
    const drain = () => {
      stream.on("end", () => next());
      stream.resume();
    };
    const refuse = (error: ServiceError) => {
      refusal ??= error;
      drain();
    };
    if (refusal || header.type === "directory") return drain();
    const name = header.name.replace(/^\.\//, "");
    const badName = badEntryName(name);
    if (badName) return refuse(invalidBundle(badName, { entry: header.name }));
    if (header.type !== "file" && header.type !== "contiguous-file")
      return refuse(invalidBundle("entry_type", { entry: name, type: header.type }));
    if (entries.has(name)) return refuse(invalidBundle("duplicate_entry", { entry: name }));
    if (entries.size >= MAX_ENTRIES) return refuse(invalidBundle("too_many_entries", { max_entries: MAX_ENTRIES }));
    const limit = entryLimit(name, limits.mediaMaxBytes);
    if (header.size > limit) return refuse(invalidBundle("oversize_entry", { entry: name, max_bytes: limit }));
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on("data", (chunk: unknown) => {
      if (!Buffer.isBuffer(chunk) || refusal) return;
      size += chunk.length;
      total += chunk.length;
      if (size > limit) refusal = invalidBundle("oversize_entry", { entry: name, max_bytes: limit });
      else if (total > limits.maxBytes) refusal = tooLarge(limits.maxBytes);
      else chunks.push(chunk);
    });
    stream.on("end", () => {
      if (!refusal) entries.set(name, Buffer.concat(chunks));
      next();
    });
  });
  try {
    await pipeline(body, createGunzip(), tar);
    if (refusal) throw refusal;
  } catch (error) {
    if (refusal) throw refusal;
    if (error instanceof ServiceError) throw error;
    const code = (error as { code?: string }).code ?? "";
    if (code.startsWith("Z_") || code === "ERR_ZLIB") throw invalidBundle("bad_gzip", {}, "The body is not gzip.");
    throw invalidBundle("bad_tar", {}, `The archive is not a tar file: ${(error as Error).message}`);
  }
  return entries;
}

function tooLarge(maxBytes: number) {
  return fail("body_too_large", { max_bytes: maxBytes }, `A bundle may unpack to at most ${maxBytes} bytes.`);
}

function sha256(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Reads and checks a whole bundle: every entry listed in the manifest with its sha256, none else. */
export async function readBundle(body: Readable, limits: ReadLimits): Promise<ReadBundle> {
  const entries = await unpack(body, limits);
  const manifestBytes = entries.get(MANIFEST);
  if (!manifestBytes) throw invalidBundle("missing_manifest", {}, "The bundle has no manifest.json.");
  entries.delete(MANIFEST);
  const manifest = readManifest(manifestBytes, entries);
  for (const [path, bytes] of entries) {
    const listed = manifest.entries[path];
    if (listed === undefined) throw invalidBundle("unlisted_entry", { entry: path });
    if (sha256(bytes) !== listed) throw invalidBundle("sha256_mismatch", { entry: path });
  }
  for (const path of Object.keys(manifest.entries))
    if (!entries.has(path)) throw invalidBundle("missing_entry", { entry: path });
  return { manifest, entries };
}

// Reads a backup file (format.ts) into a folder of its own, checking it on the way: gzip and tar
// that read to their end, only entry names a backup writes (so none is absolute or holds `..`),
// plain files only, none twice, and at the end a manifest of a format this svc reads whose sha256
// and size match every entry, with nothing missing or extra. Anything else is `invalid_backup`
// with its reason; the caller removes the folder, so nothing of a refused file stays.
import { createHash } from "node:crypto";
import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { extract as tarExtract } from "tar-stream";
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  DATABASE_ENTRY,
  entryKind,
  MANIFEST_ENTRY,
  MANIFEST_MAX_BYTES,
  type BackupManifest,
  type EntryDigest,
} from "./format.ts";
import { BackupRefusal, invalidBackup } from "./refusal.ts";

/** Streams an entry into `path`, hashing it. */
async function writeEntry(entry: Readable, path: string): Promise<EntryDigest> {
  await mkdir(dirname(path), { recursive: true });
  const hash = createHash("sha256");
  const out = createWriteStream(path, { flags: "wx", mode: 0o644 });
  let bytes = 0;
  for await (const chunk of entry) {
    bytes += chunk.length;
    hash.update(chunk);
    if (!out.write(chunk)) await once(out, "drain");
  }
  out.end();
  await once(out, "close");
  return { sha256: hash.digest("hex"), bytes };
}

async function readManifest(entry: Readable): Promise<unknown> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of entry) {
    bytes += chunk.length;
    if (bytes > MANIFEST_MAX_BYTES) throw invalidBackup(`${MANIFEST_ENTRY} is larger than ${MANIFEST_MAX_BYTES} bytes`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw invalidBackup(`${MANIFEST_ENTRY} is not JSON`);
  }
}

/** Unpacks the backup `file` into `folder` (empty, made by the caller); its manifest once every check passed. */
export async function unpackBackup(file: string, folder: string): Promise<BackupManifest> {
  const extract = tarExtract();
  const feeding = pipeline(createReadStream(file), createGunzip(), extract);
  feeding.catch(() => undefined);
  const unpacked: Record<string, EntryDigest> = {};
  let manifest: unknown;
  try {
    for await (const entry of extract) {
      const { name, type } = entry.header;
      if (type !== "file") throw invalidBackup(`the entry ${JSON.stringify(name)} is a ${type}, not a file`);
      if (name in unpacked || (name === MANIFEST_ENTRY && manifest !== undefined))
        throw invalidBackup(`the entry ${JSON.stringify(name)} is there twice`);
      if (name === MANIFEST_ENTRY) manifest = await readManifest(entry as unknown as Readable);
      else if (entryKind(name) === undefined)
        throw invalidBackup(`the entry ${JSON.stringify(name)} is no file a backup holds`, { entry: name });
      else unpacked[name] = await writeEntry(entry as unknown as Readable, join(folder, name));
    }
    await feeding;
  } catch (error) {
    extract.destroy();
    if (error instanceof BackupRefusal) throw error;
    const code = (error as NodeJS.ErrnoException)?.code;
    if (code === "ENOENT" || code === "EISDIR") throw invalidBackup(`no backup file at ${file}`);
    throw invalidBackup(`not a whole gzip-compressed tar: ${(error as Error)?.message ?? String(error)}`);
  }
  return checkedManifest(manifest, unpacked);
}

function checkedManifest(value: unknown, unpacked: Record<string, EntryDigest>): BackupManifest {
  if (value === undefined) throw invalidBackup(`no ${MANIFEST_ENTRY}`);
  const manifest = value as Partial<BackupManifest>;
  if (typeof manifest !== "object" || manifest === null || manifest.format !== BACKUP_FORMAT)
    throw invalidBackup(`${MANIFEST_ENTRY} is not the manifest of a ${BACKUP_FORMAT} file`);
  const version = manifest.format_version;
  if (typeof version !== "number" || !Number.isInteger(version) || version < 1)
    throw invalidBackup(`${MANIFEST_ENTRY} has no format_version`);
  if (version > BACKUP_FORMAT_VERSION)
    throw invalidBackup(
      `format version ${version} is newer than this svc reads (${BACKUP_FORMAT_VERSION}): update svc`,
    );
  const listed = manifest.entries;
  if (typeof listed !== "object" || listed === null) throw invalidBackup(`${MANIFEST_ENTRY} lists no entries`);
  for (const [name, digest] of Object.entries(unpacked)) {
    const expected = listed[name];
    if (expected === undefined) throw invalidBackup(`the entry ${name} is not in ${MANIFEST_ENTRY}`, { entry: name });
    if (expected.sha256 !== digest.sha256 || expected.bytes !== digest.bytes)
      throw invalidBackup(`the entry ${name} does not match its sha256 in ${MANIFEST_ENTRY}`, { entry: name });
  }
  for (const name of Object.keys(listed))
    if (!(name in unpacked)) throw invalidBackup(`the entry ${name} of ${MANIFEST_ENTRY} is missing`, { entry: name });
  if (!(DATABASE_ENTRY in unpacked)) throw invalidBackup(`no ${DATABASE_ENTRY}`);
  return manifest as BackupManifest;
}

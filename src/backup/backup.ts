// `svc backup <file>`: the data directory (SVC_DATA_DIR) in one file while the service serves and
// writes (docs/backups.md). The database is copied first, as it stood at one moment (SQLite's
// online backup API, sqlite-copy.ts); then the media files that copy names are packed with it.
//
// Why the pair is consistent: a blob is stored under the sha256 of its bytes and never changes
// under that name (src/blobs/blob-store.ts); a media row is committed only once its blob is whole
// in the store, and a blob is removed only after the last row naming it is gone
// (src/media/blob-claims.ts). So every blob the copy names was in the store when the copy was
// taken, with the bytes it has now, and is still there unless a delete committed since. That
// delete is the one way a named file can be missing; then the copy is taken again (the row is gone
// from the new one), up to ATTEMPTS times. Files uploaded after the copy are left out: nothing in
// it names them.
import { existsSync } from "node:fs";
import { mkdtemp, readdir, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { isDerivedName } from "../blobs/blob-store.ts";
import { blobFile, derivedFile, derivedFolder } from "../blobs/fs-layout.ts";
import { ArchiveWriter } from "./archive-writer.ts";
import { dataDirectoryOf, type DataDirectory } from "./data-directory.ts";
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  DATABASE_ENTRY,
  MANIFEST_ENTRY,
  mediaEntry,
  type BackupManifest,
} from "./format.ts";
import { BackupRefusal } from "./refusal.ts";
import { blobsNamedBy, snapshotDatabase } from "./sqlite-copy.ts";

/** Copies taken before giving up: each retry follows a media delete committed during the one before. */
const ATTEMPTS = 5;

export interface BackupOptions {
  env: Record<string, string | undefined>;
  /** The backup file to write (absolute). */
  file: string;
  /** Replace a file already there. */
  force: boolean;
  /** Runs after each database copy, before its media are packed: tests commit a delete there. */
  afterCopy?: () => Promise<void>;
}

export interface BackupSummary {
  file: string;
  data_dir: string;
  database_bytes: number;
  media_files: number;
  derived_files: number;
  /** Database copies taken (more than 1 when media were deleted while one was packed). */
  attempts: number;
}

type Packed = { manifest: BackupManifest; archive: string } | { missing: string };

export async function backupDataDirectory(options: BackupOptions): Promise<BackupSummary> {
  const directory = dataDirectoryOf(options.env);
  if (existsSync(options.file) && !options.force)
    throw new BackupRefusal("backup_exists", `${options.file} exists: name a new file, or add --force to replace it`, {
      file: options.file,
    });
  // Beside the backup file: the archive is renamed into place whole, on the same file system.
  const work = await mkdtemp(join(dirname(options.file), `.${basename(options.file)}.`));
  try {
    let missing = "";
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const packed = await packOnce(directory, work, options.afterCopy);
      if ("missing" in packed) {
        missing = packed.missing;
        continue;
      }
      await rename(packed.archive, options.file);
      const { manifest } = packed;
      return {
        file: options.file,
        data_dir: directory.root,
        database_bytes: manifest.entries[DATABASE_ENTRY].bytes,
        media_files: manifest.counts.media_files,
        derived_files: manifest.counts.derived_files,
        attempts: attempt,
      };
    }
    throw new BackupRefusal(
      "backup_unsettled",
      `the media file ${missing}, named by the database, was missing from ${directory.media} in each of ${ATTEMPTS} copies: if deletes are not under way, it is lost from the store; nothing was written`,
      { sha256: missing },
    );
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** The names of a blob's derived files, in order; none when it has none. */
async function derivedNames(mediaRoot: string, sha256: string): Promise<string[]> {
  try {
    return (await readdir(join(mediaRoot, derivedFolder(sha256)))).filter(isDerivedName).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException)?.code === "ENOENT") return [];
    throw error;
  }
}

/** One copy of the database and its media in an archive; `missing` when a named blob was deleted meanwhile. */
async function packOnce(directory: DataDirectory, work: string, afterCopy?: () => Promise<void>): Promise<Packed> {
  const database = join(work, DATABASE_ENTRY);
  const archive = join(work, "backup.tar.gz");
  await rm(database, { force: true });
  await snapshotDatabase(directory.database, database);
  await afterCopy?.();
  const named = await blobsNamedBy(database);
  const writer = new ArchiveWriter(archive);
  try {
    await writer.addFile(DATABASE_ENTRY, database);
    let derived = 0;
    for (const sha256 of named) {
      if (!(await writer.addFile(mediaEntry(blobFile(sha256)), join(directory.media, blobFile(sha256))))) {
        await writer.abort();
        return { missing: sha256 };
      }
      for (const name of await derivedNames(directory.media, sha256)) {
        const relative = derivedFile(sha256, name);
        // A variant removed with its blob meanwhile is made again on request: nothing is lost.
        if (await writer.addFile(mediaEntry(relative), join(directory.media, relative))) derived++;
      }
    }
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      format_version: BACKUP_FORMAT_VERSION,
      created_at_gmt: new Date().toISOString(),
      source: { data_dir: directory.root, database: "sqlite" },
      counts: { media_files: named.length, derived_files: derived },
      entries: writer.entries,
    };
    await writer.addJson(MANIFEST_ENTRY, manifest);
    await writer.finish();
    return { manifest, archive };
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

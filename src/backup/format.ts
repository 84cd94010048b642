// What a backup file holds (docs/backups.md, "The file"): a gzip-compressed tar of
//   svc.db                         the SQLite database, an online backup of the live one
//   media/<layout of blobs/fs-layout.ts>   the media files that database names, with their variants
//   manifest.json                  last: the format, counts and the sha256 and size of every other entry
// The manifest comes last because each file's sha256 is taken as it is packed, so every file is
// read once; a restore reads the whole file before it moves anything into place anyway.
import { storedFileAt, MEDIA_FOLDER, type StoredFile } from "../blobs/fs-layout.ts";
import { SQLITE_FILE } from "../store/sqlite-file.ts";

export const BACKUP_FORMAT = "svc-backup";
/** Raised when what a backup holds changes; a restore refuses a newer version than it knows. */
export const BACKUP_FORMAT_VERSION = 1;
export const MANIFEST_ENTRY = "manifest.json";
export const DATABASE_ENTRY = SQLITE_FILE;
/** The manifest is a few hundred bytes per media file; past this it is no manifest of ours. */
export const MANIFEST_MAX_BYTES = 256 * 1024 * 1024;

export interface EntryDigest {
  sha256: string;
  bytes: number;
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  format_version: number;
  created_at_gmt: string;
  /** The data directory it was taken from (for the reader; a restore goes wherever SVC_DATA_DIR says). */
  source: { data_dir: string; database: "sqlite" };
  counts: { media_files: number; derived_files: number };
  /** Every entry but the manifest, by its name in the archive. */
  entries: Record<string, EntryDigest>;
}

/** An entry's name for a stored media file. */
export function mediaEntry(relative: string): string {
  return `${MEDIA_FOLDER}/${relative}`;
}

/** What an entry name holds: the database, a media file, or nothing a backup writes (undefined). */
export function entryKind(name: string): { database: true } | { media: StoredFile } | undefined {
  if (name === DATABASE_ENTRY) return { database: true };
  const prefix = `${MEDIA_FOLDER}/`;
  if (!name.startsWith(prefix)) return undefined;
  const media = storedFileAt(name.slice(prefix.length));
  return media ? { media } : undefined;
}

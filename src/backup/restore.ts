// `svc restore <file>`: a backup (backup.ts) into the empty data directory named by SVC_DATA_DIR,
// for the service to start on (docs/backups.md). A folder that holds anything is refused: a restore
// never mixes a backup with what is there. The file is unpacked into a folder of its own inside the
// data directory and checked whole (archive-reader.ts: names, sha256s; then SQLite's integrity
// check of the database) before anything moves into place; a refused file leaves the directory
// as empty as it was.
import { existsSync, statSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { MEDIA_FOLDER } from "../blobs/fs-layout.ts";
import { unpackBackup } from "./archive-reader.ts";
import { dataDirectoryOf } from "./data-directory.ts";
import { DATABASE_ENTRY } from "./format.ts";
import { BackupRefusal, invalidBackup } from "./refusal.ts";
import { integrityProblems } from "./sqlite-copy.ts";

export interface RestoreOptions {
  env: Record<string, string | undefined>;
  /** The backup file to read (absolute). */
  file: string;
}

export interface RestoreSummary {
  file: string;
  data_dir: string;
  database_bytes: number;
  media_files: number;
  derived_files: number;
  created_at_gmt: string;
}

async function requireEmpty(root: string): Promise<void> {
  if (existsSync(root) && !statSync(root).isDirectory())
    throw new BackupRefusal("data_dir_not_empty", `SVC_DATA_DIR ${root} is a file, not a folder`, { data_dir: root });
  const held = existsSync(root) ? await readdir(root) : [];
  if (held.length > 0)
    throw new BackupRefusal(
      "data_dir_not_empty",
      `SVC_DATA_DIR ${root} holds ${held.length} file${held.length > 1 ? "s or folders" : " or folder"} (${held.slice(0, 3).join(", ")}${held.length > 3 ? ", …" : ""}); a restore goes into an empty folder only: name a new one, or move these away`,
      { data_dir: root, held: held.slice(0, 20) },
    );
}

export async function restoreDataDirectory(options: RestoreOptions): Promise<RestoreSummary> {
  const directory = dataDirectoryOf(options.env);
  if (!existsSync(options.file) || !statSync(options.file).isFile())
    throw invalidBackup(`no backup file at ${options.file}`);
  await requireEmpty(directory.root);
  await mkdir(directory.root, { recursive: true });
  const unpacked = await mkdtemp(join(directory.root, ".restore-"));
  try {
    const manifest = await unpackBackup(options.file, unpacked);
    const problems = await integrityProblems(join(unpacked, DATABASE_ENTRY));
    if (problems.length > 0)
      throw invalidBackup(`the database fails SQLite's integrity check: ${problems.slice(0, 3).join("; ")}`);
    // The media first, the database last: a data directory with its database is a whole one.
    if (existsSync(join(unpacked, MEDIA_FOLDER))) await rename(join(unpacked, MEDIA_FOLDER), directory.media);
    await rename(join(unpacked, DATABASE_ENTRY), directory.database);
    return {
      file: options.file,
      data_dir: directory.root,
      database_bytes: manifest.entries[DATABASE_ENTRY].bytes,
      media_files: manifest.counts?.media_files ?? 0,
      derived_files: manifest.counts?.derived_files ?? 0,
      created_at_gmt: manifest.created_at_gmt,
    };
  } catch (error) {
    // Whatever moved into place goes too: the directory is left as empty as it was found.
    await rm(directory.media, { recursive: true, force: true });
    throw error;
  } finally {
    await rm(unpacked, { recursive: true, force: true });
  }
}

// The database side of a backup: a copy of the live SQLite file taken with SQLite's online backup
// API while the service writes, what that copy names of the media store, and SQLite's own check of
// a copy. better-sqlite3 is loaded here, on first use, so the svc command's other commands never load it.
import { existsSync } from "node:fs";
import type SQLiteDatabase from "better-sqlite3";
import { BackupRefusal } from "./refusal.ts";

type Open = typeof SQLiteDatabase;

async function sqlite(): Promise<Open> {
  return (await import("better-sqlite3")).default;
}

/** The most pages better-sqlite3 lets one backup step copy: all of them. */
const ALL_PAGES = 0x7fffffff;

/**
 * Copies the live database at `source` into the new file `target`, as it stood at one moment.
 * One step copies every page in one read transaction: the copy is one committed state (WAL lets the
 * service keep writing meanwhile). Copied in small steps instead, each write the service commits
 * between two steps restarts the copy, which under a steady stream of writes may never end.
 */
export async function snapshotDatabase(source: string, target: string): Promise<void> {
  if (!existsSync(source))
    throw new BackupRefusal("no_database", `no database at ${source}: is SVC_DATA_DIR the service's data directory?`, {
      database: source,
    });
  const SQLite = await sqlite();
  // Read-write, as the service's own connections are: a read-only one cannot open a WAL database
  // whose -shm file is gone (the service stopped). It writes nothing.
  const live = new SQLite(source, { fileMustExist: true, timeout: 5000 });
  try {
    await live.backup(target, { progress: () => ALL_PAGES });
  } finally {
    live.close();
  }
  // The copy carries the live file's WAL mode; without it the copy is one file that stands alone
  // (the service turns WAL on again when it opens it).
  const copy = new SQLite(target, { fileMustExist: true });
  try {
    copy.pragma("journal_mode = DELETE");
  } finally {
    copy.close();
  }
}

/** The blobs the database's media rows name (docs/media.md, "Records"): the media files it needs. */
export async function blobsNamedBy(database: string): Promise<string[]> {
  const SQLite = await sqlite();
  const copy = new SQLite(database, { readonly: true, fileMustExist: true });
  try {
    return copy.prepare("select distinct sha256 from media order by sha256").pluck().all() as string[];
  } finally {
    copy.close();
  }
}

/** SQLite's `pragma integrity_check` of a database file: [] when it is whole, else what it found. */
export async function integrityProblems(database: string): Promise<string[]> {
  const SQLite = await sqlite();
  let copy: SQLiteDatabase.Database;
  try {
    copy = new SQLite(database, { readonly: true, fileMustExist: true });
  } catch (error) {
    return [error instanceof Error ? error.message : String(error)];
  }
  try {
    const found = copy.pragma("integrity_check", { simple: false }) as { integrity_check: string }[];
    return found.map((row) => row.integrity_check).filter((line) => line !== "ok");
  } catch (error) {
    return [error instanceof Error ? error.message : String(error)];
  } finally {
    copy.close();
  }
}

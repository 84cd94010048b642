// Where the SQLite database lives in the data directory (SVC_DATA_DIR): one file, with SQLite's
// `-wal` and `-shm` beside it while a process has it open. The store opens it (database.ts) and
// `svc backup` / `svc restore` copy it (src/backup/, docs/backups.md).
import { join } from "node:path";

export const SQLITE_FILE = "svc.db";

/** The database file of a data directory. */
export function sqlitePath(dataDir: string): string {
  return join(dataDir, SQLITE_FILE);
}

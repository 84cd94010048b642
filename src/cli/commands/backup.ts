// `svc backup <file>` and `svc restore <file>` (docs/backups.md): the only commands that work on
// this machine's data directory (SVC_DATA_DIR) rather than through the service's API, since a
// consistent copy of a live SQLite file is SQLite's to take. The work is src/backup/'s; this file
// turns its refusals into the CLI's (exit 1) and prints the summary.
import { resolve } from "node:path";
import type { BackupSummary } from "../../backup/backup.ts";
import type { RestoreSummary } from "../../backup/restore.ts";
import { BackupRefusal } from "../../backup/refusal.ts";
import { CliError, usage } from "../errors.ts";
import type { Output } from "../output.ts";

export interface LocalIo {
  env: NodeJS.ProcessEnv;
  cwd: string;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

async function refusalsOf<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof BackupRefusal && error.code === "bad_config") throw usage(error.message);
    if (error instanceof BackupRefusal)
      throw new CliError(1, `${error.code}: ${error.message}`, [], { code: error.code, ...error.details });
    throw error;
  }
}

export async function backupCommand(file: string, force: boolean, io: LocalIo, out: Output): Promise<number> {
  const { backupDataDirectory } = await import("../../backup/backup.ts");
  const summary: BackupSummary = await refusalsOf(() =>
    backupDataDirectory({ env: io.env, file: resolve(io.cwd, file), force }),
  );
  out.line(
    `backup ${summary.file}: ${summary.data_dir} (database ${megabytes(summary.database_bytes)}, ${summary.media_files} media files, ${summary.derived_files} variants)`,
  );
  if (summary.attempts > 1)
    out.note(`media were deleted while the backup ran: the database was copied ${summary.attempts} times`);
  out.document({ ok: true, command: "backup", ...summary });
  return 0;
}

export async function restoreCommand(file: string, io: LocalIo, out: Output): Promise<number> {
  const { restoreDataDirectory } = await import("../../backup/restore.ts");
  const summary: RestoreSummary = await refusalsOf(() =>
    restoreDataDirectory({ env: io.env, file: resolve(io.cwd, file) }),
  );
  out.line(
    `restore ${summary.data_dir}: from ${summary.file}, taken ${summary.created_at_gmt} (database ${megabytes(summary.database_bytes)}, ${summary.media_files} media files, ${summary.derived_files} variants)`,
  );
  out.note("next: start the service with this SVC_DATA_DIR");
  out.document({ ok: true, command: "restore", ...summary });
  return 0;
}

// Why `svc backup` or `svc restore` stopped: a code, a message naming what to do, and details for
// --json. The svc command prints it as its refusal (src/cli/commands/backup.ts, exit 1); these
// commands work on the local data directory, not through the service, so the service's error
// catalogue (src/errors.ts) is not theirs.
export type RefusalCode =
  | "bad_config"
  | "postgres_database"
  | "s3_media"
  | "no_database"
  | "backup_exists"
  | "backup_unsettled"
  | "data_dir_not_empty"
  | "invalid_backup";

export class BackupRefusal extends Error {
  override readonly name = "BackupRefusal";
  // Fields, not parameter properties: `npm run svc` runs this file by Node's type stripping.
  readonly code: RefusalCode;
  readonly details: Record<string, unknown>;

  constructor(code: RefusalCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.code = code;
    this.details = details;
  }
}

/** A backup file that cannot be restored as it is: nothing was written to the data directory. */
export function invalidBackup(reason: string, details: Record<string, unknown> = {}): BackupRefusal {
  return new BackupRefusal(
    "invalid_backup",
    `the backup cannot be restored (${reason}); the data directory was left as it was`,
    { reason, ...details },
  );
}

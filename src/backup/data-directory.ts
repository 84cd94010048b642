// The data directory `svc backup` and `svc restore` work on: the service's own SVC_DATA_DIR, read
// with the service's configuration (src/config.ts), so both name the folder the service would open.
// Only a SQLite database with media on the file system lives there whole; PostgreSQL and S3 keep
// theirs elsewhere and are backed up with their own tools (docs/backups.md).
import { join } from "node:path";
import { ConfigError, loadConfig, type Config } from "../config.ts";
import { MEDIA_FOLDER } from "../blobs/fs-layout.ts";
import { sqlitePath } from "../store/sqlite-file.ts";
import { BackupRefusal } from "./refusal.ts";

export interface DataDirectory {
  root: string;
  database: string;
  media: string;
}

/** The data directory of this environment; `bad_config` on a variable the service would stop on. */
export function dataDirectoryOf(env: Record<string, string | undefined>): DataDirectory {
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) throw new BackupRefusal("bad_config", error.message);
    throw error;
  }
  if (config.databaseUrl !== null)
    throw new BackupRefusal(
      "postgres_database",
      "DATABASE_URL names a PostgreSQL database: back it up with pg_dump and the media folder with tar (docs/backups.md, PostgreSQL)",
    );
  if (config.mediaS3 !== null)
    throw new BackupRefusal(
      "s3_media",
      "SVC_MEDIA_S3_BUCKET keeps media in a bucket, outside the data directory: copy the bucket with your storage's tools (docs/backups.md)",
    );
  return { root: config.dataDir, database: sqlitePath(config.dataDir), media: join(config.dataDir, MEDIA_FOLDER) };
}

// Opens the store: embedded SQLite by default, PostgreSQL when DATABASE_URL names one.
// Services see only Kysely<Tables>; the dialect matters to migrations and a few error mappings.
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Kysely, PostgresDialect, PostgresAdapter } from "kysely";
import SQLite from "better-sqlite3";
// Type only: pg is loaded where a PostgreSQL store is opened, so a SQLite process never loads it.
import type pg from "pg";
import type { Tables } from "./schema.ts";
import { migrate } from "./migrations.ts";
import { keepReadsOf } from "./kept-reads.ts";
import { ReusedStatements } from "./sqlite-statements.ts";
import { RoutedSqliteDialect } from "./sqlite-driver.ts";
import { SQLITE_FILE } from "./sqlite-file.ts";
import type { DbOptions } from "../config.ts";

export type Dialect = "sqlite" | "postgres";
export type Db = Kysely<Tables>;

/**
 * A database of any table map: the typed `Db` and the migration runner's untyped one (migrations
 * build tables that the row types do not know yet), for the helpers both use.
 */
// biome-ignore lint/suspicious/noExplicitAny: Kysely's own type for a database whose tables are not declared (its migration API takes it)
export type AnyDb = Kysely<any>;

export interface Store {
  db: Db;
  dialect: Dialect;
  /** PostgreSQL only (null on SQLite): the pool behind `db` (rate limits share it) and the
   * settings of one dedicated connection (the LISTEN session of cross-process invalidation). */
  postgres: PostgresHandles | null;
  /** Answers true when the database answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** Whether a database (or transaction) speaks to PostgreSQL. */
export function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export interface PostgresHandles {
  pool: pg.Pool;
  clientConfig: pg.ClientConfig;
}

export interface StoreOptions {
  dataDir: string;
  databaseUrl: string | null;
  /** PostgreSQL pool, timeout and TLS settings; defaults when absent. */
  db?: DbOptions;
  /** SQLite file name inside dataDir; tests may pass ":memory:". */
  sqliteFile?: string;
}

export async function openStore(options: StoreOptions): Promise<Store> {
  const store = options.databaseUrl ? await openPostgres(options.databaseUrl, options.db) : openSqlite(options);
  await migrate(store.db, store.dialect);
  return store;
}

function openSqlite(options: StoreOptions): Store {
  const file = options.sqliteFile ?? SQLITE_FILE;
  let path = file;
  if (file !== ":memory:") {
    mkdirSync(options.dataDir, { recursive: true });
    path = join(options.dataDir, file);
  }
  const database = new SQLite(path);
  database.pragma("journal_mode = WAL");
  database.pragma("foreign_keys = ON");
  database.pragma("synchronous = NORMAL");
  database.pragma("busy_timeout = 5000");
  const statements = new ReusedStatements(database);
  // Reads from outside a write's open transaction go to a second, read-only connection (WAL).
  const reader = path === ":memory:" ? null : new ReusedStatements(new SQLite(path, { readonly: true, timeout: 5000 }));
  const db = new Kysely<Tables>({ dialect: new RoutedSqliteDialect(statements, reader) });
  keepReadsOf(db, statements);
  return {
    db,
    dialect: "sqlite",
    postgres: null,
    async ping() {
      try {
        database.prepare("select 1").get();
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await db.destroy();
    },
  };
}

const DEFAULT_DB: DbOptions = {
  poolMax: 10,
  statementTimeoutMs: 15_000,
  connectTimeoutMs: 5_000,
  ssl: "disable",
  sslCaFile: null,
};

function sslOf(options: DbOptions): pg.PoolConfig["ssl"] {
  if (options.ssl === "disable") return undefined;
  const ca = options.sslCaFile ? readFileSync(options.sslCaFile, "utf8") : undefined;
  return options.ssl === "require" ? { rejectUnauthorized: false, ca } : { rejectUnauthorized: true, ca };
}

/** One connection's settings: address, statement timeout, connect timeout and TLS. */
function clientConfigOf(url: string, options: DbOptions): pg.ClientConfig {
  return {
    connectionString: url,
    statement_timeout: options.statementTimeoutMs || undefined,
    connectionTimeoutMillis: options.connectTimeoutMs,
    ssl: sslOf(options),
  };
}

async function openPostgres(url: string, options: DbOptions = DEFAULT_DB): Promise<Store> {
  const { default: pg } = await import("pg");
  const clientConfig = clientConfigOf(url, options);
  const pool = new pg.Pool({ ...clientConfig, max: options.poolMax });
  // A connection the server dropped must not crash the process: the pool discards idle ones,
  // and a checked-out client's query fails through its own callback; the event itself is noise.
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: "postgres",
    postgres: { pool, clientConfig },
    async ping() {
      try {
        await pool.query("select 1");
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await db.destroy();
    },
  };
}

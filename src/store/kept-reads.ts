// Answers read from the database, kept until the database changes.
//
// On SQLite the service is the only writer through its connection, and SQLite says cheaply
// whether anything changed: `total_changes()` counts every row this connection inserted, updated
// or deleted (rolled back ones included, which only costs a needless re-read), and
// `data_version` moves when another connection commits. Together they are the change stamp.
// total_changes() is read on every call (0.1 µs); data_version reads the WAL index (1.6 µs), so
// it is read once per turn of the event loop: a commit of another connection (there is none in
// service, only tools and tests) shows from the next turn on, as if it came a moment later. An
// answer kept under one stamp is used only while the stamp is the same; the first call that sees
// another stamp drops every kept answer.
//
// Why this is exact: a kept answer is computed after its stamp was read, so it is at least as
// new as the stamp says; Kysely runs one query at a time on the connection, so the computation
// never sees a transaction half done. Inside a transaction, and on PostgreSQL (other processes
// write the same database and nothing says so cheaply), nothing is kept: every call computes.
//
// Kept answers are shared between calls: read them, never change them.
import type SQLite from "better-sqlite3";
import type { Db } from "./database.ts";

/** Bytes of kept answers per database (by the weights callers give); beyond, the oldest go first. */
export const KEPT_READS_BUDGET = 32 * 1024 * 1024;
const DEFAULT_WEIGHT = 256;

interface Kept {
  // Two statements: `select … from pragma_data_version` costs more than both together (4 µs
  // against 1.7 µs, most of it data_version reading the WAL index).
  changesStatement: SQLite.Statement<[], number>;
  versionStatement: SQLite.Statement<[], number>;
  changes: number;
  version: number;
  /** data_version as read in this turn of the event loop. */
  latestVersion: number;
  versionRead: boolean;
  answers: Map<string, { value: unknown; weight: number }>;
  weight: number;
}

const kept = new WeakMap<Db, Kept>();

/** Called by the store when it opens SQLite: `db` reads through `database`. */
export function keepReadsOf(db: Db, database: SQLite.Database): void {
  const changesStatement = database.prepare("select total_changes()").pluck() as SQLite.Statement<[], number>;
  const versionStatement = database.prepare("pragma data_version").pluck() as SQLite.Statement<[], number>;
  kept.set(db, { changesStatement, versionStatement, changes: -1, version: -1, latestVersion: -1, versionRead: false, answers: new Map(), weight: 0 });
}

/** The kept answers of `db`, dropped first when its change stamp moved; null where nothing is kept. */
function current(db: Db): Kept | null {
  if (db.isTransaction) return null;
  const store = kept.get(db);
  if (!store) return null;
  const changes = store.changesStatement.get()!;
  if (!store.versionRead) {
    store.versionRead = true;
    setImmediate(() => (store.versionRead = false));
    store.latestVersion = store.versionStatement.get()!;
  }
  const version = store.latestVersion;
  if (changes !== store.changes || version !== store.version) {
    store.changes = changes;
    store.version = version;
    store.answers.clear();
    store.weight = 0;
  }
  return store;
}

export interface KeepOptions<V> {
  /** About how many bytes the answer holds (default 256). */
  weight?: (value: V) => number;
  /** Whether to keep this answer (default: every answer). */
  keep?: (value: V) => boolean;
}

/**
 * The answer of `compute` for `key`, computed again only after the database changed. `key` must
 * name everything the answer depends on besides the database (site, reference, caller, …).
 */
export async function keptUntilWrite<V>(db: Db, key: string, compute: () => Promise<V>, options: KeepOptions<V> = {}): Promise<V> {
  const store = current(db);
  if (!store) return compute();
  const { changes, version } = store;
  const hit = store.answers.get(key);
  if (hit) return hit.value as V;
  const value = await compute();
  // Another call may have seen a newer stamp meanwhile: then this answer belongs to no one.
  if (store.changes !== changes || store.version !== version || store.answers.has(key) || (options.keep && !options.keep(value))) return value;
  const weight = options.weight ? options.weight(value) : DEFAULT_WEIGHT;
  if (weight > KEPT_READS_BUDGET / 4) return value;
  store.answers.set(key, { value, weight });
  store.weight += weight;
  for (const [oldest, entry] of store.answers) {
    if (store.weight <= KEPT_READS_BUDGET) break;
    store.answers.delete(oldest);
    store.weight -= entry.weight;
  }
  return value;
}

// Answers read from the database, kept until the database changes.
//
// On SQLite the service is the only writer through its connection, and what changed is cheap
// to know:
// - the store counts the writing statements it runs (`ReusedStatements.writes`, a number in
//   memory), checked on every call;
// - once per turn of the event loop, SQLite is asked too: `total_changes()` counts every row this
//   connection changed (a write outside the store's query builder), and `data_version` moves when
//   another connection commits (tools and tests; the service runs one process on SQLite). Such a
//   write shows from the next turn on, as if it came a moment later. Asking on every call would
//   cost 2 µs, more than the rest of a kept read.
// An answer is kept only until the first call that sees any of them move; that call drops every
// kept answer. Rolled-back writes count too, which only costs a needless read.
//
// Why this is exact: a kept answer is computed after the check before it, so it is at least as
// new as what the check saw. While a write's transaction is open, reads from outside it run on
// the read-only connection (sqlite-driver.ts) and see only what was committed; the commit counts
// as a write, so an answer read before it is dropped by the next call. Inside a transaction, and on PostgreSQL (other
// processes write the same database and nothing says so cheaply), nothing is kept.
//
// Kept answers are shared between calls: read them, never change them.
import type SQLite from "better-sqlite3";
import type { Db } from "./database.ts";
import type { ReusedStatements } from "./sqlite-statements.ts";

/** Bytes of kept answers per database (by the weights callers give); beyond, the oldest go first. */
export const KEPT_READS_BUDGET = 32 * 1024 * 1024;
const DEFAULT_WEIGHT = 256;

interface Kept {
  statements: ReusedStatements;
  // Two statements: `select total_changes(), data_version from pragma_data_version` costs more
  // than both together (4 µs against 1.7 µs).
  changesStatement: SQLite.Statement<[], number>;
  versionStatement: SQLite.Statement<[], number>;
  /** What the last check saw. */
  writes: number;
  changes: number;
  version: number;
  /** Whether SQLite was asked in this turn of the event loop. */
  askedThisTurn: boolean;
  /** Moves each time the kept answers are dropped. */
  generation: number;
  answers: Map<string, { value: unknown; weight: number }>;
  weight: number;
}

const kept = new WeakMap<Db, Kept>();

/** Called by the store when it opens SQLite: `db` runs its queries through `statements`. */
export function keepReadsOf(db: Db, statements: ReusedStatements): void {
  const changesStatement = statements.database.prepare("select total_changes()").pluck() as SQLite.Statement<
    [],
    number
  >;
  const versionStatement = statements.database.prepare("pragma data_version").pluck() as SQLite.Statement<[], number>;
  kept.set(db, {
    statements,
    changesStatement,
    versionStatement,
    writes: -1,
    changes: -1,
    version: -1,
    askedThisTurn: false,
    generation: 0,
    answers: new Map(),
    weight: 0,
  });
}

/** The kept answers of `db`, dropped first when anything was written; null where nothing is kept. */
function current(db: Db): Kept | null {
  if (db.isTransaction) return null;
  const store = kept.get(db);
  if (!store) return null;
  let moved = store.statements.writes !== store.writes;
  store.writes = store.statements.writes;
  if (!store.askedThisTurn) {
    store.askedThisTurn = true;
    setImmediate(() => (store.askedThisTurn = false));
    const changes = store.changesStatement.get()!;
    const version = store.versionStatement.get()!;
    if (changes !== store.changes || version !== store.version) moved = true;
    store.changes = changes;
    store.version = version;
  }
  if (moved) {
    store.generation++;
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

/** A value, or the promise of one: what a kept read answers (at once when it was kept). */
export type MaybePromise<V> = V | Promise<V>;

/** `then` of a value that may be a promise: applied at once to a value, after it to a promise. */
export function thenOf<V, W>(value: MaybePromise<V>, next: (value: V) => MaybePromise<W>): MaybePromise<W> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/**
 * The answer of `compute` for `key`, computed again only after the database changed. `key` must
 * name everything the answer depends on besides the database (site, reference, caller, …). A
 * kept answer comes back as it is, not in a promise: every API call reads its caller, role and
 * site this way, and each promise awaited is a turn of the microtask queue (bench/README.md,
 * "API reads").
 */
export function keptUntilWrite<V>(
  db: Db,
  key: string,
  compute: () => Promise<V>,
  options: KeepOptions<V> = {},
): MaybePromise<V> {
  const store = current(db);
  if (!store) return compute();
  const hit = store.answers.get(key);
  if (hit) return hit.value as V;
  return readAndKeep(store, key, compute, options);
}

async function readAndKeep<V>(
  store: Kept,
  key: string,
  compute: () => Promise<V>,
  options: KeepOptions<V>,
): Promise<V> {
  const { generation } = store;
  const value = await compute();
  // A call meanwhile may have seen a write and dropped the kept answers: then this one, read
  // before that write, belongs to no one.
  if (store.generation !== generation || store.answers.has(key) || (options.keep && !options.keep(value))) return value;
  keep(store, key, value, options.weight ? options.weight(value) : DEFAULT_WEIGHT);
  return value;
}

function keep(store: Kept, key: string, value: unknown, weight: number): void {
  if (weight > KEPT_READS_BUDGET / 4) return;
  store.answers.set(key, { value, weight });
  store.weight += weight;
  for (const [oldest, entry] of store.answers) {
    if (store.weight <= KEPT_READS_BUDGET) break;
    store.answers.delete(oldest);
    store.weight -= entry.weight;
  }
}

/** The answer kept for `key`, or undefined: never reads the database (nothing is kept on PostgreSQL). */
export function keptOnly<V>(db: Db, key: string): V | undefined {
  return current(db)?.answers.get(key)?.value as V | undefined;
}

/** Which kept answers are current: it moves at every write. Null where nothing is kept. */
export function keptGeneration(db: Db): number | null {
  return current(db)?.generation ?? null;
}

/**
 * Keeps `value`, made by a call that began at `generation` (keptGeneration), for `key` when nothing
 * was written since: an answer made across a write belongs to no one.
 */
export function keepSince(db: Db, key: string, generation: number, value: unknown, weight: number): void {
  const store = current(db);
  if (store && store.generation === generation && !store.answers.has(key)) keep(store, key, value, weight);
}

// Kysely's SQLite dialect with a second, read-only connection for reads that would otherwise wait
// for a transaction: no write holds other sites' requests.
//
// Kysely runs SQLite on one connection behind a mutex: while one write's transaction is open,
// every other query waits for it. A write's transaction can last (its render trial runs inside
// it, up to the render time budget), and meanwhile a page of another site, or any API read, would
// wait too. In WAL mode SQLite lets readers run while a writer holds its transaction, each
// reading the last committed state; that is what a read from outside the transaction must see.
// So while a transaction is open, a SELECT built by Kysely from outside it runs on the read-only
// connection; everything else (writes, raw SQL, the transaction's own statements) runs on the
// writing connection, one transaction or statement at a time as before. With no transaction
// open, everything runs on the writing connection at once (better-sqlite3 is synchronous: a
// statement runs whole before anything else does). An in-memory database has no second
// connection: there reads wait, as before.
import {
  CompiledQuery,
  SelectQueryNode,
  SqliteAdapter,
  SqliteDialect,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type SqliteStatement,
} from "kysely";
import type { AnyDb } from "./database.ts";
import type { ReusedStatements } from "./sqlite-statements.ts";

/**
 * Several connections, each handed out at once: the driver orders them itself. SQLite's schema
 * changes are transactional (Kysely's adapter says otherwise to be safe), so the migrator runs
 * the pending migrations in one transaction, as on PostgreSQL: a migration that fails leaves no
 * half-changed schema, and a first start commits once instead of once per statement.
 */
class RoutedSqliteAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }

  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/** The writing connection's turn: one transaction (or one waiting statement) at a time, first come first served. */
class WriterTurn {
  private held = false;
  private readonly waiting: Array<() => void> = [];

  get taken(): boolean {
    return this.held;
  }

  async take(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.held = false;
  }
}

function run(statements: ReusedStatements, query: CompiledQuery): QueryResult<unknown> {
  const statement: SqliteStatement = statements.prepare(query.sql);
  if (statement.reader) return { rows: statement.all(query.parameters) as unknown[] };
  const { changes, lastInsertRowid } = statement.run(query.parameters);
  return {
    insertId: lastInsertRowid != null ? BigInt(lastInsertRowid) : undefined,
    numAffectedRows: changes != null ? BigInt(changes) : undefined,
    rows: [],
  };
}

/** What Kysely holds for one query or one transaction. */
class Handle implements DatabaseConnection {
  inTransaction = false;
  /** The writer's count of writing statements when the transaction began. */
  writesAtBegin = 0;

  constructor(private readonly driver: RoutedSqliteDriver) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.execute(this, query) as Promise<QueryResult<R>>;
  }

  // biome-ignore lint/correctness/useYield: Kysely's Driver interface asks for a generator; SQLite streams nothing
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("streaming is not used on SQLite");
  }
}

class RoutedSqliteDriver implements Driver {
  constructor(
    private readonly writer: ReusedStatements,
    private readonly reader: ReusedStatements | null,
    private readonly turn: WriterTurn,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new Handle(this);
  }

  async execute(handle: Handle, query: CompiledQuery): Promise<QueryResult<unknown>> {
    if (handle.inTransaction || !this.turn.taken) return run(this.writer, query);
    if (this.reader !== null && SelectQueryNode.is(query.query)) return run(this.reader, query);
    // A write (or raw SQL) from outside the open transaction waits for it, as Kysely's mutex did.
    await this.turn.take();
    try {
      return run(this.writer, query);
    } finally {
      this.turn.give();
    }
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const handle = connection as Handle;
    await this.turn.take();
    try {
      run(this.writer, CompiledQuery.raw("begin"));
    } catch (error) {
      this.turn.give();
      throw error;
    }
    handle.inTransaction = true;
    handle.writesAtBegin = this.writer.writes;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const handle = connection as Handle;
    const wrote = this.writer.writes !== handle.writesAtBegin;
    // A failed commit is followed by Kysely's rollback, which ends the transaction.
    run(this.writer, CompiledQuery.raw("commit"));
    this.end(handle, wrote);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const handle = connection as Handle;
    const wrote = this.writer.writes !== handle.writesAtBegin;
    try {
      run(this.writer, CompiledQuery.raw("rollback"));
    } finally {
      this.end(handle, wrote);
    }
  }

  /**
   * What the transaction wrote is visible from now on: kept reads (kept-reads.ts) watch this count.
   * A transaction that ran no writing statement (a worker's look for work that found none) moves
   * nothing, so it leaves what is kept alone.
   */
  private end(handle: Handle, wrote: boolean): void {
    if (!handle.inTransaction) return;
    handle.inTransaction = false;
    if (wrote) this.writer.writes++;
    this.turn.give();
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    // Only a transaction Kysely never ended (it always does) would still hold the turn.
    this.end(connection as Handle, true);
  }

  async destroy(): Promise<void> {
    this.reader?.close();
    this.writer.close();
  }
}

/** The turn of each store's writing connection, by its adapter (shared by the database and its transactions). */
const turns = new WeakMap<object, WriterTurn>();

/**
 * Whether a query on `db` from outside a transaction now reads the read-only connection: a
 * transaction is open on the writing one. What such a read sees is committed, but facts of the
 * writing connection (`pragma data_version`) are not comparable with it.
 */
export function readsAside(db: AnyDb): boolean {
  return !db.isTransaction && (turns.get(db.getExecutor().adapter)?.taken ?? false);
}

/** The dialect of the service's SQLite store: `reader` null for an in-memory database. */
export class RoutedSqliteDialect extends SqliteDialect {
  private readonly turn = new WriterTurn();

  constructor(
    private readonly writer: ReusedStatements,
    private readonly reader: ReusedStatements | null,
  ) {
    super({ database: writer });
  }

  override createDriver(): Driver {
    return new RoutedSqliteDriver(this.writer, this.reader, this.turn);
  }

  override createAdapter(): SqliteAdapter {
    const adapter = new RoutedSqliteAdapter();
    if (this.reader !== null) turns.set(adapter, this.turn);
    return adapter;
  }
}

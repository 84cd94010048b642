// The one context every capability's service is given, and the change sink it publishes through
// (the engine in src/publish/ implements it; tests may record instead).
import type { PublicFront } from "../config.ts";
import type { Clock } from "../clock.ts";
import type { Db } from "../store/database.ts";
import type { PageRow } from "../store/schema.ts";
import type { Change, PreparedPage, PublishOptions, Rebaked, Trial, Written } from "./change.ts";

/** A render the publisher ran did not answer in time (publish/executor.ts); a preview answers 502 internal_unavailable. */
export class ExecutorUnavailable extends Error {
  constructor(readonly afterMs: number) {
    super(`the renderer did not answer within ${afterMs} ms`);
  }
}

/** The change sink: the one way a feature announces what it changed. */
export interface Publisher {
  /**
   * Inside the write's transaction, before it commits: renders what the changes would rebake and
   * writes nothing; throws the service error `render_too_large` (`budget`, `chain`) when a bake
   * would go past a render budget, so the write rolls back. Its answer goes in the options of
   * the write's `changed` call, so what it rendered is not rendered again.
   */
  check(trx: Db, siteId: number, changes: Change[], options?: PublishOptions): Promise<Trial | undefined>;
  /** Rebakes and flushes whatever the changes affect on that site; never throws for a render fault. */
  changed(siteId: number, changes: Change[], options?: PublishOptions): Promise<Rebaked>;
  /**
   * Inside the write's transaction: records what it owes the public site (publish/outbox.ts),
   * answered as `owed` to its `changed` call, which pays it. A publisher without it (a recorder in
   * tests) keeps nothing.
   */
  owe?(
    trx: Db,
    siteId: number,
    changes: readonly Change[],
    options?: PublishOptions,
    wrote?: readonly Written[],
  ): Promise<number>;
  /**
   * Renders page `page` of the site in `lang` as its public address would show it, reading through
   * `db` (default: the store; a preview's transaction), bounded by the render budgets; writes and
   * caches nothing; null when the page stands on no frame. The engine implements it; a publisher
   * that only records changes (tests) may leave it out, and then nothing can be previewed.
   */
  renderPage?(siteId: number, page: PageRow, lang: string | null, db?: Db): Promise<string | null>;
  /**
   * `renderPage` in two steps: what the render reads, read through `db` (a preview's transaction)
   * into plain data, then rendered once that transaction is over (`renderPrepared`), so a slow
   * render never runs while the transaction holds the database's write lock. Null: no frame.
   */
  preparePage?(siteId: number, page: PageRow, lang: string | null, db?: Db): Promise<PreparedPage | null>;
  renderPrepared?(prepared: PreparedPage): Promise<string>;
  /**
   * Runs a write's transaction `work` (on SQLite, twice: the trial `check` inside it renders with
   * no transaction open, rehearsal.ts). The engine implements it; without it (a recorder in
   * tests) the work runs in a plain transaction.
   */
  write?<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T>;
  /**
   * Calls `listener` each time this process's publish runs have filled events' `published`
   * (docs/events.md); answers its removal. The event stream (events/stream-hub.ts) and the webhook
   * worker (webhooks/worker.ts) wake on it; a publisher without it (a recorder in tests) leaves
   * them to their poll.
   */
  onPublished?(listener: () => void): () => void;
}

/**
 * Inside a write's transaction, before it commits: records the changes the write will announce
 * (the durable outbox, publish/outbox.ts); answers what its `changed` call takes as `owed`.
 */
export async function oweChanges(
  ctx: Pick<ServiceContext, "publisher">,
  trx: Db,
  siteId: number,
  changes: readonly Change[],
  options: PublishOptions = {},
  wrote: readonly Written[] = [],
): Promise<number | undefined> {
  if (changes.length === 0 || !ctx.publisher.owe) return undefined;
  return ctx.publisher.owe(trx, siteId, changes, options, wrote);
}

/**
 * How a write that may ask for a trial opens its transaction: through the publisher, so that the
 * trial renders outside it (the work may run twice, as a dry run's does: it must only write
 * through `trx`). Plugs into `dryRunnable` (store/dry-run.ts) as its `transaction`.
 */
export function transactionWithTrial(
  ctx: Pick<ServiceContext, "db" | "publisher">,
): <T>(work: (trx: Db) => Promise<T>) => Promise<T> {
  return (work) => (ctx.publisher.write ? ctx.publisher.write(ctx.db, work) : ctx.db.transaction().execute(work));
}

/** What every feature's service is given besides its typed input. */
export interface ServiceContext {
  db: Db;
  clock: Clock;
  /** How the public reaches the sites (SVC_PUBLIC_SCHEME, SVC_PUBLIC_PORT): part of every absolute address (site/addresses.ts). */
  publicFront: PublicFront;
  /** Where committed changes are announced; answers the `rebaked` report. */
  publisher: Publisher;
  /**
   * The admin's own host (config.adminHost), which no site may take as its domain or an alias
   * (409 domain_reserved, network/domains-service.ts). Set by app-deps.ts; a context a test makes
   * for other calls may leave it out.
   */
  adminHost?: string;
}

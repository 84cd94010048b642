// Cross-process invalidation (docs/deploy.md, "4. What the processes share, and how"): several
// service processes on one PostgreSQL database each hold public pages (static copies and on-request
// renders) and a host directory in memory. A flush in one process must reach the others, or they go
// on serving what a write replaced.
//
// One path: PageCache and SiteDirectory report each local flush or clear (the engine's page
// flushes, POST /cache/flush, site writes). This module collects them and tells the other
// processes with `NOTIFY svc_invalidate, '<json>'` through the store's pool, after the flush,
// which always follows the committed write (and, in the engine, the rewritten static copy). A
// dedicated connection LISTENs on the channel and applies what the others tell with the
// caches' `apply`/`applyClear`, which are not reported again; a process ignores its own
// messages by the `origin` in the payload. Push, not polling.
//
// - Payloads stay under PostgreSQL's 8000-byte limit: long lists are split over several
//   messages; an address too long to travel at all becomes a flush of its site.
// - Flushes waiting to be told are merged (a set of addresses and pages per site), so a
//   publish run that flushes a hundred pages one by one costs a few NOTIFYs, not a hundred.
// - A NOTIFY that fails (database gone) is kept and retried until it goes through.
// - A site created, re-domained or deleted forgets that site's hosts only (`{kind: "directory",
//   site}`, mark of the host directory's scope): no other site's pages or hosts go.
// - The LISTEN connection reconnects by itself with a growing delay. Messages sent while it
//   was away are lost, so on reconnecting the process drops its whole page cache and host
//   directory: it reads them again from the database.
// - `settled()` resolves once everything flushed so far has been told; server.ts holds each API
//   write's answer until then, so a client that writes through one process and reads through
//   another sees its write (up to the delivery of the notification, well under a millisecond
//   on one host).
// On SQLite there is one process: `singleProcess` does nothing.
import { EventEmitter } from "node:events";
import { randomBytes } from "node:crypto";
import type pg from "pg";
import type { SiteDirectory } from "./site-directory.ts";
import type { Store } from "../store/database.ts";
import type { PageCache } from "./page-cache.ts";
import {
  CHANNEL,
  encodeMessages,
  MAX_PAYLOAD_BYTES,
  Outbox,
  parseMessage,
  type Invalidated,
} from "./invalidation-messages.ts";
import { ALL_SITES, DIRECTORY, Marks } from "./invalidation-marks.ts";

export {
  CHANNEL,
  MAX_PAYLOAD_BYTES,
  encodeMessages,
  parseMessage,
  type Invalidated,
  type InvalidationMessage,
} from "./invalidation-messages.ts";

export interface Invalidation {
  /** Wires a process's caches: their local flushes are told to the other processes, and what the others tell is applied to them. */
  attach(pages: PageCache, directory: SiteDirectory): void;
  /** Resolves once every flush made so far has been told, or after `timeoutMs`. */
  settled(timeoutMs?: number): Promise<void>;
  /**
   * Before a public page of this site is answered from memory: drops what a write committed by
   * another process has made stale, even before that process's NOTIFY arrives. Absent with one
   * process (nothing can be stale).
   */
  fresh?(siteId: number): Promise<void>;
  close(): Promise<void>;
}

/** SQLite: one process, nothing to tell. */
export const singleProcess: Invalidation = {
  attach() {},
  async settled() {},
  async close() {},
};

interface Log {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

const quiet: Log = { info() {}, warn() {} };

export interface PostgresInvalidationOptions {
  pool: pg.Pool;
  /** Settings of the dedicated LISTEN connection (address, TLS, timeouts). */
  clientConfig: pg.ClientConfig;
  log?: Log;
  /** First delay before reconnecting; doubles up to `reconnectMaxMs`. */
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
  /** How often the LISTEN connection is checked with `select 1` (a silently dead peer is noticed). */
  heartbeatMs?: number;
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * Events: `listening` ({reconnect}) when the LISTEN session is (again) in place, `lost` when it
 * dropped, `applied` (flushes, origin) after applying another process's message.
 */
export class PostgresInvalidation extends EventEmitter implements Invalidation {
  /** Names this process in its messages; its own messages come back and are ignored. */
  readonly origin = `${process.pid}-${randomBytes(6).toString("hex")}`;
  private log: Log;
  private pages: PageCache | null = null;
  private directory: SiteDirectory | null = null;
  private client: pg.Client | null = null;
  private closed = false;
  private failedAttempts = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private outbox = new Outbox();
  private queued = 0;
  private sent = 0;
  private sending = false;
  private waiters: Array<{ target: number; resolve: () => void }> = [];

  private readonly marks: Marks;

  constructor(private readonly options: PostgresInvalidationOptions) {
    super();
    this.log = options.log ?? quiet;
    this.marks = new Marks(options.pool);
  }

  async fresh(siteId: number): Promise<void> {
    for (const scope of await this.marks.stale(siteId)) {
      // A missed host-directory change: which site it named is not known here, so every host is
      // looked up again (one read each); no page goes.
      if (scope === DIRECTORY) this.applyLocal([{ kind: "directory" }]);
      else
        this.applyLocal(
          scope === ALL_SITES ? [{ kind: "all" }, { kind: "directory" }] : [{ kind: "site", site: scope }],
        );
    }
  }

  useLog(log: Log): void {
    this.log = log;
  }

  get listening(): boolean {
    return this.client !== null;
  }

  /** Opens the LISTEN session; rejects when the database cannot be reached now. */
  async start(): Promise<void> {
    await this.listen(false);
    const every = this.options.heartbeatMs ?? 30_000;
    this.heartbeatTimer = setInterval(() => void this.heartbeat(), every);
    this.heartbeatTimer.unref();
  }

  attach(pages: PageCache, directory: SiteDirectory): void {
    this.pages = pages;
    this.directory = directory;
    pages.onFlush((flush) => this.enqueue(flush));
    directory.onClear((site) => this.enqueue(site === null ? { kind: "directory" } : { kind: "directory", site }));
  }

  settled(timeoutMs = 2_000): Promise<void> {
    const target = this.queued;
    if (this.sent >= target || this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter = { target, resolve };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve();
      }, timeoutMs);
      timer.unref();
      waiter.resolve = () => {
        clearTimeout(timer);
        resolve();
      };
      this.waiters.push(waiter);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.settled(1_000);
    this.closed = true;
    this.pages?.onFlush(null);
    this.directory?.onClear(null);
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    for (const waiter of this.waiters.splice(0)) waiter.resolve();
    const client = this.client;
    this.client = null;
    if (client) await client.end().catch(() => {});
  }

  // ---- telling

  private enqueue(flush: Invalidated): void {
    if (this.closed) return;
    this.outbox.add(flush);
    this.queued++;
    void this.drain();
  }

  private async drain(): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    let failures = 0;
    try {
      while (!this.outbox.empty && !this.closed) {
        const batch = this.outbox;
        const upTo = this.queued;
        this.outbox = new Outbox();
        const flushes = batch.flushes();
        try {
          const scopes = [...batch.sites.keys()];
          if (batch.all) scopes.push(ALL_SITES);
          if (batch.directory) scopes.push(DIRECTORY);
          const marks = await this.marks.bump(scopes);
          for (const payload of encodeMessages(this.origin, flushes, MAX_PAYLOAD_BYTES, marks)) {
            await this.options.pool.query("select pg_notify($1, $2)", [CHANNEL, payload]);
          }
          this.sent = upTo;
          failures = 0;
          this.wake();
        } catch (error) {
          // Keep what was not told (with whatever came meanwhile) and try again.
          const kept = Outbox.of(flushes);
          for (const flush of this.outbox.flushes()) kept.add(flush);
          this.outbox = kept;
          failures++;
          this.log.warn({ err: error, attempt: failures }, "invalidation: NOTIFY failed; retrying");
          await delay(Math.min(5_000, 100 * 2 ** Math.min(failures, 6)));
        }
      }
    } finally {
      this.sending = false;
    }
  }

  private wake(): void {
    const ready = this.waiters.filter((w) => w.target <= this.sent);
    this.waiters = this.waiters.filter((w) => w.target > this.sent);
    for (const waiter of ready) waiter.resolve();
  }

  // ---- listening

  private async listen(reconnect: boolean): Promise<void> {
    // Loaded here, not at the top: a SQLite process never loads pg (the store has loaded it by now).
    const { default: pg } = await import("pg");
    const client = new pg.Client({ ...this.options.clientConfig, keepAlive: true });
    client.on("notification", (message) => {
      if (message.channel === CHANNEL && message.payload) this.receive(message.payload);
    });
    client.on("error", (error) => this.lost(client, error));
    client.on("end", () => this.lost(client, null));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.failedAttempts = 0;
    if (reconnect) {
      // Whatever the others told while this session was away is lost: start from the database.
      this.applyLocal([{ kind: "all" }, { kind: "directory" }]);
      this.log.info({ origin: this.origin }, "invalidation: listening again; local caches dropped");
    }
    this.emit("listening", { reconnect });
  }

  private lost(client: pg.Client, error: Error | null): void {
    if (client !== this.client) return;
    this.client = null;
    client.end().catch(() => {});
    if (this.closed) return;
    this.log.warn({ err: error ?? undefined }, "invalidation: LISTEN connection lost; reconnecting");
    this.emit("lost");
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.reconnectTimer || this.closed) return;
    const min = this.options.reconnectMinMs ?? 100;
    const max = this.options.reconnectMaxMs ?? 5_000;
    const wait = Math.min(max, min * 2 ** Math.min(this.failedAttempts, 16));
    this.failedAttempts++;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.closed) return;
      this.listen(true).catch((error) => {
        this.log.warn({ err: error, attempt: this.failedAttempts }, "invalidation: reconnect failed");
        this.scheduleReconnect();
      });
    }, wait);
    this.reconnectTimer.unref();
  }

  private async heartbeat(): Promise<void> {
    const client = this.client;
    if (!client) return;
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error("heartbeat timed out")), 10_000).unref(),
    );
    try {
      await Promise.race([client.query("select 1"), timeout]);
    } catch (error) {
      this.lost(client, error instanceof Error ? error : new Error(String(error)));
    }
  }

  private receive(payload: string): void {
    const message = parseMessage(payload);
    if (!message) {
      this.log.warn({ bytes: payload.length }, "invalidation: unreadable message ignored");
      return;
    }
    if (message.origin === this.origin) return;
    const marks = message.marks ?? {};
    const scopeOf = (flush: Invalidated) =>
      flush.kind === "all" ? ALL_SITES : flush.kind === "directory" ? DIRECTORY : flush.site;
    this.applyLocal(message.flushes.filter((flush) => !this.marks.covered(scopeOf(flush), marks[scopeOf(flush)])));
    this.marks.told(marks);
    this.emit("applied", message.flushes, message.origin);
  }

  private applyLocal(flushes: Invalidated[]): void {
    for (const flush of flushes) {
      if (flush.kind === "directory") {
        if (flush.site === undefined) this.directory?.applyClear();
        else this.directory?.applyForget(flush.site);
      } else this.pages?.apply(flush);
    }
  }
}

/** The invalidation a store calls for: NOTIFY/LISTEN on PostgreSQL (started), nothing on SQLite. */
export async function startInvalidation(
  store: Pick<Store, "postgres">,
  log?: Log,
): Promise<Invalidation & { useLog?(log: Log): void }> {
  if (!store.postgres) return singleProcess;
  const invalidation = new PostgresInvalidation({
    pool: store.postgres.pool,
    clientConfig: store.postgres.clientConfig,
    log,
  });
  await invalidation.start();
  return invalidation;
}

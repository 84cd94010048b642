// The event streams of one app and what wakes them (docs/events.md, "The stream"). Each stream
// reads its own events (its site, its type), but only when something may have changed for it;
// whether anything did is asked once for all of them:
// - this process's publish runs filling events' `published` (the publisher's `onPublished`);
// - a tick every `pollMs`. On PostgreSQL other processes write too, and only the database knows:
//   each tick asks it the last event's id. On SQLite this process is the only writer: a tick asks
//   only when the store has seen a write since the last one (store/kept-reads.ts
//   `keptGeneration`), or when an event a stream holds back has waited PUBLISHED_WAIT_MS and goes
//   out without its `published`.
// A check reads the last event's id once; when it grew every stream reads, otherwise only the
// streams holding an event back (waiting for its `published`). Idle streams read nothing.
// Event ids commit in increasing order (write/events.ts), so a stream that read after a check
// that saw id n has seen every event up to n, and a later event raises the last id.
import type { Clock } from "../clock.ts";
import type { Caller } from "../site/callers.ts";
import type { Db } from "../store/database.ts";
import { keptGeneration } from "../store/kept-reads.ts";
import type { Publisher } from "../write/context.ts";
import { eventsReady, lastEventId } from "./service.ts";
import { EventStream, type StreamLog } from "./stream.ts";
import { stillAdmitted } from "./stream-admission.ts";

export interface StreamTimings {
  /** How often other processes' writes are looked for (and, on SQLite, this process's). */
  pollMs: number;
  /** How often each stream sends a comment line: under the 15 s after which proxies may cut it. */
  keepAliveMs: number;
}

export const STREAM_TIMINGS: StreamTimings = { pollMs: 1_000, keepAliveMs: 10_000 };

/** How long closing waits for a stream's client to take the end of its answer. */
const CLOSE_WAIT_MS = 1_000;

/** What a stream reads: one site's events (null: the network's), of a type or under it; and who reads it. */
export interface StreamScope {
  siteId: number | null;
  type: string | undefined;
  caller: Caller;
}

export class EventStreams {
  private readonly open = new Set<EventStream>();
  private readonly timings: StreamTimings;
  /** The last event id the last check saw. */
  private newest = 0;
  /** The store's write generation at the last tick (SQLite); null on PostgreSQL. */
  private generation: number | null = null;
  private timers: NodeJS.Timeout[] = [];
  private unsubscribe: (() => void) | undefined;
  private checking = false;
  private checkAgain = false;
  private closed = false;

  constructor(
    private readonly ctx: { db: Db; clock: Clock; publisher: Publisher },
    private readonly log: StreamLog,
    timings: Partial<StreamTimings> = {},
  ) {
    this.timings = { ...STREAM_TIMINGS, ...timings };
  }

  /** The last event's id: where a stream that wants only new events starts. */
  lastEventId(): Promise<number> {
    return lastEventId(this.ctx.db);
  }

  /** A stream of `scope`'s events after `after`, sending at once what may go out. */
  stream(scope: StreamScope, after: number): EventStream {
    const read = (since: number, limit: number) =>
      eventsReady(this.ctx.db, scope.siteId, since, scope.type, this.ctx.clock(), limit);
    const stream = new EventStream(read, after, this.log, () => stillAdmitted(this.ctx, scope.caller, scope.siteId));
    if (this.closed) {
      stream.end();
      return stream;
    }
    if (this.open.size === 0) this.start();
    this.open.add(stream);
    stream.body.once("close", () => {
      this.open.delete(stream);
      if (this.open.size === 0) this.stop();
    });
    stream.wake();
    return stream;
  }

  /**
   * Ends every stream (the app is closing), and waits for their answers to end: at most
   * CLOSE_WAIT_MS, after which the connections of clients that do not take what is left are cut.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.stop();
    const ended = [...this.open].map((stream) => new Promise((resolve) => stream.body.once("close", resolve)));
    for (const stream of this.open) stream.end();
    const cut = setTimeout(() => {
      for (const stream of this.open) stream.body.destroy();
    }, CLOSE_WAIT_MS);
    await Promise.all(ended);
    clearTimeout(cut);
  }

  private start(): void {
    this.timers = [
      setInterval(() => this.tick(), this.timings.pollMs).unref(),
      setInterval(() => {
        for (const stream of this.open) void stream.keepAlive();
      }, this.timings.keepAliveMs).unref(),
    ];
    this.unsubscribe = this.ctx.publisher.onPublished?.(() => void this.check());
  }

  private stop(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  private tick(): void {
    const generation = keptGeneration(this.ctx.db);
    const now = this.ctx.clock();
    const due =
      generation === null ||
      generation !== this.generation ||
      [...this.open].some((stream) => stream.heldUntil !== null && stream.heldUntil <= now);
    this.generation = generation;
    if (due) void this.check();
  }

  /** Wakes the streams something may have changed for; one check at a time, another after it when asked meanwhile. */
  private async check(): Promise<void> {
    if (this.checking) {
      this.checkAgain = true;
      return;
    }
    this.checking = true;
    try {
      do {
        this.checkAgain = false;
        const newest = await lastEventId(this.ctx.db);
        const grew = newest > this.newest;
        this.newest = Math.max(this.newest, newest);
        for (const stream of this.open) if (grew || stream.heldUntil !== null) stream.wake();
      } while (this.checkAgain && !this.closed);
    } catch (error) {
      if (!this.closed) this.log.error({ err: error }, "event streams: reading the last event id failed");
    } finally {
      this.checking = false;
    }
  }
}

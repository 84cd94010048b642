// The webhook worker of a process (docs/webhooks.md, "Delivery"): makes the deliveries of new
// events when this process's writes have been published (`wake`) and every POLL_MS (what other
// processes wrote, retries fallen due), and attempts the due ones. At most PARALLEL attempts run
// at once, so a slow receiver never holds up the others for long. An attempt that ends only
// claims more when the last claim found as many as it asked for: every dispatch and claim waits
// behind the writes queued on SQLite's one writing connection, and doing them after each attempt
// cost a write about 2 ms of CPU more and held deliveries back under a burst of writes
// (bench/README.md, "Events and webhooks"). Once an
// hour it forgets events and deliveries older than the retention (SVC_EVENTS_DAYS).
import { serialTurns } from "../serial-turns.ts";
import { isPostgres } from "../store/database.ts";
import type { ServiceContext } from "../write/context.ts";
import { attempt, claimDue, releaseLeases } from "./deliver.ts";
import { dispatchEvents } from "./dispatch.ts";
import { pruneEvents, retainedSince } from "../events/retention.ts";

const POLL_MS = 1000;
const PARALLEL = 32;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

interface Log {
  error(object: unknown, message: string): void;
}

export interface WorkerOptions {
  allowPrivate: boolean;
  eventsDays: number;
  log: Log;
  /** How often it looks for work without being woken (default POLL_MS). */
  pollMs?: number;
}

export interface WebhookWorker {
  /** There may be new events or due deliveries: look now. */
  wake(): void;
  /** Stops looking; attempts under way finish on their own (their leases cover them). */
  close(): Promise<void>;
}

export async function startWebhookWorker(ctx: ServiceContext, options: WorkerOptions): Promise<WebhookWorker> {
  // One process on SQLite: a lease left at a start is a dead process's attempt.
  if (!isPostgres(ctx.db)) await releaseLeases(ctx.db);
  let closed = false;
  let inFlight = 0;
  let lastPrune = 0;
  let dispatchWanted = true;
  let mayBeDue = true;
  const pollMs = options.pollMs ?? POLL_MS;

  const turn = async (): Promise<void> => {
    const now = ctx.clock();
    if (now - lastPrune >= PRUNE_EVERY_MS) {
      lastPrune = now;
      await pruneEvents(ctx.db, options.eventsDays, now);
      const before = retainedSince(options.eventsDays, now);
      await ctx.db.deleteFrom("webhook_deliveries").where("created_at", "<", before).execute();
    }
    if (dispatchWanted) {
      dispatchWanted = false;
      while (!closed && (await dispatchEvents(ctx.db, ctx.clock())) > 0);
      mayBeDue = true;
    }
    while (!closed && mayBeDue && inFlight < PARALLEL) {
      const asked = PARALLEL - inFlight;
      const claimed = await claimDue(ctx.db, ctx.clock(), asked);
      if (claimed.length < asked) mayBeDue = false;
      if (claimed.length === 0) break;
      for (const one of claimed) {
        inFlight++;
        attempt(ctx, one, { allowPrivate: options.allowPrivate })
          .catch((error: unknown) => {
            if (!closed) options.log.error({ err: error }, "webhook attempt");
          })
          .finally(() => {
            inFlight--;
            wake(false);
          });
      }
    }
  };

  const turns = serialTurns(turn, {
    everyMs: pollMs,
    // Another process's writes append events this one is not told of.
    onTick: () => {
      dispatchWanted = true;
    },
    onError: (error) => options.log.error({ err: error }, "webhook worker"),
  });
  /** `dispatch`: events may have been appended (a publish was paid), not only a delivery settled. */
  const wake = (dispatch = true): void => {
    if (dispatch) dispatchWanted = true;
    turns.wake();
  };
  wake();
  return {
    wake,
    async close() {
      closed = true;
      await turns.close();
    },
  };
}

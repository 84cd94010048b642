// The webhook worker of a process (docs/webhooks.md, "Delivery"): makes the deliveries of new
// events and attempts the due ones, when this process's writes have been published (`wake`), when
// the next retry falls due, and every POLL_MS for what other processes wrote (PostgreSQL). At most
// PARALLEL attempts run at once, so a slow receiver never holds up the others for long. Once an
// hour it forgets events and deliveries older than the retention (SVC_EVENTS_DAYS).
import { isPostgres } from "../store/database.ts";
import type { ServiceContext } from "../write/context.ts";
import { attempt, claimDue, releaseLeases } from "./deliver.ts";
import { dispatchEvents } from "./dispatch.ts";
import { pruneEvents } from "../events/retention.ts";

const POLL_MS = 1000;
const PARALLEL = 4;
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
  let running: Promise<void> | null = null;
  let again = false;
  let inFlight = 0;
  let lastPrune = 0;
  const pollMs = options.pollMs ?? POLL_MS;

  const turn = async (): Promise<void> => {
    const now = ctx.clock();
    if (now - lastPrune >= PRUNE_EVERY_MS) {
      lastPrune = now;
      await pruneEvents(ctx.db, options.eventsDays, now);
      const before = new Date(now - options.eventsDays * 24 * 60 * 60 * 1000).toISOString();
      await ctx.db.deleteFrom("webhook_deliveries").where("created_at", "<", before).execute();
    }
    while (!closed && (await dispatchEvents(ctx.db, ctx.clock())) > 0);
    while (!closed && inFlight < PARALLEL) {
      const claimed = await claimDue(ctx.db, ctx.clock(), PARALLEL - inFlight);
      if (claimed.length === 0) break;
      for (const one of claimed) {
        inFlight++;
        attempt(ctx, one, { allowPrivate: options.allowPrivate })
          .catch((error: unknown) => {
            if (!closed) options.log.error({ err: error }, "webhook attempt");
          })
          .finally(() => {
            inFlight--;
            wake();
          });
      }
    }
  };

  const wake = (): void => {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    running = turn()
      .catch((error: unknown) => {
        if (!closed) options.log.error({ err: error }, "webhook worker");
      })
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          wake();
        }
      });
  };

  const timer = setInterval(wake, pollMs);
  timer.unref();
  wake();
  return {
    wake,
    async close() {
      closed = true;
      clearInterval(timer);
      await running;
    },
  };
}

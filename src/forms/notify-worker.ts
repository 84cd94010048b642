// The notification worker of a process (docs/forms.md, "Notifications"): every POLL_MS it looks
// for due form_notifications rows (a read; nothing is written while none are due), claims a batch
// (notify-claims.ts) and sends it one message after the other. A visitor's answer never waits for
// it: the submission only queued a row in its own transaction. Closing stops it after the message
// being sent; the rest of its batch is released for the next worker at once.
import type { Clock } from "../clock.ts";
import { serialTurns } from "../serial-turns.ts";
import type { Db } from "../store/database.ts";
import type { Mailer } from "./mailer.ts";
import { MailFailure } from "./mailer.ts";
import { anyDue, CLAIM_BATCH, claimDue, releaseClaims, settleFailed, settleSent } from "./notify-claims.ts";

const POLL_MS = 2000;

export interface NotifyLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface NotifyWorkerOptions {
  mailer: Mailer;
  log: NotifyLog;
  /** How often it looks for due rows (default POLL_MS). */
  pollMs?: number;
}

export interface NotifyWorker {
  /** Look now (rows may have been queued). */
  wake(): void;
  /** Stops after the message being sent, releases the rest of the batch and closes the mailer. */
  close(): Promise<void>;
}

export function startNotifyWorker(db: Db, clock: Clock, options: NotifyWorkerOptions): NotifyWorker {
  const { mailer, log } = options;
  let closed = false;

  const sendBatch = async (): Promise<number> => {
    const claimed = await claimDue(db, clock());
    for (const [index, owed] of claimed.entries()) {
      if (closed) {
        await releaseClaims(
          db,
          claimed.slice(index).map((one) => one.id),
          clock(),
        );
        break;
      }
      const facts = { id: owed.id, site_id: owed.siteId, form: owed.form };
      try {
        await mailer.send(owed.message);
        await settleSent(db, owed.id);
      } catch (error) {
        const failure =
          error instanceof MailFailure ? error : new MailFailure(error instanceof Error ? error.message : "", false);
        const outcome = await settleFailed(db, owed, failure, clock());
        const details = { ...facts, attempts: owed.attempts + 1, error: failure.message };
        if ("retryAt" in outcome) log.warn({ ...details, retry_at: outcome.retryAt }, "form notification not sent");
        else log.error({ ...details, dropped: outcome.dropped }, "form notification dropped");
      }
    }
    return claimed.length;
  };

  const turn = async (): Promise<void> => {
    if (!(await anyDue(db, clock()))) return;
    while (!closed && (await sendBatch()) === CLAIM_BATCH);
  };

  const turns = serialTurns(turn, {
    everyMs: options.pollMs ?? POLL_MS,
    onError: (error) => log.error({ err: error }, "form notification worker"),
  });
  turns.wake();
  return {
    wake: turns.wake,
    async close() {
      closed = true;
      await turns.close();
      mailer.close();
    },
  };
}

// The forms' work in the background of a process (docs/forms.md): the notification worker, when
// SVC_SMTP_URL is set (without it the e-mails owed wait in form_notifications, and a start says how
// many), and the retention sweep of old submissions, a minute after start and then every hour.
// Every process of a PostgreSQL network runs both: a row is claimed by one, and a sweep frees
// only what it deleted.
import type { Clock } from "../clock.ts";
import { serialTurns } from "../serial-turns.ts";
import type { Db } from "../store/database.ts";
import { smtpMailer } from "./mailer.ts";
import { startNotifyWorker, type NotifyLog, type NotifyWorker } from "./notify-worker.ts";
import { sweepSubmissions } from "./submissions-retention.ts";

const FIRST_SWEEP_MS = 60_000;
const SWEEP_EVERY_MS = 3_600_000;

export interface FormsBackgroundOptions {
  smtpUrl: string | null;
  mailFrom: string;
  formSubmissionsDays: number;
}

export interface FormsBackground {
  close(): Promise<void>;
}

async function sayWhatWaits(db: Db, log: NotifyLog): Promise<void> {
  const row = await db
    .selectFrom("form_notifications")
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  const waiting = Number(row.n);
  if (waiting > 0) log.warn({ waiting }, "form notifications wait: SVC_SMTP_URL is not set");
}

export function startFormsBackground(
  db: Db,
  clock: Clock,
  options: FormsBackgroundOptions,
  log: NotifyLog,
): FormsBackground {
  let worker: NotifyWorker | null = null;
  if (options.smtpUrl !== null)
    worker = startNotifyWorker(db, clock, { mailer: smtpMailer(options.smtpUrl, options.mailFrom), log });
  else sayWhatWaits(db, log).catch((error: unknown) => log.error({ err: error }, "reading form notifications"));

  // One sweep at a time (serial-turns.ts): the hourly tick, and the first a minute after start.
  const sweeps = serialTurns(
    async () => {
      const gone = await sweepSubmissions(db, options.formSubmissionsDays, clock());
      if (gone > 0) log.info({ submissions: gone }, "old form submissions deleted");
    },
    {
      everyMs: SWEEP_EVERY_MS,
      onError: (error) => log.error({ err: error }, "deleting old form submissions failed; tried again in an hour"),
    },
  );
  const first = setTimeout(sweeps.wake, FIRST_SWEEP_MS);
  first.unref();
  return {
    async close() {
      clearTimeout(first);
      await sweeps.close();
      await worker?.close();
    },
  };
}

// The owed notification e-mails a worker takes and settles (docs/forms.md, "Notifications"). A
// worker claims due rows by moving their `next_at_gmt` a lease ahead in one transaction (on
// PostgreSQL the rows are read FOR UPDATE SKIP LOCKED, so two processes never take the same row);
// a row sent is deleted; a row that failed keeps its place with one attempt more, the next try
// after the webhooks' backoff (webhooks/schedule.ts: from 5 s to 8 h, nine attempts over about a
// day) and the failure's text; one refused for good, or out of attempts, is dropped. A process that
// dies while sending leaves the lease to run out: the message is sent again then (at least once).
import { gmt } from "../clock.ts";
import { isPostgres, type Db } from "../store/database.ts";
import { retryDelay } from "../webhooks/schedule.ts";
import { messageOf, type FormMessage } from "./notify-queue.ts";

/** How long a claimed row is the claimer's: a batch's sends at their longest (mailer.ts timeouts), with room. */
export const LEASE_MS = 10 * 60 * 1000;
/** Rows claimed at once. */
export const CLAIM_BATCH = 10;

export interface OwedMail {
  id: number;
  siteId: number;
  form: string;
  message: FormMessage;
  /** Attempts made before this one. */
  attempts: number;
}

/** Whether any row is due: a read, so an idle poll writes nothing. */
export async function anyDue(db: Db, now: number): Promise<boolean> {
  const row = await db
    .selectFrom("form_notifications")
    .select("id")
    .where("next_at_gmt", "<=", gmt(now))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Leases up to `limit` due rows, oldest due first. */
export async function claimDue(db: Db, now: number, limit: number = CLAIM_BATCH): Promise<OwedMail[]> {
  return db.transaction().execute(async (trx) => {
    let due = trx
      .selectFrom("form_notifications")
      .select(["id", "site_id", "form", "message_json", "attempts"])
      .where("next_at_gmt", "<=", gmt(now))
      .orderBy("next_at_gmt")
      .orderBy("id")
      .limit(limit);
    if (isPostgres(trx)) due = due.forUpdate().skipLocked();
    const rows = await due.execute();
    if (rows.length === 0) return [];
    await trx
      .updateTable("form_notifications")
      .set({ next_at_gmt: gmt(now + LEASE_MS) })
      .where(
        "id",
        "in",
        rows.map((row) => row.id),
      )
      .execute();
    return rows.map((row) => ({
      id: row.id,
      siteId: row.site_id,
      form: row.form,
      message: messageOf(row.message_json),
      attempts: row.attempts,
    }));
  });
}

async function remove(db: Db, id: number): Promise<void> {
  await db.deleteFrom("form_notifications").where("id", "=", id).execute();
}

/** A sent row goes. */
export async function settleSent(db: Db, id: number): Promise<void> {
  await remove(db, id);
}

/** What became of a failed row: tried again later, or dropped. */
export type FailedOutcome = { retryAt: string } | { dropped: "refused" | "attempts" };

export async function settleFailed(
  db: Db,
  owed: OwedMail,
  failure: { message: string; permanent: boolean },
  now: number,
): Promise<FailedOutcome> {
  const attempts = owed.attempts + 1;
  const delay = failure.permanent ? null : retryDelay(attempts);
  if (delay === null) {
    await remove(db, owed.id);
    return { dropped: failure.permanent ? "refused" : "attempts" };
  }
  const retryAt = gmt(now + delay);
  await db
    .updateTable("form_notifications")
    .set({ attempts, next_at_gmt: retryAt, last_error: failure.message })
    .where("id", "=", owed.id)
    .execute();
  return { retryAt };
}

/** Claimed rows a closing worker did not send: due again at once, for the next worker. */
export async function releaseClaims(db: Db, ids: readonly number[], now: number): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable("form_notifications")
    .set({ next_at_gmt: gmt(now) })
    .where("id", "in", [...ids])
    .execute();
}

// Retention of form submissions (docs/forms.md, "Submissions"): submissions older than
// SVC_FORM_SUBMISSIONS_DAYS (default 365) are deleted, in slices so no statement holds the store for
// long, each slice in a transaction that takes its site's use counters first (quotas/usage.ts, the
// one lock order) and frees as many places of quota `form_submissions` as rows it deleted: the
// counter stays equal to a recount, and two processes sweeping at once free each row once.
// Notification e-mails still owed past the same age go too (without SVC_SMTP_URL they wait).
import { gmt } from "../clock.ts";
import { chargeRoom, holdRoom } from "../quotas/usage.ts";
import type { Db } from "../store/database.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
const SLICE = 1000;

/** The oldest `created_at_gmt` kept: what is older than `days` goes. */
export function submissionsKeptSince(days: number, now: number): string {
  return gmt(now - days * DAY_MS);
}

/** Deletes one site's submissions among `ids` and frees their places; answers how many went. */
async function deleteOfSite(db: Db, siteId: number, ids: readonly number[]): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await holdRoom(trx, siteId);
    const done = await trx
      .deleteFrom("form_submissions")
      .where("site_id", "=", siteId)
      .where("id", "in", [...ids])
      .executeTakeFirst();
    const gone = Number(done.numDeletedRows);
    if (gone > 0) await chargeRoom(trx, siteId, { form_submissions: -gone });
    return gone;
  });
}

/** Deletes the submissions (and owed notifications) older than `days`; answers how many submissions went. */
export async function sweepSubmissions(db: Db, days: number, now: number): Promise<number> {
  const before = submissionsKeptSince(days, now);
  let gone = 0;
  let after = 0;
  for (;;) {
    const old = await db
      .selectFrom("form_submissions")
      .select(["id", "site_id"])
      .where("created_at_gmt", "<", before)
      .where("id", ">", after)
      .orderBy("id")
      .limit(SLICE)
      .execute();
    if (old.length === 0) break;
    after = old.at(-1)!.id;
    const bySite = new Map<number, number[]>();
    for (const row of old) bySite.set(row.site_id, [...(bySite.get(row.site_id) ?? []), row.id]);
    for (const [siteId, ids] of bySite) gone += await deleteOfSite(db, siteId, ids);
  }
  await db.deleteFrom("form_notifications").where("next_at_gmt", "<", before).execute();
  return gone;
}

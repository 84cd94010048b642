// Retention (docs/events.md, "Retention"): events older than SVC_EVENTS_DAYS (default 90) are
// deleted, in slices so no statement holds the store for long. (Webhook deliveries go with the
// same age: webhooks/worker.ts.)
import type { Db } from "../store/database.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
const SLICE = 5000;

/** The oldest moment kept (ISO 8601 UTC): what is older than `days` goes. */
export function retainedSince(days: number, now: number): string {
  return new Date(now - days * DAY_MS).toISOString();
}

/** Deletes the events older than `days`; answers how many went. */
export async function pruneEvents(db: Db, days: number, now: number): Promise<number> {
  const before = retainedSince(days, now);
  let gone = 0;
  for (;;) {
    const old = await db
      .selectFrom("events")
      .select("id")
      .where("at", "<", before)
      .orderBy("id")
      .limit(SLICE)
      .execute();
    if (old.length === 0) break;
    await db
      .deleteFrom("events")
      .where(
        "id",
        "in",
        old.map((row) => row.id),
      )
      .execute();
    gone += old.length;
  }
  return gone;
}

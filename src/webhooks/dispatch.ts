// The dispatcher (docs/webhooks.md, "Delivery"): turns events into deliveries, one per event and
// active hook of its site whose types take it, each with its message id and its body frozen (the
// event as GET /events shows it). An event waits until its write is published (it goes out with
// its `published`) or PUBLISHED_WAIT_MS has passed. Events are a queue here (`dispatched`), not a
// cursor, so an event whose transaction committed after a later one's is never skipped. On
// PostgreSQL the events are taken with FOR UPDATE SKIP LOCKED, so two processes never make the
// same event's deliveries twice.
import { eventOf, goesOut } from "../events/service.ts";
import { isPostgres, type Db } from "../store/database.ts";
import { takesType } from "./hooks.ts";
import { newMessageId } from "./signing.ts";

/** Events taken in one turn. */
const BATCH = 200;

/** Makes the deliveries of the events ready to go; answers how many events it took. */
export async function dispatchEvents(db: Db, now: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    let select = trx.selectFrom("events").selectAll().where("dispatched", "=", 0).orderBy("id").limit(BATCH);
    if (isPostgres(trx)) select = select.forUpdate().skipLocked();
    const rows = await select.execute();
    const ready = rows.filter(goesOut(now));
    if (ready.length === 0) return 0;
    const siteIds = [...new Set(ready.map((row) => row.site_id).filter((id) => id !== null))];
    const hooks =
      siteIds.length === 0
        ? []
        : await trx
            .selectFrom("webhooks")
            .select(["id", "site_id", "events_json"])
            .where("site_id", "in", siteIds)
            .where("active", "=", 1)
            .execute();
    const at = new Date(now).toISOString();
    const deliveries = [];
    for (const row of ready) {
      for (const hook of hooks) {
        if (hook.site_id !== row.site_id || !takesType(JSON.parse(hook.events_json), row.type)) continue;
        deliveries.push({
          webhook_id: hook.id,
          event_id: row.id,
          message_id: newMessageId(),
          body: JSON.stringify(eventOf(row)),
          status: "pending",
          attempts: 0,
          next_attempt_at: at,
          created_at: at,
        });
      }
    }
    for (let from = 0; from < deliveries.length; from += 100)
      await trx
        .insertInto("webhook_deliveries")
        .values(deliveries.slice(from, from + 100))
        .execute();
    const ids = ready.map((row) => row.id);
    await trx.updateTable("events").set({ dispatched: 1 }).where("id", "in", ids).execute();
    return ready.length;
  });
}

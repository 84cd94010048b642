// The publish outbox (docs/publishing.md, "Durable publishing"). A write's publish step
// runs after its commit; killed in between (kill -9, a crash, a lost machine), a process left the
// public site one version behind what its API stored, for good. Now each write inserts, in its own
// transaction, a row of what it changed (the changes it hands the engine); the publish run that
// follows its commit deletes the row once it is over. A row still there was owed and not paid:
// every start publishes them before it answers (server.ts), and a sweep takes rows older than a
// while, whose process died (several processes on PostgreSQL). On PostgreSQL a row is taken with
// `FOR UPDATE SKIP LOCKED` in a transaction held while it is published, so each is done once, and
// a process that dies mid-row leaves it (its lock goes with its connection) to another.
import type { PublicFront } from "../config.ts";
import { gmt } from "../clock.ts";
import { isPostgres, type Db } from "../store/database.ts";
import type { Change, PublishOptions, Rebaked, Written } from "../write/change.ts";
import { publishedOf, type Published } from "../write/events.ts";
import { siteOrigin } from "../site/addresses.ts";
import { OUTBOX_CHANGES, OUTBOX_OPTIONS } from "./outbox-columns.ts";

/** The options an outbox row keeps: what changes how the engine publishes (not a trial's renders). */
type Kept = Pick<PublishOptions, "bake" | "limit">;

/** Writes what the write owes, in its transaction; answers the row's id. */
export async function owe(
  trx: Db,
  siteId: number,
  changes: readonly Change[],
  options: PublishOptions,
  now: number,
  wrote: readonly Written[] = [],
): Promise<number> {
  const kept: Kept = {};
  if (options.bake !== undefined) kept.bake = options.bake;
  if (options.limit !== undefined) kept.limit = options.limit;
  const row = await trx
    .insertInto("publish_outbox")
    .values({
      site_id: siteId,
      changes_json: JSON.stringify(changes),
      options_json: JSON.stringify(kept),
      wrote_json: JSON.stringify(wrote),
      created_at_gmt: gmt(now),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** A paid row: its write's site and what its publish run did. */
interface Paid {
  id: number;
  siteId: number;
  rebaked: Rebaked;
}

/**
 * Tells the events of the rows' writes what they published (docs/events.md, `published`), the
 * addresses made whole with their site's domain (as it is now: a write that renamed it flushed
 * under the new one).
 */
async function tellEvents(db: Db, rows: readonly Paid[], front: PublicFront): Promise<void> {
  const siteIds = [...new Set(rows.map((row) => row.siteId))];
  const domains = new Map(
    (await db.selectFrom("sites").select(["id", "domain", "https"]).where("id", "in", siteIds).execute()).map(
      (site) => [site.id, siteOrigin(site, front)],
    ),
  );
  for (const { id, siteId, rebaked } of rows) {
    const published: Published = publishedOf(rebaked);
    const origin = domains.get(siteId) ?? "";
    published.urls = published.urls.map((url) => (url.startsWith("/") ? origin + url : url));
    await db
      .updateTable("events")
      .set({ published_json: JSON.stringify(published) })
      .where("outbox_id", "=", id)
      .where("published_json", "is", null)
      .execute();
  }
}

/** The row is paid: its publish run is over (rows paid at a start or in a sweep). */
async function settle(db: Db, paid: Paid, front: PublicFront): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await tellEvents(trx, [paid], front);
    await trx.deleteFrom("publish_outbox").where("id", "=", paid.id).execute();
  });
}

/** How long a paid row waits to be deleted with the others paid meanwhile. */
export const SETTLE_DELAY_MS = 100;

/**
 * Paid rows, deleted together a moment after they are paid (and their events told what was
 * published): one transaction for a burst of writes rather than one after each (a frame write's
 * own publish run cost a tenth more CPU with one). A row whose delete a crash lost is published
 * once more at the next start, which rewrites what is already there: the public site is never
 * behind, only the work is done twice. `told` runs once events have their `published`.
 */
export class Settlements {
  private paidRows: Paid[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    /** How addresses are printed: part of the addresses events name. */
    private readonly front: PublicFront,
    private readonly told: () => void = () => undefined,
  ) {}

  /** The row is paid: its publish run is over, with this report. */
  paid(id: number, siteId: number, rebaked: Rebaked): void {
    this.paidRows.push({ id, siteId, rebaked });
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush(), SETTLE_DELAY_MS);
    this.timer.unref();
  }

  /** Deletes the rows paid so far (at once: on shutdown, before the store closes). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const rows = this.paidRows.splice(0);
    // After any flush still running (its timer's, say): a caller told the rows are settled finds
    // their events told, never a transaction still on its way.
    const run = this.flushing.catch(() => undefined).then(() => this.settle(rows));
    this.flushing = run;
    return run;
  }

  private async settle(rows: readonly Paid[]): Promise<void> {
    if (rows.length === 0) return;
    for (let at = 0; at < rows.length; at += 500) {
      const some = rows.slice(at, at + 500);
      // A store already closed or a table gone (tests): the rows stay owed and are paid again.
      await this.db
        .transaction()
        .execute(async (trx) => {
          await tellEvents(trx, some, this.front);
          await trx
            .deleteFrom("publish_outbox")
            .where(
              "id",
              "in",
              some.map((row) => row.id),
            )
            .execute();
        })
        .catch(() => undefined);
    }
    this.told();
  }
}

export interface Owed {
  id: number;
  siteId: number;
  changes: Change[];
  options: Kept;
}

function owedOf(row: { id: number | string; site_id: number; changes_json: string; options_json: string }): Owed {
  return {
    id: Number(row.id),
    siteId: row.site_id,
    changes: OUTBOX_CHANGES.read(row.changes_json),
    options: OUTBOX_OPTIONS.read(row.options_json),
  };
}

/**
 * Publishes every row written before `before` (a time of the clock; all of them when absent), oldest
 * first, each deleted once `publish` has run it without the renderer failing; answers how many.
 */
export async function payOwed(
  db: Db,
  front: PublicFront,
  publish: (owed: Owed) => Promise<Rebaked>,
  before?: number,
): Promise<number> {
  const cutoff = before === undefined ? undefined : gmt(before);
  let paid = 0;
  if (!isPostgres(db)) {
    // One process: nothing else takes them. Read in order, each published, then deleted.
    let query = db.selectFrom("publish_outbox").selectAll().orderBy("id");
    if (cutoff !== undefined) query = query.where("created_at_gmt", "<", cutoff);
    for (const row of await query.execute()) {
      const owed = owedOf(row);
      const rebaked = await publish(owed);
      if (rebaked.status !== "unavailable") {
        await settle(db, { id: owed.id, siteId: owed.siteId, rebaked }, front);
        paid++;
      }
    }
    return paid;
  }
  const failed: number[] = [];
  for (;;) {
    const done = await db.transaction().execute(async (trx) => {
      let query = trx.selectFrom("publish_outbox").selectAll().orderBy("id").limit(1).forUpdate().skipLocked();
      if (cutoff !== undefined) query = query.where("created_at_gmt", "<", cutoff);
      if (failed.length > 0) query = query.where("id", "not in", failed);
      const row = await query.executeTakeFirst();
      if (!row) return null;
      const owed = owedOf(row);
      // The row stays locked while it is published (the run writes through other connections).
      const rebaked = await publish(owed);
      if (rebaked.status === "unavailable") {
        failed.push(owed.id);
        return owed.id;
      }
      await tellEvents(trx, [{ id: owed.id, siteId: owed.siteId, rebaked }], front);
      await trx.deleteFrom("publish_outbox").where("id", "=", owed.id).execute();
      paid++;
      return owed.id;
    });
    if (done === null) return paid;
  }
}

// A site's use, kept as running counters (`site_usage`, one row per site) that every counted write
// moves in its own transaction: checking a quota reads one row, whatever the size of the site.
//
// How a feature uses it, inside the write's transaction and before it writes:
//
//   await requireRoom(trx, siteId, { pages: +1, stored_bytes: +pageBytes(row) });   // a new page
//   await requireRoom(trx, siteId, { stored_bytes: newBytes - oldBytes });          // a replacement
//   await requireRoom(trx, siteId, { frames: -1, stored_bytes: -frame.bytes });     // a delete
//
// A use that rises past its limit is refused (quota_exceeded, nothing moves, and the caller's
// transaction rolls back what it wrote); a use that stays or falls is never refused, even over a
// lowered limit. The counters move only when the write commits.
//
// Concurrency: the first call in a transaction takes the site's row (SELECT … FOR UPDATE on
// PostgreSQL; SQLite runs one transaction at a time), so two writes of one site never both pass
// the last place, and every counted write of a site holds the row until it commits. A write whose
// delta depends on rows it reads (a page's old size) calls `holdRoom` before reading them, so no
// other counted write changes them in between; taking the row before any write also keeps
// the lock order the same in every transaction (no deadlock through it).
import { fail } from "../errors.ts";
import { isPostgres, type Db } from "../store/database.ts";
import { QUOTA_KEYS, type QuotaKey, type QuotaValues } from "./catalogue.ts";
import { quotasOf } from "./limits.ts";
import { textBytes } from "./bytes.ts";

/** How a write moves each use: + what it adds, − what it frees; absent keys do not move. */
export type UsageDelta = Partial<Record<QuotaKey, number>>;

const ZERO: QuotaValues = Object.freeze(Object.fromEntries(QUOTA_KEYS.map((key) => [key, 0])) as QuotaValues);

function usageFrom(row: Record<QuotaKey, number | string>): QuotaValues {
  // bigint columns: PostgreSQL answers them as strings.
  return Object.fromEntries(QUOTA_KEYS.map((key) => [key, Number(row[key])])) as QuotaValues;
}

/** The site's use as counted (zero for a site no counted write has touched). */
export async function usageOf(db: Db, siteId: number): Promise<QuotaValues> {
  const row = await db.selectFrom("site_usage").select(QUOTA_KEYS).where("site_id", "=", siteId).executeTakeFirst();
  return row ? usageFrom(row) : { ...ZERO };
}

/**
 * Takes the site's counters for this transaction and answers them: call it before reading what a
 * delta is computed from. Inside a transaction only; a site without a row gets one at zero.
 */
export async function holdRoom(trx: Db, siteId: number): Promise<QuotaValues> {
  if (!trx.isTransaction) throw new Error("holdRoom and requireRoom run inside the write's transaction");
  const read = () => {
    const query = trx.selectFrom("site_usage").select(QUOTA_KEYS).where("site_id", "=", siteId);
    return (isPostgres(trx) ? query.forUpdate() : query).executeTakeFirst();
  };
  let row = await read();
  if (!row) {
    await trx.insertInto("site_usage").values({ site_id: siteId, ...ZERO }).onConflict((conflict) => conflict.column("site_id").doNothing()).execute();
    row = await read();
    if (!row) throw new Error(`site ${siteId} has no usage row`);
  }
  return usageFrom(row);
}

/**
 * Refuses the write (quota_exceeded with `quota`, `limit` and `used`, the use before the write)
 * when a use it raises would pass its limit; else moves the counters by `delta`. In the write's
 * transaction, before the write (see above).
 */
export async function requireRoom(trx: Db, siteId: number, delta: UsageDelta): Promise<void> {
  const moves = QUOTA_KEYS.filter((key) => (delta[key] ?? 0) !== 0);
  if (moves.length === 0) return;
  for (const key of moves) {
    if (!Number.isSafeInteger(delta[key])) throw new Error(`requireRoom: ${key} moves by ${delta[key]}, not a whole number`);
  }
  const used = await holdRoom(trx, siteId);
  const raised = moves.filter((key) => delta[key]! > 0);
  if (raised.length > 0) {
    const limits = await quotasOf(trx, siteId);
    for (const key of raised) {
      if (used[key] + delta[key]! > limits[key]) {
        throw fail(
          "quota_exceeded",
          { quota: key, limit: limits[key], used: used[key] },
          `This write would take the site's ${key} to ${used[key] + delta[key]!}, past its quota of ${limits[key]}; nothing was written.`,
        );
      }
    }
  }
  const set = Object.fromEntries(moves.map((key) => [key, used[key] + delta[key]!])) as UsageDelta;
  await trx.updateTable("site_usage").set(set).where("site_id", "=", siteId).execute();
}

/**
 * The site's use counted afresh from what it holds (a pass over its rows, by indexes on site_id):
 * what the counters must equal. For tests, checks and repairs; writes never call it.
 */
export async function recountUsage(db: Db, siteId: number): Promise<QuotaValues> {
  const pages = await db
    .selectFrom("pages")
    .select((eb) => [eb.fn.countAll().as("n"), eb.fn.coalesce(eb.fn.sum(eb(eb(textBytes(db, "title"), "+", textBytes(db, "content")), "+", textBytes(db, "fields_json"))), eb.lit(0)).as("bytes")])
    .where("site_id", "=", siteId)
    .executeTakeFirstOrThrow();
  const frames = await db
    .selectFrom("frames")
    .select((eb) => [eb.fn.countAll().as("n"), eb.fn.coalesce(eb.fn.sum(textBytes(db, "html")), eb.lit(0)).as("bytes")])
    .where("site_id", "=", siteId)
    .executeTakeFirstOrThrow();
  const data = await db
    .selectFrom("datasets")
    .select((eb) => [eb.fn.coalesce(eb.fn.sum("total"), eb.lit(0)).as("items"), eb.fn.coalesce(eb.fn.sum(textBytes(db, "items_json")), eb.lit(0)).as("bytes")])
    .where("site_id", "=", siteId)
    .executeTakeFirstOrThrow();
  const styles = await db
    .selectFrom("styles")
    .select((eb) => eb.fn.coalesce(eb.fn.sum("bytes"), eb.lit(0)).as("bytes"))
    .where("site_id", "=", siteId)
    .executeTakeFirstOrThrow();
  const strings = await db
    .selectFrom("strings")
    .select((eb) => eb.fn.coalesce(eb.fn.sum(eb(textBytes(db, "key"), "+", textBytes(db, "text"))), eb.lit(0)).as("bytes"))
    .where("site_id", "=", siteId)
    .executeTakeFirstOrThrow();
  const media = await db
    .selectFrom("media")
    .select((eb) => eb.fn.coalesce(eb.fn.sum("bytes"), eb.lit(0)).as("bytes"))
    .where("site_id", "=", siteId)
    .executeTakeFirstOrThrow();
  return {
    pages: Number(pages.n),
    frames: Number(frames.n),
    data_items: Number(data.items),
    stored_bytes: Number(pages.bytes) + Number(frames.bytes) + Number(data.bytes) + Number(styles.bytes) + Number(strings.bytes),
    media_bytes: Number(media.bytes),
  };
}

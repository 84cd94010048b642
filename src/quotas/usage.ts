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
//
// A write is judged whole: a rise is refused only when it takes the use past its limit and above
// where the transaction found it, so a write that frees as much as it adds is never
// refused, even over a lowered quota. A delete's trash entry is charged without a check
// (`chargeRoom`): a delete is never refused for it.
//
// At the limit, what can be freed is freed before a refusal: the owner of rows that may go
// registers how (`reclaimWith`; revisions/ prunes revisions beyond the newest 10 of an object,
// oldest first). The pruning is part of the write's transaction: a refusal rolls it back too.
//
// Derived bytes (static copies, frame bakes, media variants) are never a reason to refuse a write:
// `takeRoom` answers whether they fit, and their owner keeps them or not. Stylesheet bundles are
// derived too, but nothing can stand in for one that is not kept: a stylesheet write takes room
// for its bundles (`requireRoom`), and a bundle made outside a write is charged (`chargeRoom`).
import { sql, type Expression } from "kysely";
import { fail } from "../errors.ts";
import { isPostgres, type Db } from "../store/database.ts";
import { QUOTA_KEYS, type QuotaKey, type QuotaValues } from "./catalogue.ts";
import { quotasOf } from "./limits.ts";
import { pageBytesSql, revisionBytesSql, textBytes, trashBytesSql } from "./bytes.ts";

/** How a write moves each use: + what it adds, − what it frees; absent keys do not move. */
export type UsageDelta = Partial<Record<QuotaKey, number>>;

/**
 * Frees at least `needed` units of a use inside the write's transaction, if it can; answers how
 * many it freed (0: nothing). It deletes rows only; the caller moves the counter by what it answers.
 */
export type Reclaimer = (trx: Db, siteId: number, needed: number) => Promise<number>;

const ZERO: QuotaValues = Object.freeze(Object.fromEntries(QUOTA_KEYS.map((key) => [key, 0])) as QuotaValues);

/** What may be freed to make room, per use; registered by the folder owning those rows. */
const reclaimers = new Map<QuotaKey, Reclaimer>();

/** Per transaction and site, the use as the transaction first found it (see "judged whole" above). */
const found = new WeakMap<Db, Map<number, QuotaValues>>();

/**
 * Per transaction and site, the use as it stands in the transaction: the row is read (and, on
 * PostgreSQL, locked) once, and every move of it goes through `move`, which keeps this up to date,
 * so a write's later holds and moves read no row again.
 */
const held = new WeakMap<Db, Map<number, QuotaValues>>();

/** Registers how a use may be freed to make room for a write that would pass its quota. */
export function reclaimWith(key: QuotaKey, reclaimer: Reclaimer): void {
  reclaimers.set(key, reclaimer);
}

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
  const known = held.get(trx)?.get(siteId);
  if (known) return { ...known };
  const read = () => {
    const query = trx.selectFrom("site_usage").select(QUOTA_KEYS).where("site_id", "=", siteId);
    return (isPostgres(trx) ? query.forUpdate() : query).executeTakeFirst();
  };
  let row = await read();
  if (!row) {
    await trx
      .insertInto("site_usage")
      .values({ site_id: siteId, ...ZERO })
      .onConflict((conflict) => conflict.column("site_id").doNothing())
      .execute();
    row = await read();
    if (!row) throw new Error(`site ${siteId} has no usage row`);
  }
  const usage = usageFrom(row);
  const sites = found.get(trx) ?? new Map<number, QuotaValues>();
  found.set(trx, sites);
  if (!sites.has(siteId)) sites.set(siteId, usage);
  const standing = held.get(trx) ?? new Map<number, QuotaValues>();
  held.set(trx, standing);
  standing.set(siteId, { ...usage });
  return usage;
}

/** A use the move would take past its limit: the refusal's details. */
interface Refusal {
  quota: QuotaKey;
  limit: number;
  used: number;
  after: number;
}

/** requireRoom: checked, room reclaimed; takeRoom: checked only; chargeRoom: moved whatever the limits. */
type How = "require" | "take" | "charge";

/**
 * Moves the counters by `delta` unless a use it raises would pass its limit (and where the
 * transaction found it) once everything that may be reclaimed is; answers that use, nothing moved.
 */
async function move(trx: Db, siteId: number, delta: UsageDelta, how: How): Promise<Refusal | null> {
  const moves = QUOTA_KEYS.filter((key) => (delta[key] ?? 0) !== 0);
  // The row is taken even when nothing moves: a write takes its site's counters before the rows
  // it writes, always, or two writes of one site (one moving nothing at first, its revision
  // moving stored_bytes later) lock the same two rows in opposite orders (PostgreSQL: deadlock).
  if (moves.length === 0) {
    await holdRoom(trx, siteId);
    return null;
  }
  for (const key of moves) {
    if (!Number.isSafeInteger(delta[key]))
      throw new Error(`requireRoom: ${key} moves by ${delta[key]}, not a whole number`);
  }
  const used = await holdRoom(trx, siteId);
  const start = found.get(trx)!.get(siteId)!;
  const raised = how === "charge" ? [] : moves.filter((key) => delta[key]! > 0);
  const freed: UsageDelta = {};
  if (raised.length > 0) {
    const limits = await quotasOf(trx, siteId);
    for (const key of raised) {
      const after = used[key] + delta[key]!;
      const allowed = Math.max(limits[key], start[key]);
      if (after <= allowed) continue;
      const reclaimer = how === "require" ? reclaimers.get(key) : undefined;
      freed[key] = reclaimer ? await reclaimer(trx, siteId, after - allowed) : 0;
      if (after - freed[key]! > allowed) return { quota: key, limit: limits[key], used: start[key], after };
    }
  }
  const set = Object.fromEntries(moves.map((key) => [key, used[key] + delta[key]! - (freed[key] ?? 0)])) as UsageDelta;
  await trx.updateTable("site_usage").set(set).where("site_id", "=", siteId).execute();
  held.get(trx)!.set(siteId, { ...used, ...set });
  return null;
}

/**
 * Refuses the write (quota_exceeded with `quota`, `limit` and `used`, the use before the write)
 * when a use it raises would pass its limit; else moves the counters by `delta`. In the write's
 * transaction, before the write (see above).
 */
export async function requireRoom(trx: Db, siteId: number, delta: UsageDelta): Promise<void> {
  const refusal = await move(trx, siteId, delta, "require");
  if (refusal) {
    const { quota, limit, used, after } = refusal;
    throw fail(
      "quota_exceeded",
      { quota, limit, used },
      `This write would take the site's ${quota} to ${after}, past its quota of ${limit}; nothing was written.`,
    );
  }
}

/**
 * For derived bytes, which no write is refused for (static copies, frame bakes, media variants):
 * moves the counters by `delta` and answers true when the rise fits as requireRoom would let it;
 * answers false and moves nothing when it does not, and the caller keeps nothing. It reclaims
 * nothing: derived bytes never cost the site its history.
 */
export async function takeRoom(trx: Db, siteId: number, delta: UsageDelta): Promise<boolean> {
  return (await move(trx, siteId, delta, "take")) === null;
}

/**
 * Moves the counters by `delta` whatever the limits: for what a delete keeps besides the object's
 * revisions (its trash entry), so that a delete is never refused, and for a stylesheet bundle
 * made outside a write (styles/copies.ts), which a page needs to stay styled. Bounded all the
 * same: each trash entry stands for an object that was counted when it was made, and such a
 * bundle is made of stylesheets whose writes were counted, again only when what it reads changes
 * outside a stylesheet write (a media address, an imported stylesheet deleted), and the copy it
 * replaces goes a day later.
 */
export async function chargeRoom(trx: Db, siteId: number, delta: UsageDelta): Promise<void> {
  await move(trx, siteId, delta, "charge");
}

/** The sum of `weight` over a table's rows of the site, by the database. */
async function countOf(db: Db, table: "form_submissions", siteId: number): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as("n"))
    .where("site_id", "=", siteId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function sumOf(
  db: Db,
  table:
    | "styles"
    | "strings"
    | "media"
    | "media_variants"
    | "revisions"
    | "trash"
    | "static_copies"
    | "frame_bakes"
    | "style_copies",
  weight: Expression<number> | "bytes",
  siteId: number,
): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>(weight === "bytes" ? eb.ref("bytes") : weight), eb.lit(0)).as("n"))
    .where("site_id", "=", siteId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The site's use counted afresh from what it holds (a pass over its rows, by indexes on site_id):
 * what the counters must equal. For tests, checks and repairs; writes never call it.
 */
export async function recountUsage(db: Db, siteId: number): Promise<QuotaValues> {
  const pages = await db
    .selectFrom("pages")
    .select((eb) => [eb.fn.countAll().as("n"), eb.fn.coalesce(eb.fn.sum(pageBytesSql(db)), eb.lit(0)).as("bytes")])
    .where("site_id", "=", siteId)
    .executeTakeFirstOrThrow();
  const frames = await db
    .selectFrom("frames")
    .select((eb) => [eb.fn.countAll().as("n"), eb.fn.coalesce(eb.fn.sum(textBytes(db, "html")), eb.lit(0)).as("bytes")])
    .where("site_id", "=", siteId)
    .executeTakeFirstOrThrow();
  const data = await db
    .selectFrom("datasets")
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum("total"), eb.lit(0)).as("items"),
      eb.fn.coalesce(eb.fn.sum(textBytes(db, "items_json")), eb.lit(0)).as("bytes"),
    ])
    .where("site_id", "=", siteId)
    .executeTakeFirstOrThrow();
  const stored = [
    Number(pages.bytes),
    Number(frames.bytes),
    Number(data.bytes),
    await sumOf(db, "styles", "bytes", siteId),
    await sumOf(db, "strings", sql<number>`(${textBytes(db, "key")} + ${textBytes(db, "text")})`, siteId),
    await sumOf(db, "revisions", revisionBytesSql(db), siteId),
    await sumOf(db, "trash", trashBytesSql(db), siteId),
  ];
  return {
    pages: Number(pages.n),
    frames: Number(frames.n),
    data_items: Number(data.items),
    stored_bytes: stored.reduce((sum, bytes) => sum + bytes, 0),
    media_bytes: (await sumOf(db, "media", "bytes", siteId)) + (await sumOf(db, "media_variants", "bytes", siteId)),
    published_bytes:
      (await sumOf(db, "static_copies", "bytes", siteId)) +
      (await sumOf(db, "frame_bakes", "bytes", siteId)) +
      (await sumOf(db, "style_copies", "bytes", siteId)),
    form_submissions: await countOf(db, "form_submissions", siteId),
  };
}

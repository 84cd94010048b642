// The write pipeline (docs/architecture.md, "The write path"): every write of every capability runs
// through `runWrite`. A capability states its write — the rows it applies in the transaction, what
// it wrote (`wrote`), the public changes, the quota room it takes — and the pipeline does the rest,
// in this order:
//
//   1. open the transaction (through the publisher when the changes are tried: rehearsal.ts);
//   2. take the site's use counters first (quotas/usage.ts: one lock order for every write);
//   3. apply the capability's rows;
//   3b. keep the site search index of the pages they changed (search-index.ts);
//   4. check the room they take (quota_exceeded rolls everything back);
//   5. record a revision of each object written that keeps revisions (the kind's reviser);
//   6. try the changes within the render budgets (render_too_large rolls everything back);
//   7. append the outbox entry: the changes (publishing's input) and what was written;
//   7b. append the events of what was written (events.ts), naming that outbox entry;
//   8. commit — or, for a dry run, roll back and answer what the write found;
//   9. publish: the engine pays the outbox entry (filling its events' `published`) and answers `rebaked`.
//
// A unique-key violation (two writers racing for one name) is answered by the capability's
// `taken`, read after the rollback. Preview is a mode of the same path (`rolledBack`): the write is
// applied, read through its transaction, and always rolled back.
import { isUniqueViolation } from "../store/errors.ts";
import type { Db } from "../store/database.ts";
import { dryRunnable } from "../store/dry-run.ts";
import { holdRoom, requireRoom, type UsageDelta } from "../quotas/usage.ts";
import { gmt } from "../clock.ts";
import { appendEvents } from "./events.ts";
import { keepSearchIndex } from "./search-index.ts";
import {
  nothingRebaked,
  type Change,
  type PublishOptions,
  type Rebaked,
  type Trial,
  type Written,
  type WrittenKind,
} from "./change.ts";
import { oweChanges, transactionWithTrial, type ServiceContext } from "./context.ts";

/** What a capability's rows came to, answered by its `apply`. */
export interface Applied<T> {
  /** What the capability answers (its record, its report). */
  value: T;
  /** The objects it wrote; each that keeps revisions gets one (its kind's reviser), deleted ones aside. */
  wrote: readonly Written[];
  /** What pages print that changed: the input to publishing (none: nothing to publish). */
  changes?: readonly Change[];
  /** The quota room the rows take (or free), checked after they are applied. */
  room?: UsageDelta;
  /** The site its changes are for, when the write named none up front (a site it created or deleted). */
  forSite?: number;
}

export interface Write<T> {
  /** The site written (null: a write of no site, such as a user's own row). */
  siteId: number | null;
  /** Roll back after everything is checked, and answer what the write found. */
  dryRun?: boolean;
  /** Try the changes within the render budgets inside the transaction (what pages print). */
  trial?: boolean;
  /** How the changes are published: `bake`, `limit`, `first`. */
  publish?: Pick<PublishOptions, "bake" | "limit" | "first">;
  /** The capability's rows, in the transaction. May run twice (a trial's rehearsal): write only through `trx`. */
  apply(trx: Db): Promise<Applied<T>>;
  /** The error a unique-key violation means (another writer took the name first), read after the rollback. */
  taken?(): Promise<Error>;
  /**
   * false: the changes are published after the commit but not owed — a site's own deletion, whose
   * outbox row would go with it (its rows cascade). A process dying in between leaves the other
   * processes to forget its hosts on their own (their host directory finds no site).
   */
  owed?: boolean;
}

export interface Done<T> {
  value: T;
  wrote: readonly Written[];
  changes: readonly Change[];
  /** Whether it was kept (false: a dry run). */
  applied: boolean;
  /** What publishing did; nothingRebaked() when there was nothing to publish or it was a dry run. */
  rebaked: Rebaked;
}

/** Records a revision of objects of one kind after a write (the owner's `<feature>/revision.ts`). */
export type Reviser = (trx: Db, siteId: number, ids: readonly string[], now: string) => Promise<void>;

const revisers = new Map<WrittenKind, Reviser>();

/** Called once by the capability owning a kind that keeps revisions (revisions/, docs/revisions.md). */
export function revisedBy(kind: WrittenKind, reviser: Reviser): void {
  revisers.set(kind, reviser);
}

/** The pipeline's steps 2–7 inside the transaction: the applied write, its trial and its outbox row. */
interface Inside<T> {
  applied: Applied<T>;
  /** The site it wrote: named up front, or by the write once applied (`forSite`). */
  siteId: number | null;
  trial?: Trial;
  owed?: number;
}

async function reviseWritten(trx: Db, siteId: number, wrote: readonly Written[], now: string): Promise<void> {
  const byKind = new Map<WrittenKind, string[]>();
  for (const written of wrote) {
    if (written.action === "deleted" || !revisers.has(written.kind)) continue;
    const ids = byKind.get(written.kind) ?? [];
    ids.push(written.id);
    byKind.set(written.kind, ids);
  }
  for (const [kind, ids] of byKind) await revisers.get(kind)!(trx, siteId, ids, now);
}

/** Steps 2–4, shared by a write and a preview: the counters taken, the rows applied, their room required. */
async function applyRows<T>(write: Write<T>, trx: Db): Promise<{ applied: Applied<T>; siteId: number | null }> {
  if (write.siteId !== null) await holdRoom(trx, write.siteId);
  const applied = await write.apply(trx);
  const siteId = write.siteId ?? applied.forSite ?? null;
  if (siteId !== null && applied.room) await requireRoom(trx, siteId, applied.room);
  return { applied, siteId };
}

/** Steps 2–7: what runs in the write's transaction (and again when a trial's rehearsal repeats it). */
async function inside<T>(ctx: ServiceContext, write: Write<T>, trx: Db): Promise<Inside<T>> {
  const { applied, siteId } = await applyRows(write, trx);
  if (siteId !== null) await keepSearchIndex(trx, siteId, applied.changes ?? [], applied.wrote);
  if (siteId !== null) await reviseWritten(trx, siteId, applied.wrote, gmt(ctx.clock()));
  const changes = siteId === null ? [] : [...(applied.changes ?? [])];
  let trial: Trial | undefined;
  let owed: number | undefined;
  if (siteId !== null && changes.length > 0) {
    const options: PublishOptions = { ...write.publish };
    trial = write.trial ? await ctx.publisher.check(trx, siteId, changes, options) : undefined;
    owed =
      write.dryRun || write.owed === false
        ? undefined
        : await oweChanges(ctx, trx, siteId, changes, options, applied.wrote);
  }
  // Last, after the revisions whose sha256 they carry and the outbox row whose payment tells what
  // they published; a dry run, rolled back, appends none.
  if (!write.dryRun) await appendEvents(trx, siteId, applied.wrote, ctx.clock(), owed);
  return { applied, siteId, trial, owed };
}

/** Runs a write through the pipeline (steps 1–9 above) and answers what it did. */
export async function runWrite<T>(ctx: ServiceContext, write: Write<T>): Promise<Done<T>> {
  const transaction = write.trial
    ? transactionWithTrial(ctx)
    : <R>(work: (trx: Db) => Promise<R>) => ctx.db.transaction().execute(work);
  let done: Inside<T>;
  try {
    done = await dryRunnable(write.dryRun === true, transaction, (trx) => inside(ctx, write, trx));
  } catch (error) {
    if (write.taken && isUniqueViolation(error)) throw await write.taken();
    throw error;
  }
  const { applied, siteId, trial, owed } = done;
  const changes = applied.changes ?? [];
  const base = { value: applied.value, wrote: applied.wrote, changes };
  if (write.dryRun) return { ...base, applied: false, rebaked: nothingRebaked() };
  const rebaked =
    changes.length > 0 && siteId !== null
      ? await ctx.publisher.changed(siteId, [...changes], { ...write.publish, trial, owed })
      : nothingRebaked();
  return { ...base, applied: true, rebaked };
}

/**
 * A write's rows applied and read in one transaction that is always rolled back (a preview): `read`
 * sees what the write would store and answers what the caller keeps of it; nothing stays, nothing
 * is owed or published. The capability's own checks run as they would for the write.
 */
export async function rolledBack<T, R>(
  ctx: ServiceContext,
  write: Write<T>,
  read: (trx: Db, applied: Applied<T>) => Promise<R>,
): Promise<R> {
  const { value } = await dryRunnable<{ value: R }>(
    true,
    (work) => ctx.db.transaction().execute(work),
    async (trx) => {
      const { applied } = await applyRows(write, trx);
      return { value: await read(trx, applied) };
    },
  );
  return value;
}

// The trash (docs/revisions.md): a deleted object keeps its history; its entry says what it was
// called, its last revision, who deleted it and when, and what a restore needs besides its last
// state (`extra`: the pages that stood on a frame). Restores are made by the history feature, which
// knows each kind.
//
// The trash counts against stored_bytes (docs/revisions.md, "What counts"): an entry's own bytes as
// it is made and taken out, and the deleted object's revisions until they go — purged
// (`purgeTrashed`) or pruned by retention (`prune`), each freeing exactly what it deletes in its
// transaction.
import { currentActor } from "../actor.ts";
import { fail } from "../errors.ts";
import { revisionBytesSql, trashBytes } from "../quotas/bytes.ts";
import { chargeRoom, holdRoom, requireRoom } from "../quotas/usage.ts";
import type { Db } from "../store/database.ts";
import { AnyObject, jsonColumn } from "../store/json-column.ts";
import { lastRevision, type RevisionKind } from "./revisions.ts";

export interface TrashEntry {
  kind: RevisionKind;
  id: string;
  slug: string;
  last_revision: number;
  deleted_at_gmt: string;
  deleted_by: number | null;
}

/** Puts a deleted object in the trash (inside the deleting transaction), after its last revision. */
export async function toTrash(
  trx: Db,
  siteId: number,
  kind: RevisionKind,
  objectId: string,
  slug: string,
  now: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const values = {
    slug,
    last_revision: await lastRevision(trx, siteId, kind, objectId),
    extra_json: JSON.stringify(extra),
    deleted_at_gmt: now,
    deleted_by: currentActor(),
  };
  await holdRoom(trx, siteId);
  const before = await trx
    .selectFrom("trash")
    .select(["slug", "extra_json"])
    .where("site_id", "=", siteId)
    .where("kind", "=", kind)
    .where("object_id", "=", objectId)
    .executeTakeFirst();
  // Charged, never refused: a delete always goes through (quotas/usage.ts, chargeRoom).
  await chargeRoom(trx, siteId, { stored_bytes: trashBytes(values) - (before ? trashBytes(before) : 0) });
  await trx
    .insertInto("trash")
    .values({ site_id: siteId, kind, object_id: objectId, ...values })
    .onConflict((oc) => oc.columns(["site_id", "kind", "object_id"]).doUpdateSet(values))
    .execute();
}

export async function listTrash(db: Db, siteId: number): Promise<TrashEntry[]> {
  const rows = await db
    .selectFrom("trash")
    .selectAll()
    .where("site_id", "=", siteId)
    .orderBy("deleted_at_gmt", "desc")
    .orderBy("kind")
    .orderBy("object_id")
    .execute();
  return rows.map((row) => ({
    kind: row.kind as RevisionKind,
    id: row.object_id,
    slug: row.slug,
    last_revision: row.last_revision,
    deleted_at_gmt: row.deleted_at_gmt,
    deleted_by: row.deleted_by,
  }));
}

/** What a kind keeps with its trash entry to restore it (`extra_json`): an object of its own. */
const TRASH_EXTRA = jsonColumn("trash.extra_json", AnyObject);

export async function trashEntry(
  db: Db,
  siteId: number,
  kind: string,
  objectId: string,
): Promise<(TrashEntry & { extra: Record<string, unknown> }) | undefined> {
  const row = await db
    .selectFrom("trash")
    .selectAll()
    .where("site_id", "=", siteId)
    .where("kind", "=", kind)
    .where("object_id", "=", objectId)
    .executeTakeFirst();
  return (
    row && {
      kind: row.kind as RevisionKind,
      id: row.object_id,
      slug: row.slug,
      last_revision: row.last_revision,
      deleted_at_gmt: row.deleted_at_gmt,
      deleted_by: row.deleted_by,
      extra: TRASH_EXTRA.read(row.extra_json),
    }
  );
}

/** Takes an object out of the trash (it was restored, or it exists again). */
export async function leaveTrash(trx: Db, siteId: number, kind: RevisionKind, objectId: string): Promise<void> {
  await holdRoom(trx, siteId);
  const gone = await trx
    .deleteFrom("trash")
    .where("site_id", "=", siteId)
    .where("kind", "=", kind)
    .where("object_id", "=", objectId)
    .returning(["slug", "extra_json"])
    .executeTakeFirst();
  if (gone) await requireRoom(trx, siteId, { stored_bytes: -trashBytes(gone) });
}

/**
 * Deletes an object's trash entry and its whole history, or its revisions up to `upTo` only, and
 * frees their bytes, in the caller's transaction. Answers what went.
 */
async function dropHistory(
  trx: Db,
  siteId: number,
  kind: string,
  objectId: string,
  upTo?: number,
): Promise<{ revisions: number; bytes: number }> {
  await holdRoom(trx, siteId);
  let revisions = trx
    .selectFrom("revisions")
    .where("site_id", "=", siteId)
    .where("kind", "=", kind)
    .where("object_id", "=", objectId);
  if (upTo !== undefined) revisions = revisions.where("revision", "<=", upTo);
  const held = await revisions
    .select((eb) => [eb.fn.countAll().as("n"), eb.fn.coalesce(eb.fn.sum(revisionBytesSql(trx)), eb.lit(0)).as("bytes")])
    .executeTakeFirstOrThrow();
  let bytes = Number(held.bytes);
  let gone = trx
    .deleteFrom("revisions")
    .where("site_id", "=", siteId)
    .where("kind", "=", kind)
    .where("object_id", "=", objectId);
  if (upTo !== undefined) gone = gone.where("revision", "<=", upTo);
  await gone.execute();
  if (upTo === undefined) {
    const entry = await trx
      .deleteFrom("trash")
      .where("site_id", "=", siteId)
      .where("kind", "=", kind)
      .where("object_id", "=", objectId)
      .returning(["slug", "extra_json"])
      .executeTakeFirst();
    if (entry) bytes += trashBytes(entry);
  }
  await requireRoom(trx, siteId, { stored_bytes: -bytes });
  return { revisions: Number(held.n), bytes };
}

/**
 * Deletes a trashed object for good (DELETE /trash/{kind}/{id}): its entry and its whole history,
 * freeing their bytes, in the purging write's transaction (the history feature runs it through the
 * write pipeline, so a dry run deletes nothing and the purge is an event). Answers what went and
 * the name the entry kept. 404 trash_item_not_found for an object that is not in the site's trash.
 */
export async function purgeTrashed(
  trx: Db,
  siteId: number,
  kind: string,
  objectId: string,
): Promise<{ kind: RevisionKind; id: string; slug: string; revisions: number; bytes: number }> {
  const entry = await trashEntry(trx, siteId, kind, objectId);
  if (!entry) throw fail("trash_item_not_found", { kind, id: objectId });
  return { kind: entry.kind, id: objectId, slug: entry.slug, ...(await dropHistory(trx, siteId, kind, objectId)) };
}

/**
 * Retention (docs/revisions.md): each object keeps its last `keep` revisions; a deleted object
 * stays in the trash `days` days, then goes with its history. Answers what was removed.
 */
export async function prune(
  db: Db,
  keep: number,
  days: number,
  now: Date,
): Promise<{ revisions: number; trashed: number }> {
  const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString().replace("T", " ").slice(0, 19);
  let trashed = 0;
  const expired = await db
    .selectFrom("trash")
    .select(["site_id", "kind", "object_id"])
    .where("deleted_at_gmt", "<", cutoff)
    .limit(1000)
    .execute();
  for (const entry of expired) {
    const gone = await db.transaction().execute(async (trx) => {
      await holdRoom(trx, entry.site_id);
      // Restored (or deleted again) since it was listed: its history is no longer the trash's.
      const still = await trx
        .selectFrom("trash")
        .select("object_id")
        .where("site_id", "=", entry.site_id)
        .where("kind", "=", entry.kind)
        .where("object_id", "=", entry.object_id)
        .where("deleted_at_gmt", "<", cutoff)
        .executeTakeFirst();
      return still && dropHistory(trx, entry.site_id, entry.kind, entry.object_id);
    });
    if (gone) trashed++;
  }
  // Objects with more than `keep` revisions: their oldest go.
  const crowded = await db
    .selectFrom("revisions")
    .select(["site_id", "kind", "object_id", (eb) => eb.fn.max("revision").as("top")])
    .groupBy(["site_id", "kind", "object_id"])
    .having((eb) => eb.fn.countAll(), ">", keep)
    .limit(1000)
    .execute();
  let revisions = 0;
  for (const object of crowded) {
    const gone = await db
      .transaction()
      .execute((trx) => dropHistory(trx, object.site_id, object.kind, object.object_id, Number(object.top) - keep));
    revisions += gone.revisions;
  }
  return { revisions, trashed };
}

// The trash (issue 22): a deleted object keeps its history; its entry says what it was called,
// its last revision, who deleted it and when, and what a restore needs besides its last state
// (`extra`: the pages that stood on a frame). Restores are made by the history feature, which
// knows each kind.
import { currentActor } from "../actor.ts";
import type { Db } from "../store/database.ts";
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
export async function toTrash(trx: Db, siteId: number, kind: RevisionKind, objectId: string, slug: string, now: string, extra: Record<string, unknown> = {}): Promise<void> {
  const values = { slug, last_revision: await lastRevision(trx, siteId, kind, objectId), extra_json: JSON.stringify(extra), deleted_at_gmt: now, deleted_by: currentActor() };
  await trx
    .insertInto("trash")
    .values({ site_id: siteId, kind, object_id: objectId, ...values })
    .onConflict((oc) => oc.columns(["site_id", "kind", "object_id"]).doUpdateSet(values))
    .execute();
}

export async function listTrash(db: Db, siteId: number): Promise<TrashEntry[]> {
  const rows = await db.selectFrom("trash").selectAll().where("site_id", "=", siteId).orderBy("deleted_at_gmt", "desc").orderBy("kind").orderBy("object_id").execute();
  return rows.map((row) => ({ kind: row.kind as RevisionKind, id: row.object_id, slug: row.slug, last_revision: row.last_revision, deleted_at_gmt: row.deleted_at_gmt, deleted_by: row.deleted_by }));
}

export async function trashEntry(db: Db, siteId: number, kind: string, objectId: string): Promise<(TrashEntry & { extra: Record<string, unknown> }) | undefined> {
  const row = await db.selectFrom("trash").selectAll().where("site_id", "=", siteId).where("kind", "=", kind).where("object_id", "=", objectId).executeTakeFirst();
  return row && { kind: row.kind as RevisionKind, id: row.object_id, slug: row.slug, last_revision: row.last_revision, deleted_at_gmt: row.deleted_at_gmt, deleted_by: row.deleted_by, extra: JSON.parse(row.extra_json) as Record<string, unknown> };
}

/** Takes an object out of the trash (it was restored, or it exists again). */
export async function leaveTrash(trx: Db, siteId: number, kind: RevisionKind, objectId: string): Promise<void> {
  await trx.deleteFrom("trash").where("site_id", "=", siteId).where("kind", "=", kind).where("object_id", "=", objectId).execute();
}

/**
 * Retention (docs/revisions.md): each object keeps its last `keep` revisions; a deleted object
 * stays in the trash `days` days, then goes with its history. Answers what was removed.
 */
export async function prune(db: Db, keep: number, days: number, now: Date): Promise<{ revisions: number; trashed: number }> {
  const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString().replace("T", " ").slice(0, 19);
  let trashed = 0;
  const expired = await db.selectFrom("trash").select(["site_id", "kind", "object_id"]).where("deleted_at_gmt", "<", cutoff).limit(1000).execute();
  for (const entry of expired) {
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom("revisions").where("site_id", "=", entry.site_id).where("kind", "=", entry.kind).where("object_id", "=", entry.object_id).execute();
      await trx.deleteFrom("trash").where("site_id", "=", entry.site_id).where("kind", "=", entry.kind).where("object_id", "=", entry.object_id).execute();
    });
    trashed++;
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
      .deleteFrom("revisions")
      .where("site_id", "=", object.site_id)
      .where("kind", "=", object.kind)
      .where("object_id", "=", object.object_id)
      .where("revision", "<=", Number(object.top) - keep)
      .executeTakeFirst();
    revisions += Number(gone.numDeletedRows);
  }
  return { revisions, trashed };
}

// What the engine keeps of a site's output — each page's static copy and each frame bake — and the
// bytes it counts against the site's published_bytes (docs/security.md,
// "Quotas"). Every row written or removed moves the counter in the same transaction.
//
// Kept output is derived from what a write stored (and was counted for), so the quota refuses no
// write and never stops a run half-way: an output that does not fit is not kept. A page without a
// copy renders on request (public/), bounded by the render budgets, the page cache and the public
// rate limit; a bake not kept costs nothing, as nothing reads bakes back. A copy or bake that would
// have been replaced goes too, so what is kept is never stale.
import type { Insertable } from "kysely";
import { holdRoom, requireRoom, takeRoom } from "../quotas/usage.ts";
import type { Db } from "../store/database.ts";
import type { FrameBakesTable, StaticCopiesTable } from "../store/schema.ts";

/** Runs `work` in `db` when it is a transaction (the caller's), else in one of its own holding the site's counters. */
async function counted<T>(db: Db, siteId: number, work: (trx: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db);
  return db.transaction().execute(async (trx) => {
    await holdRoom(trx, siteId);
    return work(trx);
  });
}

async function free(trx: Db, siteId: number, gone: ReadonlyArray<{ bytes: number | string }>): Promise<void> {
  await requireRoom(trx, siteId, { published_bytes: -gone.reduce((sum, row) => sum + Number(row.bytes), 0) });
}

/** Writes a page's static copy when it fits; else removes the one it replaces. Answers whether it is kept. */
export async function keepCopy(db: Db, row: Insertable<StaticCopiesTable>): Promise<boolean> {
  return counted(db, row.site_id, async (trx) => {
    const previous = await trx
      .selectFrom("static_copies")
      .select("bytes")
      .where("site_id", "=", row.site_id)
      .where("page_id", "=", row.page_id)
      .executeTakeFirst();
    if (!(await takeRoom(trx, row.site_id, { published_bytes: row.bytes - Number(previous?.bytes ?? 0) }))) {
      if (previous) await dropCopies(trx, row.site_id, [row.page_id]);
      return false;
    }
    const { address, frame_id, html, bytes, sha256, written_at_gmt } = row;
    await trx
      .insertInto("static_copies")
      .values(row)
      .onConflict((oc) =>
        oc.columns(["site_id", "page_id"]).doUpdateSet({ address, frame_id, html, bytes, sha256, written_at_gmt }),
      )
      .execute();
    return true;
  });
}

/** Removes these pages' static copies and frees their bytes. */
export async function dropCopies(db: Db, siteId: number, pageIds: readonly number[]): Promise<void> {
  if (pageIds.length === 0) return;
  await counted(db, siteId, async (trx) => {
    const gone = await trx
      .deleteFrom("static_copies")
      .where("site_id", "=", siteId)
      .where("page_id", "in", [...pageIds])
      .returning("bytes")
      .execute();
    await free(trx, siteId, gone);
  });
}

/** Writes a frame's bake in one language when it fits; else removes the one it replaces. Answers whether it is kept. */
export async function keepBake(db: Db, row: Insertable<FrameBakesTable>): Promise<boolean> {
  return counted(db, row.site_id, async (trx) => {
    const previous = await trx
      .selectFrom("frame_bakes")
      .select("bytes")
      .where("frame_id", "=", row.frame_id)
      .where("lang", "=", row.lang)
      .executeTakeFirst();
    if (!(await takeRoom(trx, row.site_id, { published_bytes: row.bytes - Number(previous?.bytes ?? 0) }))) {
      if (previous) await dropBakes(trx, row.site_id, row.frame_id, row.lang);
      return false;
    }
    const { html, bytes, report_json, baked_at_gmt } = row;
    await trx
      .insertInto("frame_bakes")
      .values(row)
      .onConflict((oc) => oc.columns(["frame_id", "lang"]).doUpdateSet({ html, bytes, report_json, baked_at_gmt }))
      .execute();
    return true;
  });
}

/**
 * Removes a frame's bakes (in one language, or all) and frees their bytes. The frames feature
 * calls it in the transaction that deletes the frame, before the row goes: the bakes would go with
 * it (ON DELETE CASCADE) without their bytes being freed.
 */
export async function dropBakes(db: Db, siteId: number, frameId: string, lang?: string): Promise<void> {
  await counted(db, siteId, async (trx) => {
    let query = trx.deleteFrom("frame_bakes").where("site_id", "=", siteId).where("frame_id", "=", frameId);
    if (lang !== undefined) query = query.where("lang", "=", lang);
    await free(trx, siteId, await query.returning("bytes").execute());
  });
}

// Room made from old revisions (docs/revisions.md, "What counts"). Revisions
// count against stored_bytes, so a site at its quota could otherwise write nothing more, although
// most of what it holds may be old revisions. Before a write is refused for stored_bytes, the
// site's revisions beyond the newest KEPT_AT_QUOTA of their object go, oldest first, until the
// write fits; the rest of each object's history stays. The pruning runs in the write's own
// transaction (the quotas module calls it from requireRoom), so a refused write prunes nothing.
//
// Only a write that needs room pays for the search: it reads the site's revisions in the order
// they were made (index revisions_site_order), a batch at a time, and stops once enough is free.
import { sql } from "kysely";
import { revisionBytesSql } from "../quotas/bytes.ts";
import { reclaimWith } from "../quotas/usage.ts";
import type { Db } from "../store/database.ts";

/** The newest revisions of each object that are never pruned to make room. */
export const KEPT_AT_QUOTA = 10;

const BATCH = 200;

/** Deletes the site's oldest revisions beyond each object's newest KEPT_AT_QUOTA until `needed` bytes are free; answers the bytes freed. */
export async function pruneForRoom(trx: Db, siteId: number, needed: number): Promise<number> {
  let freed = 0;
  while (freed < needed) {
    const batch = await trx
      .selectFrom("revisions as r")
      .select(["r.id", revisionBytesSql(trx, "r.").as("bytes")])
      .where("r.site_id", "=", siteId)
      .where(
        sql<boolean>`r.revision <= (select max(n.revision) from revisions n where n.site_id = r.site_id and n.kind = r.kind and n.object_id = r.object_id) - ${KEPT_AT_QUOTA}`,
      )
      .orderBy("r.id")
      .limit(BATCH)
      .execute();
    if (batch.length === 0) break;
    const taken: number[] = [];
    for (const row of batch) {
      if (freed >= needed) break;
      taken.push(row.id);
      freed += Number(row.bytes);
    }
    await trx.deleteFrom("revisions").where("id", "in", taken).execute();
  }
  return freed;
}

reclaimWith("stored_bytes", pruneForRoom);

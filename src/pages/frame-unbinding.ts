// The pages' side of a frame deletion: pages standing on the frame are taken off it, in the
// transaction that deletes the frame (frames/delete-service.ts is given this function, and lists
// the pages it answers as written: the write pipeline revises them, revision.ts), and those that
// answered publicly are named (`pages_offline`).
import type { PublicFront } from "../config.ts";
import { siteAddressing } from "../site/addresses.ts";
import type { SiteRow } from "../site/sites.ts";
import type { UnbindPages } from "../frames/delete-service.ts";
import { offlineOf } from "./offline.ts";
import { withAncestors } from "./queries.ts";
import { PageTree } from "./tree.ts";
import type { Db } from "../store/database.ts";

export function unbindFrame(site: SiteRow, publicFront: PublicFront): UnbindPages {
  return async (trx, siteId, frameId) => {
    const pages = await trx
      .selectFrom("pages")
      .select("id")
      .where("site_id", "=", siteId)
      .where("frame_id", "=", frameId)
      .orderBy("id")
      .execute();
    const ids = pages.map((p) => p.id);
    if (ids.length === 0) return { pages: ids, offline: [] };
    const [addressing, rows] = await Promise.all([
      siteAddressing(trx, site, publicFront),
      withAncestors(trx, siteId, ids),
    ]);
    const offline = offlineOf(addressing, new PageTree(rows), ids, "its frame was deleted");
    await trx
      .updateTable("pages")
      .set({ frame_id: null })
      .where("site_id", "=", siteId)
      .where("frame_id", "=", frameId)
      .execute();
    return { pages: ids, offline };
  };
}

/**
 * The pages' side of a frame brought back from the trash: those of `pageIds` that still stand on
 * no frame are put back on it (a page given another frame meanwhile keeps it). Answers their ids.
 * Revised here: the restore that calls it (history/frames.ts) lists only the frame as written.
 */
export async function rebindFrame(
  trx: Db,
  siteId: number,
  frameId: string,
  pageIds: readonly number[],
): Promise<number[]> {
  if (pageIds.length === 0) return [];
  const free = await trx
    .selectFrom("pages")
    .select("id")
    .where("site_id", "=", siteId)
    .where("id", "in", [...pageIds])
    .where("frame_id", "is", null)
    .orderBy("id")
    .execute();
  const ids = free.map((p) => p.id);
  if (ids.length === 0) return ids;
  await trx
    .updateTable("pages")
    .set({ frame_id: frameId })
    .where("site_id", "=", siteId)
    .where("id", "in", ids)
    .execute();
  return ids;
}

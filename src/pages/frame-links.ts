// The pages' side of a frame deletion: pages standing on the frame are taken off it, in the
// transaction that deletes the frame (frames/delete-service.ts is given this function), and
// those that answered publicly are named (`pages_offline`).
import { siteAddressing } from "../site/addresses.ts";
import type { SiteRow } from "../site/sites.ts";
import type { UnbindPages } from "../frames/delete-service.ts";
import { offlineOf } from "./offline.ts";
import { withAncestors } from "./queries.ts";
import { PageTree } from "./tree.ts";

export function unbindFrame(site: SiteRow, publicPort: number): UnbindPages {
  return async (trx, siteId, frameId) => {
    const pages = await trx.selectFrom("pages").select("id").where("site_id", "=", siteId).where("frame_id", "=", frameId).orderBy("id").execute();
    const ids = pages.map((p) => p.id);
    if (ids.length === 0) return { pages: ids, offline: [] };
    const [addressing, rows] = await Promise.all([siteAddressing(trx, site, publicPort), withAncestors(trx, siteId, ids)]);
    const offline = offlineOf(addressing, new PageTree(rows), ids, "its frame was deleted");
    await trx.updateTable("pages").set({ frame_id: null }).where("site_id", "=", siteId).where("frame_id", "=", frameId).execute();
    return { pages: ids, offline };
  };
}

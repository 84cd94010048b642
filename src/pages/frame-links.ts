// The pages' side of a frame deletion: pages standing on the frame are taken off it, in the
// transaction that deletes the frame (frames/delete-service.ts is given this function).
import type { Db } from "../store/database.ts";

export async function unbindFrame(trx: Db, siteId: number, frameId: string): Promise<number[]> {
  const pages = await trx.selectFrom("pages").select("id").where("site_id", "=", siteId).where("frame_id", "=", frameId).orderBy("id").execute();
  const ids = pages.map((p) => p.id);
  if (ids.length > 0) await trx.updateTable("pages").set({ frame_id: null }).where("site_id", "=", siteId).where("frame_id", "=", frameId).execute();
  return ids;
}

// The pages that stand on frames (pages store the frame id).
import type { Db } from "../store/database.ts";

/** Page ids on each of these frames, ascending. */
export async function pagesOnFrames(
  db: Db,
  siteId: number,
  frameIds: readonly string[],
): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  if (frameIds.length === 0) return out;
  const rows = await db
    .selectFrom("pages")
    .select(["id", "frame_id"])
    .where("site_id", "=", siteId)
    .where("frame_id", "in", [...frameIds])
    .orderBy("id")
    .execute();
  for (const row of rows) {
    const list = out.get(row.frame_id!) ?? [];
    list.push(row.id);
    out.set(row.frame_id!, list);
  }
  return out;
}

// Where a file is used: the frames whose own markup reads it (`media.<id>` or `media.<slug>` among
// the sources of their compiled analysis: tokens `media.<ref>.…` and `svc/image`), and the pages
// standing on those frames. The same names the publish step rebakes on a media change.
import type { Db } from "../store/database.ts";
import { siteFrameNodes } from "../frames/graph.ts";

export interface UsedBy {
  frames: Array<{ id: string; slug: string }>;
  pages: Array<{ id: number; path: string }>;
}

/** `used_by` of each file, by id: one read of the site's frame graph and one of their pages. */
export async function usedByOf(db: Db, siteId: number, files: ReadonlyArray<{ id: number; slug: string }>): Promise<Map<number, UsedBy>> {
  const out = new Map<number, UsedBy>();
  if (files.length === 0) return out;
  const readers = new Map<string, Array<{ id: string; slug: string }>>();
  for (const node of await siteFrameNodes(db, siteId)) {
    for (const source of node.sources) {
      if (!source.startsWith("media.")) continue;
      const list = readers.get(source) ?? [];
      list.push({ id: node.id, slug: node.slug });
      readers.set(source, list);
    }
  }
  const framesOf = new Map<number, Array<{ id: string; slug: string }>>();
  const frameIds = new Set<string>();
  for (const file of files) {
    const byId = new Map<string, { id: string; slug: string }>();
    for (const frame of [...(readers.get(`media.${file.id}`) ?? []), ...(readers.get(`media.${file.slug}`) ?? [])]) byId.set(frame.id, frame);
    const frames = [...byId.values()].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
    for (const frame of frames) frameIds.add(frame.id);
    framesOf.set(file.id, frames);
  }
  const pagesOn = new Map<string, Array<{ id: number; path: string }>>();
  if (frameIds.size > 0) {
    const rows = await db.selectFrom("pages").select(["id", "path", "frame_id"]).where("site_id", "=", siteId).where("frame_id", "in", [...frameIds]).orderBy("id").execute();
    for (const row of rows) {
      const list = pagesOn.get(row.frame_id!) ?? [];
      list.push({ id: row.id, path: row.path });
      pagesOn.set(row.frame_id!, list);
    }
  }
  for (const file of files) {
    const frames = framesOf.get(file.id)!;
    const pages = frames.flatMap((frame) => pagesOn.get(frame.id) ?? []).sort((a, b) => a.id - b.id);
    out.set(file.id, { frames, pages });
  }
  return out;
}

// Where a file is used: the frames whose own markup reads it (`media.<id>` or `media.<slug>` among
// the sources of their compiled analysis: tokens `media.<ref>.…` and `svc/image`), and the pages
// that show it: the pages standing on those frames or on a frame embedding one of them (svc/frame,
// svc/partial, transitively). Those are the pages a media change rebakes (the dependency index
// matches a frame's effective sources, its own and its embeds').
import type { Db } from "../store/database.ts";
import { siteIndex } from "../frames/graph.ts";
import type { DependencyIndex, FrameNode } from "../effects/dependency-index.ts";

export interface UsedBy {
  frames: Array<{ id: string; slug: string }>;
  pages: Array<{ id: number; path: string }>;
}

/**
 * The frames reading each `media.<ref>` source, by source. Made once per dependency index, which
 * the site shares while its frames stay as they are (frames/graph.ts), so a read of `used_by`
 * costs what the file is used by, not the size of the site.
 */
const readersMemo = new WeakMap<DependencyIndex, Map<string, FrameNode[]>>();

function mediaReaders(index: DependencyIndex): Map<string, FrameNode[]> {
  let readers = readersMemo.get(index);
  if (readers) return readers;
  readers = new Map();
  for (const node of index.frames()) {
    for (const source of new Set(node.sources)) {
      if (!source.startsWith("media.")) continue;
      const list = readers.get(source);
      if (list) list.push(node);
      else readers.set(source, [node]);
    }
  }
  readersMemo.set(index, readers);
  return readers;
}

const bySlug = (a: { slug: string }, b: { slug: string }) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);

/** `used_by` of each file, by id: the site's dependency index and one read of the pages showing them. */
export async function usedByOf(
  db: Db,
  siteId: number,
  files: ReadonlyArray<{ id: number; slug: string }>,
): Promise<Map<number, UsedBy>> {
  const out = new Map<number, UsedBy>();
  if (files.length === 0) return out;
  const index = await siteIndex(db, siteId);
  const readers = mediaReaders(index);
  const framesOf = new Map<number, Array<{ id: string; slug: string }>>();
  /** Per file, the ids of the frames showing it: the readers and every frame embedding one. */
  const showingOf = new Map<number, Set<string>>();
  const frameIds = new Set<string>();
  for (const file of files) {
    const direct = new Map<string, { id: string; slug: string }>();
    for (const node of [...(readers.get(`media.${file.id}`) ?? []), ...(readers.get(`media.${file.slug}`) ?? [])])
      direct.set(node.id, { id: node.id, slug: node.slug });
    const frames = [...direct.values()].sort(bySlug);
    framesOf.set(file.id, frames);
    const showing = new Set(direct.keys());
    if (frames.length > 0) {
      for (const slug of index.embeddersOf(frames.map((frame) => frame.slug))) {
        const node = index.get(slug);
        if (node) showing.add(node.id);
      }
    }
    showingOf.set(file.id, showing);
    for (const id of showing) frameIds.add(id);
  }
  const pagesOn = new Map<string, Array<{ id: number; path: string }>>();
  if (frameIds.size > 0) {
    const rows = await db
      .selectFrom("pages")
      .select(["id", "path", "frame_id"])
      .where("site_id", "=", siteId)
      .where("frame_id", "in", [...frameIds])
      .orderBy("id")
      .execute();
    for (const row of rows) {
      const list = pagesOn.get(row.frame_id!) ?? [];
      list.push({ id: row.id, path: row.path });
      pagesOn.set(row.frame_id!, list);
    }
  }
  for (const file of files) {
    const pages = [...showingOf.get(file.id)!].flatMap((id) => pagesOn.get(id) ?? []).sort((a, b) => a.id - b.id);
    out.set(file.id, { frames: framesOf.get(file.id)!, pages });
  }
  return out;
}

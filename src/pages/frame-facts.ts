// How a page meets its frame: the stored `frame_id` (16 hex) becomes the record's `frame` slug,
// and the frame's facts decide `printed` and `static` (docs/content-model.md, "The record"). This
// is the seam the frames and publish work complete; pages never write frames.
import { storedAnalysisOr } from "../frames/record.ts";
import { frameByRef } from "../frames/queries.ts";
import { siteIndex } from "../frames/graph.ts";
import { fail } from "../errors.ts";
import { DependencyIndex, type FrameNode } from "../effects/dependency-index.ts";
import type { Db } from "../store/database.ts";
import { CorruptJson } from "../store/json-column.ts";

export interface FrameFacts {
  id: string;
  slug: string;
  /** The frame, or one it embeds, depends on the page: no static copy, rendered per request. */
  rendersOnRequest: boolean;
}

export interface StaticCopyFacts {
  address: string;
  bytes: number;
  written_at_gmt: string;
}

/**
 * Facts of the frames these pages stand on, by frame id; a frame id with no frame is absent.
 * The site's dependency index is the one the frames service keeps (frames/graph.ts), so a page
 * answer does not read every frame row again; should a stored analysis not read, the rows are
 * read here as before, with such a frame counted as reading nothing.
 */
export async function frameFactsOf(
  db: Db,
  siteId: number,
  frameIds: ReadonlySet<string>,
): Promise<Map<string, FrameFacts>> {
  if (frameIds.size === 0) return new Map();
  try {
    return factsIn(await siteIndex(db, siteId), frameIds);
  } catch (error) {
    if (!(error instanceof CorruptJson)) throw error;
    return factsIn(await tolerantIndex(db, siteId), frameIds);
  }
}

function factsIn(index: DependencyIndex, frameIds: ReadonlySet<string>): Map<string, FrameFacts> {
  const out = new Map<string, FrameFacts>();
  for (const id of frameIds) {
    const node = index.getById(id);
    if (node) out.set(node.id, { id: node.id, slug: node.slug, rendersOnRequest: index.rendersOnRequest(node.slug) });
  }
  return out;
}

async function tolerantIndex(db: Db, siteId: number): Promise<DependencyIndex> {
  const rows = await db
    .selectFrom("frames")
    .select(["id", "slug", "analysis_json"])
    .where("site_id", "=", siteId)
    .execute();
  const nodes: FrameNode[] = [];
  for (const row of rows) {
    const stored = storedAnalysisOr(row, { analysis: { sources: [], live_reasons: [] }, ref_values: [] });
    nodes.push({
      id: row.id,
      slug: row.slug,
      sources: stored.analysis.sources,
      refs: stored.ref_values,
      liveReasons: stored.analysis.live_reasons,
    });
  }
  return new DependencyIndex(nodes);
}

/** The `frame` of a page record: the slug of the frame it stands on, or null (none, or deleted). */
export function frameSlugOf(frameId: string | null, frames: ReadonlyMap<string, FrameFacts>): string | null {
  if (frameId === null) return null;
  return frames.get(frameId)?.slug ?? null;
}

/** Static copies of these pages, by page id. */
export async function staticCopiesOf(
  db: Db,
  siteId: number,
  pageIds: readonly number[],
): Promise<Map<number, StaticCopyFacts>> {
  const out = new Map<number, StaticCopyFacts>();
  if (pageIds.length === 0) return out;
  const rows = await db
    .selectFrom("static_copies")
    .select(["page_id", "address", "bytes", "written_at_gmt"])
    .where("site_id", "=", siteId)
    .where("page_id", "in", [...pageIds])
    .execute();
  for (const row of rows)
    out.set(row.page_id, { address: row.address, bytes: row.bytes, written_at_gmt: row.written_at_gmt });
  return out;
}

/**
 * A frame reference from a page write (`frame`): null (or "") takes the frame off; an id or a
 * slug names a frame of the site, else 404 frame_not_found. Returns the frame id.
 */
export async function frameIdFromRef(db: Db, siteId: number, ref: unknown): Promise<string | null> {
  if (ref === null || ref === "") return null;
  if (typeof ref !== "string")
    throw fail(
      "invalid_field",
      { field: "frame", expected: "frame id, slug or null" },
      "frame must be a frame id, a slug or null.",
    );
  const frame = ref.trim() === "" ? undefined : await frameByRef(db, siteId, ref);
  if (!frame) throw fail("frame_not_found", { frame: ref });
  return frame.id;
}

// GET of the frame list and of one frame.
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import type { Db } from "../store/database.ts";
import { keptUntilWrite, type KeepOptions } from "../store/kept-reads.ts";
import { siteIndex } from "./graph.ts";
import { pagesOnFrames } from "./pages.ts";
import { frameByRef, framesOfSite } from "./queries.ts";
import { frameEtag, frameRecord } from "./record.ts";
import { SLUG_PATTERN } from "./slug.ts";

export interface ListQuery {
  block?: string;
  q?: string;
  include_html?: string;
  type?: string;
}

/** Plain code-unit order (`article--wide` before `article__faq`), as CONTRACT §9 fixes. */
export const bySlug = (a: { slug: string }, b: { slug: string }) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);

export async function listFrames(db: Db, siteId: number, query: ListQuery) {
  const warnings: Warning[] = [];
  if (query.type !== undefined) warnings.push(warning("type_ignored", "Frames have no type; the type filter was ignored.", { field: "type" }));
  const block = query.block?.trim().toLowerCase();
  const needle = query.q?.trim().toLowerCase();
  const includeHtml = query.include_html === "1" || query.include_html === "true";

  const rows = (await framesOfSite(db, siteId))
    .filter((row) => !block || row.block === block)
    .filter((row) => !needle || row.slug.includes(needle))
    .sort(bySlug);
  const index = await siteIndex(db, siteId);
  const pages = await pagesOnFrames(db, siteId, rows.map((row) => row.id));
  const frames = rows.map((row) =>
    frameRecord(row, { frameRefs: index.embeddedSlugs(row.slug), rendersOnRequest: index.rendersOnRequest(row.slug), pages: pages.get(row.id), html: includeHtml }),
  );
  return { frames, warnings, constants: { registry_option: "svc_frames", page_meta: "_svc_frame", slug_pattern: SLUG_PATTERN } };
}

export function refFrom(ref: string | undefined): string {
  if (ref === undefined || ref.trim() === "") throw fail("frame_ref_required");
  return ref.trim();
}

/**
 * One frame as GET answers it. Clients poll frames (ETag checks, agents reading before they
 * write), so the answer is kept until the database changes (store/kept-reads.ts).
 */
export function getFrame(db: Db, siteId: number, ref: string): Promise<FrameAnswer> {
  const key = refFrom(ref);
  return keptUntilWrite(db, `frame:${siteId}:${key}`, () => readFrame(db, siteId, key, ref), KEEP_FRAME);
}

// Options are made once: a function made on every call costs more than it looks under tsx,
// which names each one at run time.
const KEEP_FRAME: KeepOptions<FrameAnswer> = { weight: (answer) => 2048 + 3 * Number(answer.frame.bytes) };

type FrameAnswer = Awaited<ReturnType<typeof readFrame>>;

/** `key`: `ref` as refFrom made it; a missing frame is named as the caller wrote it. */
async function readFrame(db: Db, siteId: number, key: string, ref: string) {
  const row = await frameByRef(db, siteId, key);
  if (!row) throw fail("frame_not_found", { ref });
  const index = await siteIndex(db, siteId);
  const pages = (await pagesOnFrames(db, siteId, [row.id])).get(row.id) ?? [];
  const frame = frameRecord(row, {
    frameRefs: index.embeddedSlugs(row.slug),
    rendersOnRequest: index.rendersOnRequest(row.slug),
    pages,
    html: true,
    referencedBy: index.directEmbedders(row.slug).filter((slug) => index.get(slug)),
  });
  // `pages` is present, possibly empty, on GET of one frame (CONTRACT §9).
  frame.pages = pages;
  return Object.freeze({ frame: Object.freeze(frame), etag: frameEtag(row) });
}

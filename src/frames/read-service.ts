// GET of the frame list and of one frame.
import { sql } from "kysely";
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import type { Db } from "../store/database.ts";
import { codeUnitOrder, listWindow, type ListWindow } from "../store/lists.ts";
import { keptUntilWrite, type KeepOptions, type MaybePromise } from "../store/kept-reads.ts";
import { siteIndex } from "./graph.ts";
import { pagesOnFrames } from "./pages.ts";
import { frameByRef } from "./queries.ts";
import { frameEtag, frameRecord } from "./record.ts";
import { SLUG_PATTERN } from "./slug.ts";

export interface ListQuery {
  block?: string;
  q?: string;
  include_html?: string;
  type?: string;
}

/** `%`, `_` and the escape character itself, taken literally in a LIKE pattern (escape `!`). */
function likeLiteral(text: string): string {
  return text.replace(/[!%_]/g, (c) => `!${c}`);
}

/**
 * GET /frames: `?block`, `?q` (substring of the slug), `?include_html`. The database pages the
 * list, in plain code-unit order of slugs (docs/lists.md; slugs are unique), and counts every
 * frame that matches.
 */
export async function listFrames(db: Db, siteId: number, query: ListQuery, window: ListWindow) {
  const warnings: Warning[] = [];
  if (query.type !== undefined)
    warnings.push(warning("type_ignored", "Frames have no type; the type filter was ignored.", { field: "type" }));
  const block = query.block?.trim().toLowerCase();
  const needle = query.q?.trim().toLowerCase();
  const includeHtml = query.include_html === "1" || query.include_html === "true";

  let matching = db.selectFrom("frames").where("site_id", "=", siteId);
  if (block) matching = matching.where("block", "=", block);
  // Slugs are lower case, so LIKE matches alike whether the database folds case (SQLite) or not.
  if (needle) matching = matching.where(sql<boolean>`slug like ${`%${likeLiteral(needle)}%`} escape '!'`);
  const { total, rows } = await listWindow(matching.selectAll().orderBy(codeUnitOrder(db, "slug")), window);
  const index = await siteIndex(db, siteId);
  const pages = await pagesOnFrames(
    db,
    siteId,
    rows.map((row) => row.id),
  );
  const frames = rows.map((row) =>
    frameRecord(row, {
      resolve: (ref) => index.resolve(ref),
      frameRefs: index.embeddedSlugs(row.slug),
      rendersOnRequest: index.rendersOnRequest(row.slug),
      pages: pages.get(row.id),
      html: includeHtml,
    }),
  );
  return {
    total,
    frames,
    warnings,
    constants: { registry_option: "svc_frames", page_meta: "_svc_frame", slug_pattern: SLUG_PATTERN },
  };
}

export function refFrom(ref: string | undefined): string {
  if (ref === undefined || ref.trim() === "") throw fail("frame_ref_required");
  return ref.trim();
}

/**
 * One frame as GET answers it. Clients poll frames (ETag checks, agents reading before they
 * write), so the answer is kept until the database changes (store/kept-reads.ts).
 */
export function getFrame(db: Db, siteId: number, ref: string): MaybePromise<FrameAnswer> {
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
    resolve: (ref) => index.resolve(ref),
    frameRefs: index.embeddedSlugs(row.slug),
    rendersOnRequest: index.rendersOnRequest(row.slug),
    pages,
    html: true,
    referencedBy: index.directEmbedders(row.slug).filter((slug) => index.get(slug)),
  });
  // `pages` is present, possibly empty, on GET of one frame; list items leave it out when empty.
  frame.pages = pages;
  return Object.freeze({ frame: Object.freeze(frame), etag: frameEtag(row) });
}

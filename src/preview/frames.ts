// The `frames` of a preview: each `{<slug or id>: markup}` replaces that frame's markup, or adds a
// frame under that slug, inside the preview's transaction. Checked as a frame write checks it
// (frames/input.ts, frames/report.ts): 400 invalid_slug, frame_html_required, invalid_field, 413
// frame_too_large, 400 frame_ref_conflict and frame_cycle. The warnings are the ones a frame write
// answers (analysis with line and column, frame_ref_missing, the site's unknown sources, strings,
// blocks and slots: frames/site-warnings.ts), each naming its `frame`; they are computed once every
// previewed frame is written, so frames previewed together see each other.
import { gmt } from "../clock.ts";
import { fail, ServiceError } from "../errors.ts";
import { frameGraphChanged, siteIndex } from "../frames/graph.ts";
import { markupFrom, slugFrom } from "../frames/input.ts";
import { frameByRef, newFrameId } from "../frames/queries.ts";
import { reportFor, type FrameReport } from "../frames/report.ts";
import { siteWarnings, type Assumed } from "../frames/site-warnings.ts";
import { draftRow, storeFrame } from "../frames/write-service.ts";
import type { Db } from "../store/database.ts";
import { warning, type Warning } from "../warnings.ts";

/** The most frames one preview may replace or add. */
export const MAX_PREVIEW_FRAMES = 100;

/** A frame as the preview wrote it. */
interface Written {
  id: string;
  slug: string;
  html: string;
}

/** The `frames` object of the body (markup by frame, by the route schema): at most MAX_PREVIEW_FRAMES. */
export function frameInputs(value: Readonly<Record<string, string>> | null | undefined): Array<[string, string]> {
  if (value === undefined || value === null) return [];
  const entries = Object.entries(value);
  if (entries.length > MAX_PREVIEW_FRAMES)
    throw fail(
      "invalid_field",
      { field: "frames", max_items: MAX_PREVIEW_FRAMES },
      `frames holds more than ${MAX_PREVIEW_FRAMES} frames.`,
    );
  return entries;
}

/** The markup checked as a frame write checks it, a refusal naming `frames.<ref>`. */
function markupOf(ref: string, raw: string): string {
  try {
    return markupFrom({ html: raw });
  } catch (error) {
    if (error instanceof ServiceError && error.details.field === "html")
      throw new ServiceError(error.code, error.message.replace(/^html\b/, `frames.${ref}`), {
        ...error.details,
        field: `frames.${ref}`,
      });
    if (error instanceof ServiceError)
      throw new ServiceError(error.code, error.message, { ...error.details, frame: ref });
    throw error;
  }
}

/** The warnings a frame write answers for this markup, each naming the frame. */
async function warningsOf(
  trx: Db,
  siteId: number,
  frame: Written,
  report: FrameReport,
  index: Awaited<ReturnType<typeof siteIndex>>,
  assumed: Assumed,
): Promise<Warning[]> {
  const named = (w: Warning): Warning => ({ ...w, frame: frame.slug });
  // In the order a frame write answers them (frames/write-service.ts).
  return [
    ...(await siteWarnings(trx, siteId, frame.html, report, index, assumed)),
    ...report.compiled.analysis.warnings.map((w) =>
      warning(w.code, w.message, { ...w.details, at: w.at, line: w.line, column: w.column }),
    ),
    ...report.frameRefsMissing.map((slug) =>
      warning("frame_ref_missing", `No frame "${slug}" exists yet: its insert prints nothing until one does.`, {
        slug,
      }),
    ),
  ].map(named);
}

/**
 * Writes each frame's markup in `trx` (a new frame for a slug the site does not have) and answers
 * the warnings of every frame written. The frame graph is told of each write (frames/graph.ts), so
 * the render that follows reads them; the caller tells it again once the transaction is over.
 */
export async function writePreviewFrames(
  trx: Db,
  db: Db,
  siteId: number,
  userId: number,
  now: number,
  inputs: ReadonlyArray<[string, string]>,
  assumed: Assumed = {},
): Promise<{ warnings: Warning[]; ids: string[]; slugs: string[] }> {
  const written: Written[] = [];
  const at = gmt(now);
  for (const [ref, raw] of inputs) {
    const html = markupOf(ref, raw);
    const existing = await frameByRef(trx, siteId, ref);
    const slug = existing?.slug ?? slugFrom(ref);
    const id = existing?.id ?? newFrameId();
    const report = reportFor(html, id, slug, await siteIndex(trx, siteId));
    // Stored as the frame's own write stores it (frames/write-service.ts), in the preview's transaction.
    await storeFrame(trx, { ...draftRow(id, slug, html, report, at, userId, existing), site_id: siteId }, existing);
    written.push({ id, slug, html });
    // Named before the next read of the graph, which goes through this transaction.
    frameGraphChanged(db, siteId, [id]);
  }
  // Each frame's report against the site as the preview left it: frames previewed together
  // resolve each other, and a cycle closed by a later frame is refused here too.
  const warnings: Warning[] = [];
  const index = await siteIndex(trx, siteId);
  for (const frame of written) {
    const report = reportFor(frame.html, frame.id, frame.slug, index);
    warnings.push(...(await warningsOf(trx, siteId, frame, report, index, assumed)));
  }
  return { warnings, ids: written.map((frame) => frame.id), slugs: written.map((frame) => frame.slug) };
}

// POST /frames/check (docs/frames.md, "Check"): the warnings a set of frames would get once all of
// them were written, as a frame write answers them, writing nothing. A client pushing several
// frames at once (a layout and the frames that use it) asks once, before its first write, and is
// told what the site would print after the whole push, not after each write in turn. The frames
// are written in one transaction the way a preview writes them (preview/frames.ts), every frame's
// warnings computed once all are written, and the transaction rolled back.
import { fail } from "../errors.ts";
import type { Written } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { rolledBack } from "../write/pipeline.ts";
import { unknownFields, type Warning } from "../warnings.ts";
import { writePreviewFrames } from "../preview/frames.ts";
import { frameGraphChanged } from "./graph.ts";
import { normalizeSlug } from "./slug.ts";

/** The most frames one check takes (the body limit of the API bounds their bytes). */
export const MAX_CHECK_FRAMES = 500;

const BODY_KEYS = ["frames", "data"];

/** The body as the route schema lets it through. */
export interface CheckBody {
  frames?: ReadonlyArray<{ slug: string; html: string }>;
  data?: readonly string[] | null;
}

export interface CheckAnswer {
  frames: Array<{ slug: string; warnings: Warning[] }>;
  warnings: Warning[];
}

function inputsOf(body: CheckBody): Array<[string, string]> {
  const frames = body.frames ?? [];
  if (frames.length === 0)
    throw fail("invalid_field", { field: "frames", min_items: 1 }, "frames names at least one frame to check.");
  if (frames.length > MAX_CHECK_FRAMES)
    throw fail(
      "invalid_field",
      { field: "frames", max_items: MAX_CHECK_FRAMES },
      `frames holds more than ${MAX_CHECK_FRAMES} frames.`,
    );
  const seen = new Set<string>();
  for (const frame of frames) {
    const slug = normalizeSlug(frame.slug);
    if (seen.has(slug))
      throw fail("invalid_field", { field: "frames", slug: frame.slug }, `frames names "${frame.slug}" twice.`);
    seen.add(slug);
  }
  return frames.map((frame) => [frame.slug, frame.html]);
}

export async function checkFrames(
  ctx: ServiceContext,
  siteId: number,
  userId: number,
  body: CheckBody,
): Promise<CheckAnswer> {
  const warnings = unknownFields(body as Record<string, unknown>, BODY_KEYS);
  const inputs = inputsOf(body);
  let ids: string[] | undefined;
  try {
    const checked = await rolledBack(
      ctx,
      {
        siteId,
        apply: async (trx) => {
          const written = await writePreviewFrames(trx, ctx.db, siteId, userId, ctx.clock(), inputs, {
            datasets: body.data ?? [],
          });
          ids = written.ids;
          return {
            value: { warnings: written.warnings, slugs: written.slugs },
            wrote: written.ids.map((id): Written => ({ kind: "frame", id, action: "updated" })),
          };
        },
      },
      async (_trx, applied) => applied.value,
    );
    // Each warning names its frame by the slug it was written under, in the order of `frames`.
    const frames = checked.slugs.map((slug) => ({
      slug,
      warnings: checked.warnings.filter((w) => w.frame === slug).map(({ frame: _frame, ...rest }) => rest as Warning),
    }));
    return { frames, warnings };
  } finally {
    // The frames written and rolled back are read again from what is stored.
    frameGraphChanged(ctx.db, siteId, ids);
  }
}

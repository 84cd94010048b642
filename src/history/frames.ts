// Frames' history (docs/revisions.md): kept by the frame's id, found by id or current slug. A restore
// writes the revision's markup under the frame's current slug (PUT /frames/{ref}, If-Match
// honoured); a frame brought back from the trash gets its id, slug and markup back and the pages
// that stood on it when it was deleted, unless they were given another frame meanwhile.
import { fail } from "../errors.ts";
import { leaveTrash } from "../revisions/trash.ts";
import type { Change, Written } from "../write/change.ts";
import { frameByRef, frameBySlug } from "../frames/queries.ts";
import { frameSnapshot } from "../frames/revision.ts";
import { createFrame, replaceFrame } from "../frames/write-service.ts";
import { rebindFrame } from "../pages/frame-unbinding.ts";
import type { HistoryKind } from "./kind.ts";

export const frameHistory: HistoryKind = {
  kind: "frames",
  written: "frame",
  path: "/frames/:ref",
  param: "ref",
  noun: "frame",

  async locate(call, ref) {
    const frame = await frameByRef(call.ctx.db, call.site.id, ref);
    if (!frame) throw fail("frame_not_found", { ref });
    return { id: frame.id, current: frameSnapshot(frame) };
  },

  async restore(call, id, state) {
    return replaceFrame(call.ctx, call.site.id, call.userId, id, { html: state.content }, call.ifMatch);
  },

  async undelete(call, entry, state) {
    const slug = typeof state.fields.slug === "string" ? state.fields.slug : entry.slug;
    const occupant = await frameBySlug(call.ctx.db, call.site.id, slug);
    if (occupant)
      throw fail(
        "slug_taken",
        { id: occupant.id, slug },
        `Frame "${slug}" was made again meanwhile (id ${occupant.id}); rename or delete it, then restore.`,
      );
    const pages = Array.isArray(entry.extra.pages)
      ? entry.extra.pages.filter((p): p is number => Number.isSafeInteger(p))
      : [];
    let rebound: number[] = [];
    const answer = await createFrame(
      call.ctx,
      call.site.id,
      call.userId,
      { slug, html: state.content },
      {
        id: entry.id,
        within: async (trx) => {
          await leaveTrash(trx, call.site.id, "frames", entry.id);
          rebound = await rebindFrame(trx, call.site.id, entry.id, pages);
          // The pages put back on it are written: the pipeline records their revisions.
          return {
            wrote: rebound.map((pageId): Written => ({ kind: "page", id: String(pageId), action: "updated" })),
            changes: rebound.map((pageId): Change => ({ kind: "page", pageId })),
          };
        },
      },
    );
    return { body: { ...answer.body, pages_restored: rebound }, etag: answer.etag };
  },
};

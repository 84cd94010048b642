// DELETE of a frame: the pages that stood on it are unbound (their static copies removed, so
// they answer 404, their static copies removed by the publish step), frames that embed it stay as written and print nothing in its place.
import { fail } from "../errors.ts";
import { warning } from "../warnings.ts";
import type { Change, Written } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import type { Db } from "../store/database.ts";
import { runWrite } from "../write/pipeline.ts";
import { nothingRebaked } from "../write/change.ts";
import { dropBakes } from "../output/kept-output.ts";
import type { Warning } from "../warnings.ts";
import { checkIfMatch, Overtaken, unlessOvertaken } from "./etag.ts";
import { frameGraphChanged, siteIndex } from "./graph.ts";
import { flagsOf, ignoredInputWarnings } from "./input.ts";
import { framePublish, requireAvailable } from "./publish-result.ts";
import { frameByRef } from "./queries.ts";
import { gmt } from "../clock.ts";
import { toTrash } from "../revisions/trash.ts";
import { reviseFrames } from "./revision.ts";

/**
 * Takes a deleted frame off the pages that stood on it, in the deleting transaction; answers their
 * ids, ascending, and a `pages_offline` warning for each that answered publicly. The pages feature
 * owns the pages table and provides it (pages/frame-unbinding.ts).
 */
export type UnbindPages = (
  trx: Db,
  siteId: number,
  frameId: string,
  now: string,
) => Promise<{ pages: number[]; offline: Warning[] }>;

export interface DeleteOptions {
  /** `?dry_run=1`: answer what the delete would do, with its warnings, and change nothing. */
  dryRun?: boolean;
}

/** What a frame's delete changes: the frame, and the pages it leaves without one (they leave the public site). */
function deleteChanges(frame: { id: string; slug: string }, unbound: readonly number[]): Change[] {
  return [
    { kind: "frame", frameId: frame.id, slug: frame.slug },
    ...unbound.map((pageId): Change => ({ kind: "page", pageId, gone: true })),
  ];
}

export function deleteFrame(
  ctx: ServiceContext,
  unbind: UnbindPages,
  siteId: number,
  ref: string,
  body: Record<string, unknown>,
  ifMatch: string | undefined,
  options: DeleteOptions = {},
) {
  return unlessOvertaken(ifMatch, () => deleteFrameOnce(ctx, unbind, siteId, ref, body, ifMatch, options));
}

async function deleteFrameOnce(
  ctx: ServiceContext,
  unbind: UnbindPages,
  siteId: number,
  ref: string,
  body: Record<string, unknown>,
  ifMatch: string | undefined,
  options: DeleteOptions,
) {
  const frame = await frameByRef(ctx.db, siteId, ref);
  if (!frame) throw fail("frame_not_found", { ref });
  checkIfMatch(ifMatch, frame);
  const flags = flagsOf(body);
  const index = await siteIndex(ctx.db, siteId);
  const referencedBy = index.directEmbedders(frame.slug).filter((slug) => slug !== frame.slug);
  // Which embedders name the frame by id: no frame will ever have that id again.
  const byId = new Set(referencedBy.filter((slug) => index.get(slug)!.refs.some((value) => value === frame.id)));

  const dryRun = options.dryRun === true || flags.dryRun;
  const done = await runWrite(ctx, {
    siteId,
    dryRun,
    publish: { bake: flags.bake },
    apply: async (trx) => {
      // Its state kept (a frame older than revisions gets its first here), then the trash entry:
      // a restore brings it back with its history and puts its pages back on it.
      const now = gmt(ctx.clock());
      await reviseFrames(trx, siteId, [frame.id], now);
      // The pages' side first, while the frame still stands: it sees who answers now.
      const unbinding = await unbind(trx, siteId, frame.id, now);
      await toTrash(trx, siteId, "frames", frame.id, frame.slug, now, { pages: unbinding.pages });
      // Its bakes' bytes are freed from published_bytes here: the row's delete would take the bakes uncounted.
      await dropBakes(trx, siteId, frame.id);
      const gone = await trx
        .deleteFrom("frames")
        .where("id", "=", frame.id)
        .where("revision", "=", frame.revision)
        .executeTakeFirst();
      // Another writer changed it between the read and this delete: refuse rather than lose that write.
      if (Number(gone.numDeletedRows) === 0) throw new Overtaken(frame.sha256, "delete");
      const wrote: Written[] = [
        { kind: "frame", id: frame.id, action: "deleted" },
        ...unbinding.pages.map((id): Written => ({ kind: "page", id: String(id), action: "updated" })),
      ];
      // Frees its place and bytes.
      return {
        value: unbinding,
        wrote,
        changes: deleteChanges(frame, unbinding.pages),
        room: { frames: -1, stored_bytes: -frame.bytes },
      };
    },
  }).finally(() => {
    if (!dryRun) frameGraphChanged(ctx.db, siteId, [frame.id]);
  });
  const { pages: unbound, offline } = done.value;
  const warnings = ignoredInputWarnings(body, ["bake", "dry_run"]);
  for (const slug of referencedBy) {
    warnings.push(
      byId.has(slug)
        ? warning(
            "frame_ref_missing",
            `Frame "${slug}" embeds "${frame.slug}" by its id ${frame.id}; that insert prints nothing from now on (no new frame gets this id).`,
            { frame: slug, slug: frame.slug, id: frame.id },
          )
        : warning(
            "frame_ref_missing",
            `Frame "${slug}" still embeds "${frame.slug}"; that insert prints nothing until a frame with this slug exists again.`,
            { frame: slug, slug: frame.slug },
          ),
    );
  }
  if (unbound.length > 0) {
    warnings.push(
      warning(
        "pages_unbound",
        `${unbound.length} page(s) stood on "${frame.slug}" and now have no frame: they answer 404 until a frame is assigned.`,
        { pages: unbound },
      ),
    );
  }
  warnings.push(...offline);
  const deleted = {
    id: frame.id,
    slug: frame.slug,
    block: frame.block,
    element: frame.element,
    modifier: frame.modifier,
  };
  if (dryRun) {
    return {
      site_id: siteId,
      deleted,
      unbound_pages: unbound,
      referenced_by: referencedBy,
      dry_run: true,
      applied: false,
      warnings,
      bake: { status: "skipped" },
      rebaked: nothingRebaked(),
    };
  }

  // The unbound pages leave the public site (their static copies go) in the publish step.
  const publish = framePublish(done.rebaked, flags.bake, null);
  requireAvailable(publish.rebaked, { deleted: { id: frame.id, slug: frame.slug } });
  return {
    site_id: siteId,
    deleted,
    unbound_pages: unbound,
    referenced_by: referencedBy,
    warnings,
    bake: { status: publish.bake.status },
    rebaked: publish.rebaked,
  };
}

// PATCH of a frame renames it (the slug is the only field PATCH changes). References to the old
// slug in the other frames follow (rename-refs.ts), in the same transaction; pages keep their
// frame, since they store its id.
import { gmt } from "../clock.ts";
import { fail } from "../errors.ts";
import type { Change, Written } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { runWrite } from "../write/pipeline.ts";
import { checkIfMatch, Overtaken, unlessOvertaken } from "./etag.ts";
import { frameGraphChanged, nodeOfRow, siteFrameNodes, siteIndex } from "./graph.ts";
import { flagsOf, ignoredInputWarnings, refuseUrl, slugFrom, slugTaken } from "./input.ts";
import { pagesOnFrames } from "./pages.ts";
import { framePublish, requireAvailable } from "./publish-result.ts";
import { frameBySlug, frameByRef } from "./queries.ts";
import { frameEtag, frameRecord } from "./record.ts";
import { rewriteReferences, type Renamed } from "./rename-refs.ts";
import { refuseRenameCycle } from "./report.ts";
import { splitSlug } from "./slug.ts";
import "./revision.ts";

const PATCH_KEYS = ["slug", "dry_run", "bake", "url"] as const;
const DEFAULT_KEYS = ["default", "is_default"];

export function renameFrame(
  ctx: ServiceContext,
  siteId: number,
  userId: number,
  ref: string,
  body: Record<string, unknown>,
  ifMatch: string | undefined,
) {
  return unlessOvertaken(ifMatch, () => renameFrameOnce(ctx, siteId, userId, ref, body, ifMatch));
}

async function renameFrameOnce(
  ctx: ServiceContext,
  siteId: number,
  userId: number,
  ref: string,
  body: Record<string, unknown>,
  ifMatch: string | undefined,
) {
  const existing = await frameByRef(ctx.db, siteId, ref);
  if (!existing) throw fail("frame_not_found", { ref });
  refuseUrl(body);
  if (body.slug === undefined || body.slug === null) {
    const keys = Object.keys(body).filter((key) => !["dry_run", "bake"].includes(key));
    // Only the removed default flag: the old "make this the default frame" call.
    if (keys.length > 0 && keys.every((key) => DEFAULT_KEYS.includes(key)))
      throw fail("gone", { field: keys[0] }, "Frames have no default any more: a page names its frame itself.");
    throw fail("nothing_to_update", { allowed: ["slug"] }, "PATCH renames a frame: send a new slug.");
  }
  const slug = slugFrom(body.slug);
  const flags = flagsOf(body);
  const warnings = ignoredInputWarnings(body, PATCH_KEYS);
  checkIfMatch(ifMatch, existing);
  if (slug === existing.slug) throw fail("nothing_to_update", { slug }, "The frame already has this slug.");
  const occupant = await frameBySlug(ctx.db, siteId, slug);
  if (occupant) throw slugTaken(occupant.id, occupant.slug);
  refuseRenameCycle(nodeOfRow(existing), slug, await siteFrameNodes(ctx.db, siteId));

  const at = gmt(ctx.clock());
  const parts = splitSlug(slug);
  const renamedRow = {
    ...existing,
    slug,
    ...parts,
    revision: existing.revision + 1,
    updated_at_gmt: at,
    updated_by: userId,
  };
  // The frame prints what it printed before; the frames that name it by a slug print it anew.
  const changes: Change[] = [
    { kind: "frame", frameId: existing.id, slug, output: false },
    { kind: "frame", frameId: existing.id, slug: existing.slug, output: false },
  ];
  // A dry run runs the rename and its trial too, and rolls them back: it answers what the
  // rename would (the rewrites, a render_too_large refusal).
  const done = await runWrite(ctx, {
    siteId,
    dryRun: flags.dryRun,
    trial: true,
    publish: { bake: flags.bake },
    taken: async () => slugTaken((await frameBySlug(ctx.db, siteId, slug))?.id ?? null, slug),
    apply: async (trx) => {
      const updated = await trx
        .updateTable("frames")
        .set({
          slug,
          block: parts.block,
          element: parts.element,
          modifier: parts.modifier,
          revision: renamedRow.revision,
          updated_at_gmt: at,
          updated_by: userId,
        })
        .where("id", "=", existing.id)
        .where("revision", "=", existing.revision)
        .executeTakeFirst();
      // Another writer got in between the read and this write: refuse rather than overwrite.
      if (Number(updated.numUpdatedRows) === 0) throw new Overtaken(existing.sha256, "rename");
      const rewritten = await rewriteReferences(trx, siteId, existing, slug, at, userId);
      // Named before the trial, which reads the frame graph through this transaction: frames
      // that named the new slug print this frame now, within the render budgets or not at all.
      frameGraphChanged(ctx.db, siteId);
      // A revision of the frame (its slug), and of each frame whose references were rewritten.
      const wrote: Written[] = [
        { kind: "frame", id: existing.id, action: "renamed" },
        ...rewritten.report.details.map((d): Written => ({ kind: "frame", id: d.id, action: "updated" })),
      ];
      return { value: rewritten.report, wrote, changes, room: { stored_bytes: rewritten.grown } };
    },
  }).finally(() => frameGraphChanged(ctx.db, siteId));
  const renamed: Renamed = done.value;

  const index = await siteIndex(ctx.db, siteId);
  // A dry run reads the index as it stands: the frame is still under its old slug there.
  const standing = flags.dryRun ? existing.slug : slug;
  const pages = (await pagesOnFrames(ctx.db, siteId, [existing.id])).get(existing.id) ?? [];
  const frame = frameRecord(renamedRow, {
    resolve: (ref) => index.resolve(ref),
    frameRefs: index.embeddedSlugs(standing),
    rendersOnRequest: index.rendersOnRequest(standing),
    pages,
  });
  if (flags.dryRun)
    return { body: { applied: false, dry_run: true, site_id: siteId, frame, renamed, warnings }, etag: null };

  const publish = framePublish(done.rebaked, flags.bake, slug);
  requireAvailable(publish.rebaked, { frame: { id: existing.id, slug } });
  return {
    body: {
      applied: true,
      site_id: siteId,
      frame,
      renamed,
      bake: { status: publish.bake.status },
      rebaked: publish.rebaked,
      warnings,
    },
    etag: frameEtag(renamedRow),
  };
}

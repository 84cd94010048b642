// PATCH of a frame renames it (the slug is the only field PATCH changes).
import { gmt } from "../clock.ts";
import { fail } from "../http/errors.ts";
import { isUniqueViolation } from "../store/errors.ts";
import type { FramesContext } from "./context.ts";
import { checkIfMatch } from "./etag.ts";
import { siteIndex } from "./graph.ts";
import { flagsOf, refuseUrl, slugFrom } from "./input.ts";
import { pagesOnFrames } from "./pages.ts";
import { splitOwnBake, requireAvailable, skippedPublish } from "./publish-result.ts";
import { frameBySlug, frameByRef } from "./queries.ts";
import { frameEtag, frameRecord } from "./record.ts";
import { rewriteReferences, type Renamed } from "./rename-refs.ts";
import { splitSlug } from "./slug.ts";

export async function renameFrame(ctx: FramesContext, siteId: number, userId: number, ref: string, body: Record<string, unknown>, ifMatch: string | undefined) {
  const existing = await frameByRef(ctx.db, siteId, ref);
  if (!existing) throw fail("frame_not_found", { ref });
  refuseUrl(body);
  const keys = Object.keys(body).filter((key) => !["dry_run", "bake"].includes(key));
  if (body.slug === undefined) {
    if (keys.length > 0 && keys.every((key) => key === "default" || key === "is_default")) throw fail("gone", { field: keys[0] }, "Frames have no default any more.");
    throw fail("nothing_to_update", { allowed: ["slug"] }, "PATCH renames a frame: send a new slug.");
  }
  const slug = slugFrom(body.slug);
  const flags = flagsOf(body);
  checkIfMatch(ifMatch, existing);
  if (slug === existing.slug) throw fail("nothing_to_update", { slug }, "The frame already has this slug.");
  const occupant = await frameBySlug(ctx.db, siteId, slug);
  if (occupant) throw fail("slug_taken", { id: occupant.id, slug: occupant.slug });

  const at = gmt(ctx.clock());
  const parts = splitSlug(slug);
  const renamedRow = { ...existing, slug, ...parts, revision: existing.revision + 1, updated_at_gmt: at, updated_by: userId };
  let renamed: Renamed;
  if (flags.dryRun) {
    const index = await siteIndex(ctx.db, siteId);
    const referrers = index.directEmbedders(existing.slug);
    renamed = { from: existing.slug, to: slug, frames_updated: referrers, details: referrers.map((s) => ({ id: index.get(s)!.id, slug: s, replaced: 0 })) };
  } else {
    try {
      renamed = await ctx.db.transaction().execute(async (trx) => {
        const updated = await trx
          .updateTable("frames")
          .set({ slug, block: parts.block, element: parts.element, modifier: parts.modifier, revision: renamedRow.revision, updated_at_gmt: at, updated_by: userId })
          .where("id", "=", existing.id)
          .where("revision", "=", existing.revision)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 0) throw fail("precondition_failed", { sha256: existing.sha256 }, "The frame changed while this rename was prepared; read it again.");
        return rewriteReferences(trx, siteId, existing, slug, at, userId);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw fail("slug_taken", { id: (await frameBySlug(ctx.db, siteId, slug))?.id ?? null, slug });
      throw error;
    }
  }

  const index = await siteIndex(ctx.db, siteId);
  const rendersOnRequest = index.rendersOnRequest(flags.dryRun ? existing.slug : slug);
  const frameRefs = index.embeddedSlugs(flags.dryRun ? existing.slug : slug);
  const pages = (await pagesOnFrames(ctx.db, siteId, [existing.id])).get(existing.id) ?? [];
  const frame = frameRecord(renamedRow, { frameRefs, rendersOnRequest, pages });
  if (flags.dryRun) return { body: { applied: false, dry_run: true, site_id: siteId, frame, renamed }, etag: null };

  const publish = flags.bake
    ? splitOwnBake(
        await ctx.publisher.changed(siteId, [
          { kind: "frame", frameId: existing.id, slug },
          { kind: "frame", frameId: existing.id, slug: existing.slug },
        ]),
        slug,
      )
    : skippedPublish();
  requireAvailable(publish.rebaked, { frame: { id: existing.id, slug } });
  return {
    body: { applied: true, site_id: siteId, frame, renamed, bake: { status: publish.bake.status }, rebaked: publish.rebaked },
    etag: frameEtag(renamedRow),
  };
}

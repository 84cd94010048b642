// DELETE of a frame: the pages that stood on it are unbound (their static copies removed, so
// they answer 404), frames that embed it stay as written and print nothing in its place.
import { fail } from "../http/errors.ts";
import { warning } from "../http/warnings.ts";
import type { Change } from "../publish/changes.ts";
import type { FramesContext } from "./context.ts";
import { checkIfMatch } from "./etag.ts";
import { siteIndex } from "./graph.ts";
import { flagsOf } from "./input.ts";
import { splitOwnBake, requireAvailable, skippedPublish } from "./publish-result.ts";
import { frameByRef } from "./queries.ts";

export async function deleteFrame(ctx: FramesContext, siteId: number, ref: string, body: Record<string, unknown>, ifMatch: string | undefined) {
  const frame = await frameByRef(ctx.db, siteId, ref);
  if (!frame) throw fail("frame_not_found", { ref });
  checkIfMatch(ifMatch, frame);
  const flags = flagsOf(body);
  const referencedBy = (await siteIndex(ctx.db, siteId)).directEmbedders(frame.slug).filter((slug) => slug !== frame.slug);

  const unbound = await ctx.db.transaction().execute(async (trx) => {
    const pages = await trx.selectFrom("pages").select("id").where("site_id", "=", siteId).where("frame_id", "=", frame.id).orderBy("id").execute();
    const ids = pages.map((p) => p.id);
    if (ids.length > 0) {
      await trx.updateTable("pages").set({ frame_id: null }).where("site_id", "=", siteId).where("frame_id", "=", frame.id).execute();
      await trx.deleteFrom("static_copies").where("site_id", "=", siteId).where("page_id", "in", ids).execute();
    }
    await trx.deleteFrom("frames").where("id", "=", frame.id).execute();
    return ids;
  });

  const changes: Change[] = [{ kind: "frame", frameId: frame.id, slug: frame.slug }, ...unbound.map((pageId): Change => ({ kind: "page", pageId, gone: true }))];
  const publish = flags.bake ? splitOwnBake(await ctx.publisher.changed(siteId, changes), null) : skippedPublish();
  requireAvailable(publish.rebaked, { deleted: { id: frame.id, slug: frame.slug } });
  return {
    site_id: siteId,
    deleted: { id: frame.id, slug: frame.slug, block: frame.block, element: frame.element, modifier: frame.modifier },
    unbound_pages: unbound,
    referenced_by: referencedBy,
    warnings: referencedBy.map((slug) =>
      warning("frame_ref_missing", `Frame "${slug}" still embeds "${frame.slug}"; that insert prints nothing until a frame with this slug exists again.`, { frame: slug, slug: frame.slug }),
    ),
    bake: { status: publish.rebaked.status },
    rebaked: publish.rebaked,
  };
}

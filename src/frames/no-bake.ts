// `bake: false` (spec, Frames: common rules 5): the write is saved and nothing is rendered — no
// bake of the frame, no rebake of the frames that embed it, no static copy written. So that the
// public site never serves output that the saved markup no longer produces, the pages whose
// output the write changed lose their static copy and their cached render: they render on
// request from the current markup until the next bake (POST /frames/rebake lists them in
// `rebaked.skipped` meanwhile). See docs/frames.md.
import type { Rebaked } from "../publish/changes.ts";
import type { FramesContext } from "./context.ts";
import { siteIndex } from "./graph.ts";
import { pagesOnFrames } from "./pages.ts";
import type { FramePublish } from "./publish-result.ts";

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export interface Unbaked {
  /** Frames whose own output changed (their pages are affected). */
  frames?: readonly string[];
  /** Slugs whose embedders (transitively) print something else now. */
  embeddersOf?: readonly string[];
  /** Further pages whose output changed (a page put on or taken off a frame, unbound pages). */
  pages?: readonly number[];
}

/** Removes the static copies and cached renders of the pages the write affected; reports them as `rebaked`. */
export async function withoutBake(ctx: FramesContext, siteId: number, what: Unbaked): Promise<FramePublish> {
  const index = await siteIndex(ctx.db, siteId);
  const embedders = index.embeddersOf(what.embeddersOf ?? []).filter((slug) => index.get(slug));
  const slugs = [...new Set([...(what.frames ?? []).filter((slug) => index.get(slug)), ...embedders])];
  const frameIds = slugs.map((slug) => index.get(slug)!.id);
  const onFrames = await pagesOnFrames(ctx.db, siteId, frameIds);
  const pageIds = [...new Set([...(what.pages ?? []), ...[...onFrames.values()].flat()])].sort((a, b) => a - b);

  const urls = new Set<string>();
  if (pageIds.length > 0) {
    const copies = await ctx.db.selectFrom("static_copies").select("address").where("site_id", "=", siteId).where("page_id", "in", pageIds).execute();
    for (const copy of copies) urls.add(copy.address);
    await ctx.db.deleteFrom("static_copies").where("site_id", "=", siteId).where("page_id", "in", pageIds).execute();
    for (const address of ctx.pageCache.flushPages(siteId, pageIds)) urls.add(address);
  }
  const rebaked: Rebaked = {
    status: "ok",
    total: 0,
    baked: 0,
    not_needed: 0,
    frames: [],
    pages: pageIds,
    cache: { status: "ok", scope: "pages", pages: pageIds, flushed: { urls: { status: "ok", by: "api", urls: [...urls].sort(byCodeUnits), skipped: [] } } },
    skipped: embedders.sort(byCodeUnits),
  };
  return { bake: { status: "skipped" }, rebaked };
}

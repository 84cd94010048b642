// The pages a write may have changed for site search (docs/search.md), handed to the index in the
// write's transaction by the pipeline (pipeline.ts): those its changes name — whose record, address
// or visibility changed (effects/page-changes.ts names descendants and translation partners too) —
// the pages it wrote (a frame's deletion takes its pages off it), and the pages standing on a frame
// it wrote. Every write path reaches the index this way, so none is missed.
import type { Db } from "../store/database.ts";
import { reindexPages } from "../search/index-sync.ts";
import type { Change, Written } from "./change.ts";

export async function keepSearchIndex(
  trx: Db,
  siteId: number,
  changes: readonly Change[],
  wrote: readonly Written[],
): Promise<void> {
  const pages = new Set<number>();
  const frames = new Set<string>();
  for (const change of changes) {
    if (change.kind === "page" && !change.linked) pages.add(change.pageId);
    if (change.kind === "frame") frames.add(change.frameId);
  }
  for (const written of wrote) if (written.kind === "page") pages.add(Number(written.id));
  await reindexPages(trx, siteId, [...pages].filter(Number.isSafeInteger), [...frames]);
}

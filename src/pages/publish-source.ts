// What the publish engine reads of pages (publish/contract.ts PublishSources.pages). A scoped
// tree holds the pages a publish step needs and their ancestors, read with indexed queries, so
// its cost follows the change, not the size of the site.
import type { PageScope, PublishSources } from "../publish/contract.ts";
import type { Db } from "../store/database.ts";
import { descendantsOf, groupMembers, LITE, liteRowsOf, pageById, withAncestors, type PageLite } from "./queries.ts";
import { fieldsOf } from "./record.ts";
import { PageTree } from "./tree.ts";
import { homePaths } from "./home.ts";
import { seoOf } from "./seo.ts";
import { siteIdValue } from "../store/by-id.ts";

async function scoped(db: Db, siteId: number, scope: PageScope): Promise<PageLite[]> {
  const rows = new Map<number, PageLite>();
  const add = (list: Iterable<PageLite>) => {
    for (const row of list) rows.set(row.id, row);
  };
  const families = [...new Set(scope.families ?? [])];
  const partnered = [...new Set([...(scope.partners ?? []), ...families])];
  const named = [...new Set([...(scope.pages ?? []), ...partnered])].filter((id) => id > 0);
  if (named.length > 0) add(await db.selectFrom("pages").select(LITE).where(siteIdValue, "=", siteId).where("id", "in", named).execute());
  for (const id of families) add(await descendantsOf(db, siteId, id));
  const groups = partnered.map((id) => rows.get(id)?.translation_group).filter((group): group is number => group !== null && group !== undefined);
  add(await groupMembers(db, siteId, [...new Set(groups)]));
  if (scope.onFrames && scope.onFrames.length > 0) {
    add(await db.selectFrom("pages").select(LITE).where("site_id", "=", siteId).where("frame_id", "in", [...new Set(scope.onFrames)]).execute());
  }
  return withAncestors(db, siteId, [], rows.values());
}

export const pagePublishSource: PublishSources["pages"] = {
  tree: async (db, siteId, scope) => new PageTree(scope ? await scoped(db, siteId, scope) : await liteRowsOf(db, siteId)),
  page: pageById,
  fields: fieldsOf,
  seo: seoOf,
  homePaths,
};

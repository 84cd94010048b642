// What the publish engine reads of pages (publish/contract.ts PublishSources.pages).
import type { PublishSources } from "../publish/contract.ts";
import { liteRowsOf, pageById } from "./queries.ts";
import { fieldsOf } from "./record.ts";
import { PageTree } from "./tree.ts";

export const pagePublishSource: PublishSources["pages"] = {
  tree: async (db, siteId) => new PageTree(await liteRowsOf(db, siteId)),
  page: pageById,
  frames: (db, siteId) => db.selectFrom("pages").select(["id", "frame_id"]).where("site_id", "=", siteId).execute(),
  fields: fieldsOf,
};

// What the publish engine reads of frames (publish/contract.ts PublishSources.frames).
import type { PublishSources } from "../publish/contract.ts";
import { siteIndex } from "./graph.ts";

export const framePublishSource: PublishSources["frames"] = {
  index: siteIndex,
  heads: (db, ids) => db.selectFrom("frames").select(["id", "slug", "sha256", "bytes"]).where("id", "in", [...ids]).execute(),
  markup: (db, ids) => db.selectFrom("frames").select(["id", "slug", "sha256", "html"]).where("id", "in", [...ids]).execute(),
};

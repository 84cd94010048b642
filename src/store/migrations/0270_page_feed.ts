// `pages.feed` (docs/content-model.md, "Dates, tags and feeds"): 1 when the page publishes an Atom
// feed of its list at `<its address>feed.xml`, 0 (every page before) when it does not.
import type { Build } from "./build.ts";

export const up: Build = async (db) => {
  await db.schema
    .alterTable("pages")
    .addColumn("feed", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
};

// What Markdown pages need (docs/content-model.md, "Markdown"):
// - `pages.content_trust`: how the raw HTML of the content is printed — `raw`, as an administrator
//   wrote it, or `sanitized`, through the allowlist sanitiser, as an editor's is. An editor's HTML
//   content is stored sanitised; a Markdown source is stored as written and its HTML is made when
//   it is printed, so whose it is must be known then. Rows before it default to `sanitized`.
// - `page_refs`: the `page:` and `media:` references of each Markdown page's content. A page
//   reference keeps the page it named when written (`target_id`, null: none), so the link follows
//   that page's renames and moves as a menu item does; a media reference is read as written. The
//   effects read them the other way: a changed page reaches the pages linking to it, a changed
//   file the pages naming it. A page's rows go with it.
import type { Build } from "./build.ts";

export const up: Build = async (db) => {
  await db.schema
    .alterTable("pages")
    .addColumn("content_trust", "text", (c) => c.notNull().defaultTo("sanitized"))
    .execute();
  await db.schema
    .createTable("page_refs")
    .addColumn("site_id", "integer", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("page_id", "integer", (c) => c.notNull().references("pages.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("ref", "text", (c) => c.notNull())
    .addColumn("target_id", "integer")
    .addPrimaryKeyConstraint("page_refs_pk", ["page_id", "kind", "ref"])
    .execute();
  await db.schema.createIndex("page_refs_target").on("page_refs").columns(["site_id", "kind", "target_id"]).execute();
  await db.schema.createIndex("page_refs_ref").on("page_refs").columns(["site_id", "kind", "ref"]).execute();
};

// The documentation sidebar (docs/sidebars.md). `sidebars`: one row per named sidebar of a site,
// with the next item id it hands out (ids are unique in a sidebar and never reused).
// `sidebar_trees`: the tree of one language ('' for the default language's): a page (`root_id`)
// whose descendants make the tree, or a tree written by hand (`items_json`: items with their ids;
// page items hold page ids). `pages.menu_order`: the order of a page among its siblings in
// generated trees.
import type { Build } from "./build.ts";

export const up: Build = async (db) => {
  await db.schema
    .createTable("sidebars")
    .addColumn("site_id", "integer", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("next_item_id", "integer", (c) => c.notNull())
    .addColumn("created_at_gmt", "text", (c) => c.notNull())
    .addColumn("updated_at_gmt", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("sidebars_pk", ["site_id", "name"])
    .execute();
  await db.schema
    .createTable("sidebar_trees")
    .addColumn("site_id", "integer", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("lang", "text", (c) => c.notNull())
    .addColumn("root_id", "integer")
    .addColumn("items_json", "text", (c) => c.notNull())
    .addColumn("updated_at_gmt", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("sidebar_trees_pk", ["site_id", "name", "lang"])
    .addForeignKeyConstraint("sidebar_trees_sidebar", ["site_id", "name"], "sidebars", ["site_id", "name"], (fk) =>
      fk.onDelete("cascade"),
    )
    .execute();
  await db.schema
    .alterTable("pages")
    .addColumn("menu_order", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
};

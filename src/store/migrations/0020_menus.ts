// Menus (docs/menus.md): menus (WordPress nav_menu terms), their items (nav_menu_item posts) and the
// location maps: one per theme (theme_mods nav_menu_locations) and one per language and theme
// (the multilingual plugin's map). Portable SQL only: '' stands for "the theme map" in
// `menu_locations.lang`, so the primary key holds in both dialects (NULLs never collide).
import type { Build } from "./build.ts";
import { idColumn } from "./build.ts";

export const up: Build = async (db, dialect) => {
  await db.schema
    .createTable("menus")
    .addColumn("id", idColumn(dialect).type, idColumn(dialect).build)
    .addColumn("site_id", "integer", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    /** Lower-case, unique in the site. */
    .addColumn("slug", "text", (c) => c.notNull())
    /** WordPress keeps a term's taxonomy row apart from the term; here it is the menu id. */
    .addColumn("term_taxonomy_id", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at_gmt", "text", (c) => c.notNull())
    .addColumn("updated_at_gmt", "text", (c) => c.notNull())
    .addUniqueConstraint("menus_site_slug", ["site_id", "slug"])
    .execute();

  await db.schema
    .createTable("menu_items")
    .addColumn("id", idColumn(dialect).type, idColumn(dialect).build)
    .addColumn("site_id", "integer", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("menu_id", "integer", (c) => c.notNull().references("menus.id").onDelete("cascade"))
    /** 0 at the top level; no foreign key because of that 0. */
    .addColumn("parent_id", "integer", (c) => c.notNull().defaultTo(0))
    /** 1-based position among the items of the same parent. */
    .addColumn("position", "integer", (c) => c.notNull())
    /** `post_type` (a page) or `custom` (a link). */
    .addColumn("type", "text", (c) => c.notNull())
    /** The page of a `post_type` item; no foreign key: a deleted page leaves an invalid item. */
    .addColumn("page_id", "integer")
    /** The link of a `custom` item as written (a path is completed with the site address on read). */
    .addColumn("url", "text")
    /** null: the page's title (page items) or the link itself (custom items). */
    .addColumn("title", "text")
    .addColumn("target", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("classes", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at_gmt", "text", (c) => c.notNull())
    .addColumn("updated_at_gmt", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("menu_items_menu_parent")
    .on("menu_items")
    .columns(["menu_id", "parent_id", "position"])
    .execute();
  await db.schema.createIndex("menu_items_site_page").on("menu_items").columns(["site_id", "page_id"]).execute();

  await db.schema
    .createTable("menu_locations")
    .addColumn("site_id", "integer", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("theme", "text", (c) => c.notNull())
    .addColumn("location", "text", (c) => c.notNull())
    /** '' for the theme map; a language code for that language's map. */
    .addColumn("lang", "text", (c) => c.notNull())
    .addColumn("menu_id", "integer", (c) => c.notNull().references("menus.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("menu_locations_pk", ["site_id", "theme", "location", "lang"])
    .execute();
  await db.schema.createIndex("menu_locations_menu").on("menu_locations").columns(["menu_id"]).execute();
};

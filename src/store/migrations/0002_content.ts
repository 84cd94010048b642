// The content model: site settings, languages, pages and data sets (docs/content-model.md).
// Portable SQL only: booleans as 0/1, timestamps as GMT text, JSON as text, '' for "no language"
// (so a UNIQUE key holds in both dialects, where NULLs never collide).
import type { Build } from "./build.ts";
import { idColumn } from "./build.ts";

export const up: Build = async (db, dialect) => {
  await db.schema
    .createTable("site_settings")
    .addColumn("site_id", "integer", (c) => c.primaryKey().references("sites.id").onDelete("cascade"))
    .addColumn("tagline", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("theme", "text", (c) => c.notNull().defaultTo("default"))
    /** The site's default language; null until set or until a first language is added. */
    .addColumn("default_lang", "text")
    /** The home page reference exactly as written (JSON: a number or a string), or null. */
    .addColumn("home_page_json", "text")
    .addColumn("updated_at_gmt", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("languages")
    .addColumn("site_id", "integer", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("code", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    /** Order of addition; lists follow it. */
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("created_at_gmt", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("languages_pk", ["site_id", "code"])
    .execute();

  await db.schema
    .createTable("pages")
    .addColumn("id", idColumn(dialect).type, idColumn(dialect).build)
    .addColumn("site_id", "integer", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    /** 0 at the top; no foreign key because of that 0. */
    .addColumn("parent_id", "integer", (c) => c.notNull().defaultTo(0))
    /** '' while the page has no language. */
    .addColumn("lang", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("slug", "text", (c) => c.notNull())
    /** `/parent-slug/slug`, without a language prefix; kept in step with the ancestors' slugs. */
    .addColumn("path", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("content", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("fields_json", "text", (c) => c.notNull().defaultTo("{}"))
    /** The frame's 16-hex id; no foreign key (a deleted frame unbinds its pages itself). */
    .addColumn("frame_id", "text")
    /** Pages that are translations of one another share this number (the origin's id). */
    .addColumn("translation_group", "integer")
    .addColumn("created_at_gmt", "text", (c) => c.notNull())
    .addColumn("updated_at_gmt", "text", (c) => c.notNull())
    .addUniqueConstraint("pages_site_parent_lang_slug", ["site_id", "parent_id", "lang", "slug"])
    .execute();
  await db.schema.createIndex("pages_site_path").on("pages").columns(["site_id", "path"]).execute();
  await db.schema.createIndex("pages_site_slug").on("pages").columns(["site_id", "slug"]).execute();
  await db.schema.createIndex("pages_site_parent").on("pages").columns(["site_id", "parent_id"]).execute();
  await db.schema.createIndex("pages_site_group").on("pages").columns(["site_id", "translation_group"]).execute();
  await db.schema.createIndex("pages_site_frame").on("pages").columns(["site_id", "frame_id"]).execute();

  await db.schema
    .createTable("datasets")
    .addColumn("site_id", "integer", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    /** '' for the shared set, else the language of this variant. */
    .addColumn("lang", "text", (c) => c.notNull())
    .addColumn("items_json", "text", (c) => c.notNull())
    .addColumn("total", "integer", (c) => c.notNull())
    .addColumn("created_at_gmt", "text", (c) => c.notNull())
    .addColumn("updated_at_gmt", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("datasets_pk", ["site_id", "name", "lang"])
    .execute();
};

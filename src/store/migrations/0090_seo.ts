// SEO and addresses (docs/seo.md). `site_seo`: a site's defaults for head tags, robots.txt and the
// sitemap (null `title_template`: the default, `%s — <site name>`). `pages.seo_json`: a page's
// own SEO fields (title, description, canonical, noindex, og_image), `{}` while it has none.
// `site_settings.not_found_page_json`: the page shown with status 404 (a reference as written).
// `redirects`: addresses of a site that answer a redirect, made by hand (`auto` 0) or when a
// page's address changed (`auto` 1); one per address (`from_path`, canonical, with its language
// prefix), `to_target` a site path or an absolute URL.
import { idColumn, type Build } from "./build.ts";

export const up: Build = async (db, dialect) => {
  await db.schema
    .createTable("site_seo")
    .addColumn("site_id", "integer", (c) => c.primaryKey().references("sites.id").onDelete("cascade"))
    .addColumn("title_template", "text")
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("og_image", "text")
    .addColumn("noindex", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("twitter_site", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("robots_extra", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("updated_at_gmt", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .alterTable("pages")
    .addColumn("seo_json", "text", (c) => c.notNull().defaultTo("{}"))
    .execute();
  await db.schema.alterTable("site_settings").addColumn("not_found_page_json", "text").execute();
  const id = idColumn(dialect);
  await db.schema
    .createTable("redirects")
    .addColumn("id", id.type, id.build)
    .addColumn("site_id", "integer", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("from_path", "text", (c) => c.notNull())
    .addColumn("to_target", "text", (c) => c.notNull())
    .addColumn("status", "integer", (c) => c.notNull())
    .addColumn("auto", "integer", (c) => c.notNull())
    .addColumn("created_at_gmt", "text", (c) => c.notNull())
    .addUniqueConstraint("redirects_from", ["site_id", "from_path"])
    .execute();
  await db.schema.createIndex("redirects_to").on("redirects").columns(["site_id", "to_target"]).execute();
};

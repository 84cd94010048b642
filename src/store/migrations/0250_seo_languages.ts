// A site's SEO defaults per language (docs/seo.md, "Site defaults in every language"):
// `site_seo_languages` holds a language's own title template, description and image, each null
// where the language follows the default language's (the `site_seo` row, or the default
// language's own row here after the default language changed). One row per site and language.
import type { Build } from "./build.ts";

export const up: Build = async (db) => {
  await db.schema
    .createTable("site_seo_languages")
    .addColumn("site_id", "integer", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("lang", "text", (c) => c.notNull())
    .addColumn("title_template", "text")
    .addColumn("description", "text")
    .addColumn("og_image", "text")
    .addColumn("updated_at_gmt", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("site_seo_languages_key", ["site_id", "lang"])
    .execute();
};

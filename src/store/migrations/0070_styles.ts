// Stylesheets (docs/styles.md). `styles`: one row per stylesheet of a site and theme, the CSS exactly
// as uploaded, with what its parse found (`imports_json`: the stylesheets it bundles by name, in
// order; `media_json`: the media refs its `url(media:…)` name). `style_copies`: every bundle the
// public site serves at `/styles/<name>.<hash>.css` — the minified CSS and its brotli and gzip
// forms, made once when the bundle is made. `source_key` says what a bundle was made from (the
// stylesheets and media addresses it read), so a bundle is made again only when one changed.
// The current copy of a stylesheet has `replaced_at_gmt` null; a replaced one answers for 24 hours
// after that time (docs/styles.md). Compressed bytes are the one dialect-specific column type.
import type { Build } from "./build.ts";

export const up: Build = async (db, dialect) => {
  const bytes = dialect === "postgres" ? "bytea" : "blob";
  await db.schema
    .createTable("styles")
    .addColumn("site_id", "integer", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("theme", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("css", "text", (c) => c.notNull())
    .addColumn("bytes", "integer", (c) => c.notNull())
    .addColumn("sha256", "text", (c) => c.notNull())
    .addColumn("imports_json", "text", (c) => c.notNull())
    .addColumn("media_json", "text", (c) => c.notNull())
    .addColumn("created_at_gmt", "text", (c) => c.notNull())
    .addColumn("updated_at_gmt", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("styles_pk", ["site_id", "theme", "name"])
    .execute();
  await db.schema
    .createTable("style_copies")
    .addColumn("site_id", "integer", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("theme", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("hash", "text", (c) => c.notNull())
    .addColumn("source_key", "text", (c) => c.notNull())
    .addColumn("css", "text", (c) => c.notNull())
    .addColumn("br", bytes, (c) => c.notNull())
    .addColumn("gzip", bytes, (c) => c.notNull())
    .addColumn("created_at_gmt", "text", (c) => c.notNull())
    .addColumn("replaced_at_gmt", "text")
    .addPrimaryKeyConstraint("style_copies_pk", ["site_id", "theme", "name", "hash"])
    .execute();
  // The public address names the site (its host), the name and the hash, not the theme.
  await db.schema.createIndex("style_copies_address").on("style_copies").columns(["site_id", "name", "hash"]).execute();
};

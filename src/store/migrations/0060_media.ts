// Media (docs/media.md): one row per file of a site. The bytes live in the blob store (src/blobs/),
// keyed by `sha256`; several rows (of one site or several) may name one blob, which is removed
// when the last row naming it goes. `alt_json` and `title_json` hold `{"<lang>": "…"}` ("" is the
// site without languages). `kind` is the type group filters use: image, video, audio, font,
// document. `search_text` is what `?search=` looks in: the file name, every alt and title, lower-cased
// (a search of the JSON columns would match their language codes). `site_usage.media_bytes`
// counts the bytes of a site's rows (quota media_bytes).
import { idColumn, type Build } from "./build.ts";

export const up: Build = async (db, dialect) => {
  const id = idColumn(dialect);
  await db.schema
    .createTable("media")
    .addColumn("id", id.type, id.build)
    .addColumn("site_id", "integer", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("slug", "text", (c) => c.notNull())
    .addColumn("filename", "text", (c) => c.notNull())
    .addColumn("mime", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("bytes", "bigint", (c) => c.notNull())
    .addColumn("sha256", "text", (c) => c.notNull())
    .addColumn("width", "integer")
    .addColumn("height", "integer")
    .addColumn("alt_json", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("title_json", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("search_text", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at_gmt", "text", (c) => c.notNull())
    .addColumn("updated_at_gmt", "text", (c) => c.notNull())
    .addColumn("updated_by", "integer", (c) => c.notNull())
    .addUniqueConstraint("media_site_slug", ["site_id", "slug"])
    .execute();
  await db.schema.createIndex("media_sha256").on("media").column("sha256").execute();
  await db.schema
    .alterTable("site_usage")
    .addColumn("media_bytes", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
};

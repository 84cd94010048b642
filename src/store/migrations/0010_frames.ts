// Frames, their baked copies, and the static copies of the pages that stand on baked frames.
import type { Build } from "./build.ts";

export const up: Build = async (db) => {
  await db.schema
    .createTable("frames")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("site_id", "integer", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("slug", "text", (c) => c.notNull())
    .addColumn("block", "text", (c) => c.notNull())
    .addColumn("element", "text")
    .addColumn("modifier", "text")
    .addColumn("html", "text", (c) => c.notNull())
    .addColumn("bytes", "integer", (c) => c.notNull())
    .addColumn("sha256", "text", (c) => c.notNull())
    /** What analysis found (inserts, sources, raw frame references, …), so reads never re-parse. */
    .addColumn("analysis_json", "text", (c) => c.notNull())
    .addColumn("revision", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at_gmt", "text", (c) => c.notNull())
    .addColumn("updated_at_gmt", "text", (c) => c.notNull())
    .addColumn("updated_by", "integer", (c) => c.notNull())
    .addUniqueConstraint("frames_site_slug", ["site_id", "slug"])
    .execute();

  await db.schema
    .createTable("frame_bakes")
    .addColumn("frame_id", "text", (c) => c.notNull().references("frames.id").onDelete("cascade"))
    .addColumn("site_id", "integer", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    /** The language the copy was baked for; '' when the site has no languages. */
    .addColumn("lang", "text", (c) => c.notNull())
    .addColumn("html", "text", (c) => c.notNull())
    .addColumn("bytes", "integer", (c) => c.notNull())
    .addColumn("report_json", "text", (c) => c.notNull())
    .addColumn("baked_at_gmt", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("frame_bakes_pk", ["frame_id", "lang"])
    .execute();

  await db.schema
    .createTable("static_copies")
    .addColumn("site_id", "integer", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("page_id", "integer", (c) => c.notNull())
    /** The public path the copy answers at, e.g. `/en/about/`. */
    .addColumn("address", "text", (c) => c.notNull())
    .addColumn("frame_id", "text", (c) => c.notNull())
    .addColumn("html", "text", (c) => c.notNull())
    .addColumn("bytes", "integer", (c) => c.notNull())
    .addColumn("sha256", "text", (c) => c.notNull())
    .addColumn("written_at_gmt", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("static_copies_pk", ["site_id", "page_id"])
    .execute();
  await db.schema.createIndex("static_copies_address").on("static_copies").columns(["site_id", "address"]).execute();
};

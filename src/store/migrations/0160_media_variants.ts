// Media variants counted (docs/media.md, "Counted"): `media_bytes` counts each media file and the
// variants made of it. A variant is kept beside its original's blob (media/variants.ts); the
// bytes of each one kept are charged to the site whose request made it, as a row here naming the
// file's row and the width, and freed with that row (a delete) or when the file's bytes are
// replaced (PUT). The primary key makes a variant made by two processes at once count once.
// Variants made before this migration are not counted (nothing recorded who made them).
import type { Build } from "./build.ts";

export const up: Build = async (db) => {
  await db.schema
    .createTable("media_variants")
    .addColumn("media_id", "integer", (c) => c.notNull().references("media.id").onDelete("cascade"))
    .addColumn("site_id", "integer", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("width", "integer", (c) => c.notNull())
    .addColumn("bytes", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("media_variants_pk", ["media_id", "width"])
    .execute();
  await db.schema.createIndex("media_variants_site").on("media_variants").column("site_id").execute();
};

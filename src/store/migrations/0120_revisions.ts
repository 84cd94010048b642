// Revisions and the trash (docs/revisions.md). `revisions`: every stored state of an object a write
// changed (frames, pages, menus, data sets, stylesheets, sidebars), numbered 1, 2, … per object,
// with its content (the markup or CSS, else the object's JSON), the fields that decide what changed
// (`fields_json`) and which of them did (`summary_json`). `trash`: objects deleted, with what a
// restore needs besides their last revision (`extra_json`: e.g. the pages that stood on a frame).
import { idColumn, type Build } from "./build.ts";

export const up: Build = async (db, dialect) => {
  const id = idColumn(dialect);
  await db.schema
    .createTable("revisions")
    .addColumn("id", id.type, id.build)
    .addColumn("site_id", "integer", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("object_id", "text", (c) => c.notNull())
    .addColumn("revision", "integer", (c) => c.notNull())
    .addColumn("sha256", "text", (c) => c.notNull())
    .addColumn("bytes", "integer", (c) => c.notNull())
    .addColumn("content", "text", (c) => c.notNull())
    .addColumn("fields_json", "text", (c) => c.notNull())
    .addColumn("summary_json", "text", (c) => c.notNull())
    .addColumn("created_at_gmt", "text", (c) => c.notNull())
    .addColumn("created_by", "integer")
    .addUniqueConstraint("revisions_object_revision", ["site_id", "kind", "object_id", "revision"])
    .execute();
  await db.schema
    .createTable("trash")
    .addColumn("site_id", "integer", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("object_id", "text", (c) => c.notNull())
    .addColumn("slug", "text", (c) => c.notNull())
    .addColumn("last_revision", "integer", (c) => c.notNull())
    .addColumn("extra_json", "text", (c) => c.notNull())
    .addColumn("deleted_at_gmt", "text", (c) => c.notNull())
    .addColumn("deleted_by", "integer")
    .addPrimaryKeyConstraint("trash_pk", ["site_id", "kind", "object_id"])
    .execute();
  await db.schema.createIndex("trash_deleted").on("trash").columns(["deleted_at_gmt"]).execute();
};

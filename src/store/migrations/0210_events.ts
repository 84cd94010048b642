// Events (docs/events.md): one row per object a write wrote, and one `site.changed` per write of a
// site, appended in the write's own transaction, so an event exists exactly when its write does.
// `id` increases across the network; `site_id` is null for a write of no site (a user's token).
import type { Build } from "./build.ts";
import { idColumn } from "./build.ts";

export const up: Build = async (db, dialect) => {
  await db.schema
    .createTable("events")
    .addColumn("id", idColumn(dialect).type, idColumn(dialect).build)
    .addColumn("site_id", "integer")
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("object_kind", "text", (c) => c.notNull())
    .addColumn("object_id", "text", (c) => c.notNull())
    .addColumn("object_slug", "text")
    .addColumn("actor_user_id", "integer")
    .addColumn("actor_token_id", "integer")
    .addColumn("request_id", "text")
    .addColumn("at", "text", (c) => c.notNull())
    .addColumn("changes_json", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("events_site").on("events").columns(["site_id", "id"]).execute();
};

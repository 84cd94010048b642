// The publish outbox (publish/outbox.ts, docs/publishing.md): each row is what one committed write
// owes the public site, written in that write's transaction and deleted once its publish run is
// over; a row still there at a start (the process died in between) is published then.
import type { Build } from "./build.ts";
import { idColumn } from "./build.ts";

export const up: Build = async (db, dialect) => {
  await db.schema
    .createTable("publish_outbox")
    .addColumn("id", idColumn(dialect).type, idColumn(dialect).build)
    .addColumn("site_id", "integer", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("changes_json", "text", (c) => c.notNull())
    .addColumn("options_json", "text", (c) => c.notNull())
    .addColumn("created_at_gmt", "text", (c) => c.notNull())
    .execute();
};

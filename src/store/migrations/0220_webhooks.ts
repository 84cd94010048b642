// Webhooks (docs/webhooks.md) and what events need for them and for the stream (docs/events.md):
// - `events.outbox_id`: the publish outbox row the event's write owes (null: it owed nothing);
//   paying that row fills `published_json` (`{rebaked, urls}`), until then the event is not
//   shown to the stream nor sent (a write's event goes out with what it published).
// - `events.dispatched`: 0 until the dispatcher has made the event's deliveries (one per
//   matching webhook); a queue rather than a cursor, so an event committed late is never skipped.
// - `webhooks`: a site's hooks. The secret signs deliveries (HMAC), so it is kept as it is; the
//   previous one is kept for 24 h after a rotation and both sign meanwhile.
// - `webhook_deliveries`: the durable delivery outbox: one row per event and hook (and per test or
//   redelivery), its message id kept across attempts, its body frozen when it is made; a worker
//   leases a due row (`lease_until`) while it attempts it.
import { sql } from "kysely";
import type { Build } from "./build.ts";
import { idColumn } from "./build.ts";

export const up: Build = async (db, dialect) => {
  await db.schema.alterTable("events").addColumn("outbox_id", "integer").execute();
  await db.schema.alterTable("events").addColumn("published_json", "text").execute();
  await db.schema
    .alterTable("events")
    .addColumn("dispatched", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.createIndex("events_outbox").on("events").column("outbox_id").execute();
  await db.schema.createIndex("events_at").on("events").column("at").execute();
  await db.schema
    .createIndex("events_undispatched")
    .on("events")
    .column("id")
    .where(sql.ref("dispatched"), "=", 0)
    .execute();

  await db.schema
    .createTable("webhooks")
    .addColumn("id", idColumn(dialect).type, idColumn(dialect).build)
    .addColumn("site_id", "integer", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("events_json", "text", (c) => c.notNull())
    .addColumn("active", "integer", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("previous_secret", "text")
    .addColumn("previous_secret_until", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("webhooks_site").on("webhooks").columns(["site_id", "id"]).execute();

  await db.schema
    .createTable("webhook_deliveries")
    .addColumn("id", idColumn(dialect).type, idColumn(dialect).build)
    .addColumn("webhook_id", "integer", (c) => c.notNull().references("webhooks.id").onDelete("cascade"))
    .addColumn("event_id", "integer")
    .addColumn("message_id", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull())
    .addColumn("next_attempt_at", "text", (c) => c.notNull())
    .addColumn("lease_until", "text")
    .addColumn("response_code", "integer")
    .addColumn("response_body", "text")
    .addColumn("duration_ms", "integer")
    .addColumn("error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_attempt_at", "text")
    .execute();
  await db.schema
    .createIndex("webhook_deliveries_hook")
    .on("webhook_deliveries")
    .columns(["webhook_id", "id"])
    .execute();
  await db.schema
    .createIndex("webhook_deliveries_due")
    .on("webhook_deliveries")
    .columns(["status", "next_attempt_at"])
    .execute();
};

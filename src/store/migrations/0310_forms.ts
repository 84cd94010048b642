// Forms (docs/forms.md). `forms`: one row per form of a site, named by a slug; its fields, where a
// visitor goes after sending it, who is told, whether its submissions are kept. `form_submissions`:
// what visitors sent, the client address kept only as a salted hash (`address_hash`).
// `form_notifications`: the e-mails owed for submissions, sent and retried apart from the answer
// (forms/notify-worker.ts). `site_usage.form_submissions`: the counter of quota `form_submissions`
// (no submission existed before this migration). `form_keys`: the network's secret that signs
// forms' time tokens and salts the addresses kept (forms/token.ts), made at first use.
// `forms.spam_count`: the submissions refused as a bot's (forms/submit-service.ts), kept nowhere else.
import type { Build } from "./build.ts";
import { idColumn } from "./build.ts";

export const up: Build = async (db, dialect) => {
  await db.schema
    .createTable("forms")
    .addColumn("site_id", "integer", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("fields_json", "text", (c) => c.notNull())
    .addColumn("redirect", "text")
    .addColumn("notify_json", "text", (c) => c.notNull())
    .addColumn("store", "integer", (c) => c.notNull())
    .addColumn("active", "integer", (c) => c.notNull())
    .addColumn("spam_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at_gmt", "text", (c) => c.notNull())
    .addColumn("updated_at_gmt", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("forms_pk", ["site_id", "name"])
    .execute();
  await db.schema
    .createTable("form_submissions")
    .addColumn("id", idColumn(dialect).type, idColumn(dialect).build)
    .addColumn("site_id", "integer", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("form", "text", (c) => c.notNull())
    .addColumn("fields_json", "text", (c) => c.notNull())
    .addColumn("page_id", "integer")
    .addColumn("lang", "text")
    .addColumn("user_agent", "text", (c) => c.notNull())
    .addColumn("address_hash", "text", (c) => c.notNull())
    .addColumn("created_at_gmt", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("form_submissions_form")
    .on("form_submissions")
    .columns(["site_id", "form", "id"])
    .execute();
  await db.schema.createIndex("form_submissions_created").on("form_submissions").column("created_at_gmt").execute();
  await db.schema
    .createTable("form_notifications")
    .addColumn("id", idColumn(dialect).type, idColumn(dialect).build)
    .addColumn("site_id", "integer", (c) => c.notNull().references("sites.id").onDelete("cascade"))
    .addColumn("form", "text", (c) => c.notNull())
    .addColumn("message_json", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_at_gmt", "text", (c) => c.notNull())
    .addColumn("last_error", "text")
    .execute();
  await db.schema.createIndex("form_notifications_next").on("form_notifications").column("next_at_gmt").execute();
  await db.schema
    .createTable("form_keys")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("secret", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .alterTable("site_usage")
    .addColumn("form_submissions", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
};

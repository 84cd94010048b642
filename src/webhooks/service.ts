// A site's webhooks (docs/webhooks.md): made, changed, rotated and deleted through the write
// pipeline (each appends its `webhook.*` event), read by the site's administrators. The address
// is checked against server-side request forgery when it is set (address-check.ts) and again at
// each delivery (post.ts).
import { fail } from "../errors.ts";
import type { SiteRow } from "../site/sites.ts";
import type { Written, WrittenAction } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { runWrite } from "../write/pipeline.ts";
import { unknownFields, type Warning } from "../warnings.ts";
import { checkWebhookUrl } from "./address-check.ts";
import { hookRow, webhookOf, type HookRow, type Webhook } from "./hooks.ts";
import { newSecret } from "./signing.ts";

/** Hooks one site may have. */
export const MAX_WEBHOOKS = 20;
/** How long the secret before a rotation still signs. */
export const PREVIOUS_SECRET_MS = 24 * 60 * 60 * 1000;
const MAX_PREFIXES = 50;
const MAX_DESCRIPTION = 500;
const PREFIX = /^[a-z][a-z_]{0,39}(\.[a-z][a-z_]{0,39})?$/;
const FIELDS = ["url", "events", "active", "description"] as const;

export interface WebhookOptions {
  /** SVC_WEBHOOKS_ALLOW_PRIVATE: loopback and private addresses allowed (tests, closed networks). */
  allowPrivate: boolean;
}

export interface WebhookInput {
  url?: unknown;
  events?: unknown;
  active?: unknown;
  description?: unknown;
}

/** A webhook with its secret: the answer that made the secret. */
export interface WebhookWithSecret extends Webhook {
  secret: string;
}

function invalid(field: string, reason: string, message: string, details: Record<string, unknown> = {}): never {
  throw fail("invalid_field", { field, reason, ...details }, message);
}

function prefixesOf(events: unknown): string[] {
  if (events === undefined || events === null) return [];
  if (!Array.isArray(events)) invalid("events", "not_a_list", "events is a list of event types or prefixes.");
  if (events.length > MAX_PREFIXES)
    invalid("events", "too_many", `events names at most ${MAX_PREFIXES} types.`, { max: MAX_PREFIXES });
  for (const [at, prefix] of events.entries())
    if (typeof prefix !== "string" || !PREFIX.test(prefix))
      invalid(
        `events[${at}]`,
        "invalid_type",
        "Each of events is an event type or its kind (frame, frame.created, page.published, site.changed).",
      );
  return [...new Set(events as string[])];
}

function activeOf(active: unknown): boolean {
  if (typeof active !== "boolean") invalid("active", "not_a_boolean", "active is true or false.");
  return active;
}

function descriptionOf(description: unknown): string {
  if (description === null) return "";
  if (typeof description !== "string" || description.length > MAX_DESCRIPTION)
    invalid("description", "invalid", `description is a text of at most ${MAX_DESCRIPTION} characters.`, {
      max: MAX_DESCRIPTION,
    });
  return description;
}

async function urlOf(url: unknown, options: WebhookOptions): Promise<string> {
  if (typeof url !== "string" || url.trim() === "")
    invalid("url", "required", "url is the https:// (or http://) address to send events to.");
  return (await checkWebhookUrl(url.trim(), options)).href;
}

function hookWritten(id: number, action: WrittenAction, fields?: readonly string[]): Written {
  return { kind: "webhook", id: String(id), action, ...(fields ? { fields } : {}) };
}

/** POST /webhooks: a new hook and its secret, shown this once. */
export async function createWebhook(
  ctx: ServiceContext,
  site: SiteRow,
  input: WebhookInput & Record<string, unknown>,
  options: WebhookOptions,
): Promise<{ webhook: WebhookWithSecret; warnings: Warning[] }> {
  const warnings = unknownFields(input, FIELDS);
  const url = await urlOf(input.url, options);
  const events = prefixesOf(input.events);
  const active = input.active === undefined ? true : activeOf(input.active);
  const description = input.description === undefined ? "" : descriptionOf(input.description);
  const now = new Date(ctx.clock()).toISOString();
  const secret = newSecret();
  const done = await runWrite(ctx, {
    siteId: site.id,
    apply: async (trx) => {
      const { count } = await trx
        .selectFrom("webhooks")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .where("site_id", "=", site.id)
        .executeTakeFirstOrThrow();
      if (Number(count) >= MAX_WEBHOOKS)
        invalid("url", "too_many_webhooks", `A site has at most ${MAX_WEBHOOKS} webhooks.`, { max: MAX_WEBHOOKS });
      const row = await trx
        .insertInto("webhooks")
        .values({
          site_id: site.id,
          url,
          events_json: JSON.stringify(events),
          active: active ? 1 : 0,
          description,
          secret,
          previous_secret: null,
          previous_secret_until: null,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { value: row, wrote: [hookWritten(row.id, "created", ["url", "events", "active", "description"])] };
    },
  });
  return { webhook: { ...webhookOf(done.value, ctx.clock()), secret }, warnings };
}

export async function listWebhooks(ctx: ServiceContext, site: SiteRow): Promise<Webhook[]> {
  const rows = await ctx.db.selectFrom("webhooks").selectAll().where("site_id", "=", site.id).orderBy("id").execute();
  return rows.map((row) => webhookOf(row, ctx.clock()));
}

async function existing(ctx: ServiceContext, site: SiteRow, rawId: string): Promise<HookRow> {
  const row = await hookRow(ctx.db, site.id, rawId);
  if (!row) throw fail("webhook_not_found", { id: rawId });
  return row;
}

export async function getWebhook(ctx: ServiceContext, site: SiteRow, rawId: string): Promise<Webhook> {
  return webhookOf(await existing(ctx, site, rawId), ctx.clock());
}

/** PATCH /webhooks/{id}: any of url, events, active, description. */
export async function updateWebhook(
  ctx: ServiceContext,
  site: SiteRow,
  rawId: string,
  input: WebhookInput & Record<string, unknown>,
  options: WebhookOptions,
): Promise<{ webhook: Webhook; warnings: Warning[] }> {
  const warnings = unknownFields(input, FIELDS);
  const row = await existing(ctx, site, rawId);
  const set: Partial<HookRow> = {};
  if (input.url !== undefined) set.url = await urlOf(input.url, options);
  if (input.events !== undefined) set.events_json = JSON.stringify(prefixesOf(input.events));
  if (input.active !== undefined) set.active = activeOf(input.active) ? 1 : 0;
  if (input.description !== undefined) set.description = descriptionOf(input.description);
  const fields = FIELDS.filter((field) => input[field] !== undefined);
  if (fields.length === 0)
    throw fail("nothing_to_update", { allowed: FIELDS }, "Send any of url, events, active and description.");
  const done = await runWrite(ctx, {
    siteId: site.id,
    apply: async (trx) => {
      const updated = await trx
        .updateTable("webhooks")
        .set({ ...set, updated_at: new Date(ctx.clock()).toISOString() })
        .where("id", "=", row.id)
        .returningAll()
        .executeTakeFirst();
      if (!updated) throw fail("webhook_not_found", { id: rawId });
      return { value: updated, wrote: [hookWritten(row.id, "updated", fields)] };
    },
  });
  return { webhook: webhookOf(done.value, ctx.clock()), warnings };
}

/** DELETE /webhooks/{id}: the hook and its deliveries go; nothing more is sent. `dryRun`: nothing goes. */
export async function deleteWebhook(
  ctx: ServiceContext,
  site: SiteRow,
  rawId: string,
  dryRun = false,
): Promise<Webhook> {
  const row = await existing(ctx, site, rawId);
  const done = await runWrite(ctx, {
    siteId: site.id,
    dryRun,
    apply: async (trx) => {
      const gone = await trx.deleteFrom("webhooks").where("id", "=", row.id).returningAll().executeTakeFirst();
      if (!gone) throw fail("webhook_not_found", { id: rawId });
      return { value: gone, wrote: [hookWritten(row.id, "deleted")] };
    },
  });
  return webhookOf(done.value, ctx.clock());
}

/** POST /webhooks/{id}/rotate: a new secret, shown this once; the old one signs too for a day. */
export async function rotateSecret(ctx: ServiceContext, site: SiteRow, rawId: string): Promise<WebhookWithSecret> {
  const row = await existing(ctx, site, rawId);
  const now = ctx.clock();
  const secret = newSecret();
  const done = await runWrite(ctx, {
    siteId: site.id,
    apply: async (trx) => {
      const updated = await trx
        .updateTable("webhooks")
        .set((eb) => ({
          previous_secret: eb.ref("secret"),
          previous_secret_until: new Date(now + PREVIOUS_SECRET_MS).toISOString(),
          secret,
          updated_at: new Date(now).toISOString(),
        }))
        .where("id", "=", row.id)
        .returningAll()
        .executeTakeFirst();
      if (!updated) throw fail("webhook_not_found", { id: rawId });
      return { value: updated, wrote: [{ ...hookWritten(row.id, "updated", ["secret"]), verb: "rotated" }] };
    },
  });
  return { ...webhookOf(done.value, now), secret };
}

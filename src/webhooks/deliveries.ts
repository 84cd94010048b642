// A hook's deliveries (docs/webhooks.md, "Deliveries"): listed newest first, sent again on request
// (`redeliver`: the same message id and body, signed anew, retried as any delivery) and a test
// event sent once (`test`). Both attempt at once and answer what came of it; both are writes of
// the pipeline that write no object of the site (a delivery is bookkeeping, as a session's use):
// they append no event.
import { fail } from "../errors.ts";
import type { SiteRow } from "../site/sites.ts";
import type { Db } from "../store/database.ts";
import type { WebhookDeliveriesTable } from "../store/schema-hooks.ts";
import type { ServiceContext } from "../write/context.ts";
import { runWrite } from "../write/pipeline.ts";
import type { Selectable } from "kysely";
import { attempt, claimDue } from "./deliver.ts";
import { hookRow, type HookRow } from "./hooks.ts";
import { newMessageId } from "./signing.ts";

export interface Delivery {
  id: number;
  event_id: number | null;
  /** The event's type (`webhook.test` for a test). */
  type: string;
  message_id: string;
  /** `pending` (to be attempted at next_attempt_at), `delivered` or `failed`. */
  status: string;
  attempts: number;
  response_code: number | null;
  /** The first bytes (1 KB) of the receiver's answer. */
  response_body: string | null;
  duration_ms: number | null;
  /** Why the last attempt got no answer: `timeout`, `refused`, `address_not_allowed`, … */
  error: string | null;
  created_at: string;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
}

type DeliveryRow = Selectable<WebhookDeliveriesTable>;

function deliveryOf(row: DeliveryRow): Delivery {
  let type = "";
  try {
    type = String(JSON.parse(row.body).type ?? "");
  } catch {}
  return {
    id: row.id,
    event_id: row.event_id,
    type,
    message_id: row.message_id,
    status: row.status,
    attempts: row.attempts,
    response_code: row.response_code,
    response_body: row.response_body,
    duration_ms: row.duration_ms,
    error: row.error,
    created_at: row.created_at,
    last_attempt_at: row.last_attempt_at,
    next_attempt_at: row.status === "pending" ? row.next_attempt_at : null,
  };
}

async function hookOf(ctx: ServiceContext, site: SiteRow, rawId: string): Promise<HookRow> {
  const row = await hookRow(ctx.db, site.id, rawId);
  if (!row) throw fail("webhook_not_found", { id: rawId });
  return row;
}

export const DEFAULT_DELIVERIES = 50;
export const MAX_DELIVERIES = 200;

/** GET /webhooks/{id}/deliveries: newest first, `limit` of them. */
export async function listDeliveries(
  ctx: ServiceContext,
  site: SiteRow,
  rawId: string,
  limit = DEFAULT_DELIVERIES,
): Promise<Delivery[]> {
  const hook = await hookOf(ctx, site, rawId);
  const rows = await ctx.db
    .selectFrom("webhook_deliveries")
    .selectAll()
    .where("webhook_id", "=", hook.id)
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map(deliveryOf);
}

async function deliveryRow(db: Db, id: number): Promise<DeliveryRow> {
  return db.selectFrom("webhook_deliveries").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

/** Makes a delivery through the pipeline (no object written: no event), attempts it now, answers it as it then stands. */
async function sendNow(
  ctx: ServiceContext,
  site: SiteRow,
  hook: HookRow,
  delivery: { event_id: number | null; message_id: string; body: string },
  allowPrivate: boolean,
): Promise<Delivery> {
  const at = new Date(ctx.clock()).toISOString();
  const done = await runWrite(ctx, {
    siteId: site.id,
    apply: async (trx) => {
      const row = await trx
        .insertInto("webhook_deliveries")
        .values({
          webhook_id: hook.id,
          ...delivery,
          status: "pending",
          attempts: 0,
          next_attempt_at: at,
          created_at: at,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return { value: row.id, wrote: [] };
    },
  });
  const [claimed] = await claimDue(ctx.db, ctx.clock(), 1, [done.value]);
  if (claimed) await attempt(ctx, claimed, { allowPrivate });
  return deliveryOf(await deliveryRow(ctx.db, done.value));
}

/** POST /webhooks/{id}/deliveries/{delivery_id}/redeliver: the same message again, signed now. */
export async function redeliver(
  ctx: ServiceContext,
  site: SiteRow,
  rawId: string,
  rawDelivery: string,
  allowPrivate: boolean,
): Promise<Delivery> {
  const hook = await hookOf(ctx, site, rawId);
  const id = /^[1-9]\d{0,9}$/.test(rawDelivery) ? Number(rawDelivery) : Number.NaN;
  const original =
    id <= 2_147_483_647
      ? await ctx.db
          .selectFrom("webhook_deliveries")
          .selectAll()
          .where("webhook_id", "=", hook.id)
          .where("id", "=", id)
          .executeTakeFirst()
      : undefined;
  if (!original) throw fail("delivery_not_found", { webhook: hook.id, id: rawDelivery });
  const { event_id, message_id, body } = original;
  return sendNow(ctx, site, hook, { event_id, message_id, body }, allowPrivate);
}

/** POST /webhooks/{id}/test: a signed test event (`webhook.test`), attempted once. */
export async function sendTest(
  ctx: ServiceContext,
  site: SiteRow,
  rawId: string,
  actor: { user_id: number | null; token_id: number | null },
  requestId: string | null,
  allowPrivate: boolean,
): Promise<Delivery> {
  const hook = await hookOf(ctx, site, rawId);
  const body = JSON.stringify({
    id: null,
    site_id: site.id,
    type: "webhook.test",
    object: { kind: "webhook", id: String(hook.id), slug: null },
    actor,
    request_id: requestId,
    at: new Date(ctx.clock()).toISOString(),
    changes: { fields: [], sha256_before: null, sha256_after: null },
    published: { rebaked: 0, urls: [] },
  });
  return sendNow(ctx, site, hook, { event_id: null, message_id: newMessageId(), body }, allowPrivate);
}

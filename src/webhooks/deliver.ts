// Attempts (docs/webhooks.md, "Delivery"): a due delivery of an active hook is leased by one worker
// (`lease_until`; on PostgreSQL taken with FOR UPDATE SKIP LOCKED, so each is attempted by one
// process at a time), sent signed, and recorded: delivered on a 2xx; on anything else tried again
// by the schedule (schedule.ts) until it fails for good; a `410 Gone` turns the hook off. A
// process that dies during an attempt leaves the lease to run out, and the delivery is attempted
// again (at a start on SQLite, where no other process can hold it, at once).
import { isPostgres, type Db } from "../store/database.ts";
import type { ServiceContext } from "../write/context.ts";
import { runWrite } from "../write/pipeline.ts";
import { signingSecrets } from "./hooks.ts";
import { postWebhook, type PostResult } from "./post.ts";
import { retryDelay } from "./schedule.ts";
import { signedHeaders } from "./signing.ts";

/** How long an attempt may take: the receiver must answer within it. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** How long a leased delivery is another worker's: past an attempt's time, with room. */
export const LEASE_MS = 30_000;
/** Bytes of the receiver's answer kept with the delivery. */
export const KEPT_ANSWER_BYTES = 1024;

export interface Claimed {
  id: number;
  webhookId: number;
  siteId: number;
  /** null: a test delivery, attempted once. */
  eventId: number | null;
  messageId: string;
  body: string;
  attempts: number;
  url: string;
  secrets: string[];
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Leases up to `limit` due deliveries of active hooks (or those of `ids`, of any hook); answers them with what an attempt needs. */
export async function claimDue(db: Db, now: number, limit: number, ids?: readonly number[]): Promise<Claimed[]> {
  return db.transaction().execute(async (trx) => {
    let due = trx
      .selectFrom("webhook_deliveries")
      .select("webhook_deliveries.id")
      .where("webhook_deliveries.status", "=", "pending")
      .where("webhook_deliveries.next_attempt_at", "<=", iso(now))
      .where((where) =>
        where.or([
          where("webhook_deliveries.lease_until", "is", null),
          where("webhook_deliveries.lease_until", "<", iso(now)),
        ]),
      )
      .orderBy("webhook_deliveries.next_attempt_at")
      .limit(limit);
    // Named ones (a test, a redelivery) are asked for: sent even while the hook is off.
    if (ids) due = due.where("webhook_deliveries.id", "in", ids);
    else
      due = due.where((where) =>
        where.exists(
          where
            .selectFrom("webhooks")
            .select("webhooks.id")
            .whereRef("webhooks.id", "=", "webhook_deliveries.webhook_id")
            .where("webhooks.active", "=", 1),
        ),
      );
    if (isPostgres(trx)) due = due.forUpdate().skipLocked();
    const taken = (await due.execute()).map((row) => row.id);
    if (taken.length === 0) return [];
    await trx
      .updateTable("webhook_deliveries")
      .set({ lease_until: iso(now + LEASE_MS) })
      .where("id", "in", taken)
      .execute();
    const rows = await trx
      .selectFrom("webhook_deliveries")
      .innerJoin("webhooks", "webhooks.id", "webhook_deliveries.webhook_id")
      .select([
        "webhook_deliveries.id",
        "webhook_deliveries.webhook_id",
        "webhook_deliveries.event_id",
        "webhook_deliveries.message_id",
        "webhook_deliveries.body",
        "webhook_deliveries.attempts",
        "webhooks.site_id",
        "webhooks.url",
        "webhooks.secret",
        "webhooks.previous_secret",
        "webhooks.previous_secret_until",
      ])
      .where("webhook_deliveries.id", "in", taken)
      .orderBy("webhook_deliveries.id")
      .execute();
    return rows.map((row) => ({
      id: row.id,
      webhookId: row.webhook_id,
      siteId: row.site_id,
      eventId: row.event_id,
      messageId: row.message_id,
      body: row.body,
      attempts: row.attempts,
      url: row.url,
      secrets: signingSecrets(row, now),
    }));
  });
}

/** Leases that a process which died left (SQLite, at a start: no other process holds one). */
export async function releaseLeases(db: Db): Promise<void> {
  await db
    .updateTable("webhook_deliveries")
    .set({ lease_until: null })
    .where("status", "=", "pending")
    .where("lease_until", "is not", null)
    .execute();
}

/** What became of an attempt. */
export type Outcome = "delivered" | "retry" | "failed" | "disabled";

function outcomeOf(result: PostResult, claimed: Claimed): Outcome {
  if (result.status !== null && result.status >= 200 && result.status < 300) return "delivered";
  if (result.status === 410) return "disabled";
  if (claimed.eventId === null) return "failed";
  return "retry";
}

/** Sends one leased delivery, signed now, and records what happened; answers the outcome. */
export async function attempt(
  ctx: ServiceContext,
  claimed: Claimed,
  options: { allowPrivate: boolean; timeoutMs?: number },
): Promise<Outcome> {
  const started = ctx.clock();
  const headers = signedHeaders(claimed.secrets, claimed.messageId, Math.floor(started / 1000), claimed.body);
  const result = await postWebhook(claimed.url, headers, claimed.body, {
    timeoutMs: options.timeoutMs ?? ATTEMPT_TIMEOUT_MS,
    allowPrivate: options.allowPrivate,
    maxBodyBytes: KEPT_ANSWER_BYTES,
  });
  let outcome = outcomeOf(result, claimed);
  const attempts = claimed.attempts + 1;
  const delay = outcome === "retry" ? retryDelay(attempts) : null;
  if (outcome === "retry" && delay === null) outcome = "failed";
  const now = ctx.clock();
  await ctx.db
    .updateTable("webhook_deliveries")
    .set({
      status: outcome === "delivered" ? "delivered" : outcome === "retry" ? "pending" : "failed",
      attempts,
      next_attempt_at: iso(now + (delay ?? 0)),
      lease_until: null,
      response_code: result.status,
      response_body: result.body,
      duration_ms: result.durationMs,
      error: result.error,
      last_attempt_at: iso(started),
    })
    .where("id", "=", claimed.id)
    .execute();
  if (outcome === "disabled") await turnOff(ctx, claimed);
  return outcome;
}

/** A receiver answered 410 Gone: the hook is turned off (a write of the service's own, with its event). */
async function turnOff(ctx: ServiceContext, claimed: Claimed): Promise<void> {
  await runWrite(ctx, {
    siteId: claimed.siteId,
    apply: async (trx) => {
      const off = await trx
        .updateTable("webhooks")
        .set({ active: 0, updated_at: iso(ctx.clock()) })
        .where("id", "=", claimed.webhookId)
        .where("active", "=", 1)
        .returning("id")
        .executeTakeFirst();
      const wrote = off
        ? [{ kind: "webhook" as const, id: String(claimed.webhookId), action: "updated" as const, fields: ["active"] }]
        : [];
      return { value: undefined, wrote };
    },
  });
}

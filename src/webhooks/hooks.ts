// A site's webhooks as the API shows them (docs/webhooks.md): never their secret, except in the
// answer that made it (POST /webhooks, POST /webhooks/{id}/rotate).
import type { Db } from "../store/database.ts";
import type { WebhooksTable } from "../store/schema-hooks.ts";
import type { Selectable } from "kysely";

export type HookRow = Selectable<WebhooksTable>;

export interface Webhook {
  id: number;
  url: string;
  /** Type prefixes it takes; empty: every type. */
  events: string[];
  active: boolean;
  description: string;
  created_at: string;
  updated_at: string;
  /** Until when the secret before the last rotation still signs too; null when none does. */
  previous_secret_expires_at: string | null;
}

export function webhookOf(row: HookRow, now: number): Webhook {
  const until = row.previous_secret_until;
  return {
    id: Number(row.id),
    url: row.url,
    events: JSON.parse(row.events_json),
    active: row.active === 1,
    description: row.description,
    created_at: row.created_at,
    updated_at: row.updated_at,
    previous_secret_expires_at: until !== null && Date.parse(until) > now ? until : null,
  };
}

/** The secrets that sign now: the current one, and the previous one for a day after a rotation. */
export function signingSecrets(
  row: Pick<HookRow, "secret" | "previous_secret" | "previous_secret_until">,
  now: number,
) {
  const previous =
    row.previous_secret !== null && row.previous_secret_until !== null && Date.parse(row.previous_secret_until) > now
      ? [row.previous_secret]
      : [];
  return [row.secret, ...previous];
}

/** Whether a hook taking `prefixes` takes an event of `type` (as GET /events?type= matches). */
export function takesType(prefixes: readonly string[], type: string): boolean {
  return prefixes.length === 0 || prefixes.some((prefix) => type === prefix || type.startsWith(`${prefix}.`));
}

/** The hook `rawId` of the site; undefined for an unknown one or another site's. */
export async function hookRow(db: Db, siteId: number, rawId: string): Promise<HookRow | undefined> {
  const id = /^[1-9]\d{0,9}$/.test(rawId) ? Number(rawId) : Number.NaN;
  if (!(id <= 2_147_483_647)) return undefined;
  return db.selectFrom("webhooks").selectAll().where("site_id", "=", siteId).where("id", "=", id).executeTakeFirst();
}

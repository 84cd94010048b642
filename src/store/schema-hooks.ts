// The webhooks' tables (migration 0220, docs/webhooks.md).
import type { Generated } from "kysely";

export interface WebhooksTable {
  id: Generated<number>;
  site_id: number;
  url: string;
  /** The type prefixes it takes (`[]`: every type). */
  events_json: string;
  active: number;
  description: string;
  /** `whsec_` + base64 of 32 bytes: it signs, so it is kept as it is. */
  secret: string;
  /** The secret before the last rotation, signing too until `previous_secret_until`. */
  previous_secret: string | null;
  previous_secret_until: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  webhook_id: number;
  /** null: a test delivery. */
  event_id: number | null;
  /** The `webhook-id` header, the same on every attempt. */
  message_id: string;
  /** The JSON sent, frozen when the delivery is made. */
  body: string;
  /** `pending`, `delivered` or `failed`. */
  status: string;
  attempts: number;
  /** ISO 8601 UTC: due from then. */
  next_attempt_at: string;
  /** ISO 8601 UTC: a worker attempts it until then. */
  lease_until: string | null;
  response_code: number | null;
  response_body: string | null;
  duration_ms: number | null;
  /** Why the last attempt got no answer (refused, timed out, an address not allowed). */
  error: string | null;
  created_at: string;
  last_attempt_at: string | null;
}

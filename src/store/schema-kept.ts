// Row types of the tables the service keeps beside the content: quotas and use counters, revisions
// and the trash, preview links, the publish outbox. Kept apart from schema.ts, which lists the
// content's tables and the one `Tables` map of both.
import type { Generated } from "kysely";

export interface SiteQuotasTable {
  site_id: number;
  /** A quota key of src/quotas/catalogue.ts. */
  quota: string;
  value: number;
}

export interface SiteUsageTable {
  site_id: number;
  pages: number;
  frames: number;
  data_items: number;
  stored_bytes: number;
  /** added by 0060_media; kept by media writes (quota media_bytes) */
  media_bytes: Generated<number>;
  /** added by 0140_counted_history; kept by the publish engine (quota published_bytes: static copies and frame bakes) */
  published_bytes: Generated<number>;
  /** added by 0310_forms; kept by form submissions (quota form_submissions) */
  form_submissions: Generated<number>;
}

/** A stored state of an object a write changed (docs/revisions.md). */
export interface RevisionsTable {
  id: Generated<number>;
  site_id: number;
  /** frames, pages, menus, data, styles, sidebars */
  kind: string;
  object_id: string;
  revision: number;
  sha256: string;
  bytes: number;
  content: string;
  fields_json: string;
  summary_json: string;
  created_at_gmt: string;
  created_by: number | null;
}

/** A deleted object, kept for restoring with its history (docs/revisions.md). */
export interface TrashTable {
  site_id: number;
  kind: string;
  object_id: string;
  slug: string;
  last_revision: number;
  extra_json: string;
  deleted_at_gmt: string;
  deleted_by: number | null;
}

/** A preview link: only the token's SHA-256 is kept; it shows page `page_id` until `expires_at_gmt`. */
export interface PreviewLinksTable {
  id: Generated<number>;
  site_id: number;
  page_id: number;
  token_hash: string;
  created_by: number;
  created_at_gmt: string;
  expires_at_gmt: string;
}

/**
 * What a committed write owes the public site (publish/outbox.ts): its changes, written
 * in the write's own transaction and deleted once published, so a publish that a crash cut short
 * is done at the next start.
 */
export interface PublishOutboxTable {
  id: Generated<number>;
  site_id: number;
  /** The write's `Change[]` as JSON. */
  changes_json: string;
  /** Its publish options (`bake`, `limit`) as JSON. */
  options_json: string;
  /** What the write wrote (`Written[]` of write/pipeline.ts) as JSON: the entry the event feed reads. */
  wrote_json: Generated<string>;
  created_at_gmt: string;
}

/** An event (docs/events.md): what one write wrote of one object, or a write of a site as a whole. */
export interface EventsTable {
  id: Generated<number>;
  site_id: number | null;
  type: string;
  object_kind: string;
  object_id: string;
  object_slug: string | null;
  actor_user_id: number | null;
  actor_token_id: number | null;
  request_id: string | null;
  /** ISO 8601 UTC, to the millisecond. */
  at: string;
  /** `{fields, sha256_before, sha256_after}`. */
  changes_json: string;
  /** The publish outbox row its write owes (null: none); paying it fills `published_json`. */
  outbox_id: number | null;
  /** `{rebaked, urls}` once its write is published; null until then. */
  published_json: string | null;
  /** 0 until the webhook dispatcher has made its deliveries. */
  dispatched: Generated<number>;
}

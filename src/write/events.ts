// Events (docs/events.md): the public face of what a write wrote, appended by the write pipeline in
// the write's own transaction, after the revisions: one event per object written, named
// `<kind>.<verb>`, and one `site.changed` per write of a site. A dry run rolls them back with
// everything else. A session's recorded use is bookkeeping, not a change: it makes no event.
//
// Each event names the outbox row its write owes (publish/outbox.ts); paying that row fills the
// event's `published` (`{rebaked, urls}`); a write that owes nothing has it at once. The stream and
// webhooks show an event once it has it, so it goes out with what its write published.
//
// On PostgreSQL events are appended under one transaction-scoped lock held until the commit, so
// their ids are committed in increasing order: a reader that has seen id n will never later see
// a smaller one appear (the stream resumes after the last id it sent). It is the write's last step,
// so the lock is held for the insert and the commit only.
import { sql } from "kysely";
import { currentActing } from "../actor.ts";
import { isPostgres, type Db } from "../store/database.ts";
import { lastTwoRevisions, type RevisionKind } from "../revisions/revisions.ts";
import type { Rebaked, Written, WrittenKind } from "./change.ts";
import { slugsOf } from "./event-slugs.ts";

/** The event kind of each written kind; null: it makes no event. */
export const EVENT_KINDS: Readonly<Record<WrittenKind, string | null>> = {
  frame: "frame",
  page: "page",
  menu: "menu",
  dataset: "data",
  media: "media",
  style: "style",
  sidebar: "sidebar",
  strings: "strings",
  settings: "settings",
  language: "language",
  seo: "seo",
  redirect: "redirect",
  site: "site",
  domain: "domain",
  user: "user",
  token: "token",
  session: null,
  membership: "member",
  quota: "quota",
  preview_link: "preview_link",
  cache: "cache",
  webhook: "webhook",
  form: "form",
  form_submission: "form_submission",
};

/** The revisions' kind of a written kind that keeps revisions (their sha256 and summaries are the events'). */
const REVISED: Partial<Record<WrittenKind, RevisionKind>> = {
  frame: "frames",
  page: "pages",
  menu: "menus",
  dataset: "data",
  style: "styles",
  sidebar: "sidebars",
};

interface Facts {
  sha256Before: string | null;
  sha256After: string | null;
  /** The fields the write changed: its revision's summary (`html` for markup), else what the write says. */
  fields: readonly string[];
  /** A page's status before and after. */
  statusBefore?: unknown;
  statusAfter?: unknown;
}

/** What the object's last two revisions tell of the write (it recorded the last, unless it changed nothing). */
async function factsOf(trx: Db, siteId: number | null, written: Written): Promise<Facts> {
  const kind = REVISED[written.kind];
  const stated = { sha256Before: null, sha256After: null, fields: written.fields ?? [] };
  if (siteId === null || kind === undefined) return stated;
  const [last, previous] = await lastTwoRevisions(trx, siteId, kind, written.id);
  if (!last) return stated;
  if (written.action === "deleted") return { ...stated, sha256Before: last.sha256, statusBefore: last.fields.status };
  return {
    sha256Before: previous?.sha256 ?? null,
    sha256After: last.sha256,
    fields: last.summary,
    statusBefore: previous?.fields.status,
    statusAfter: last.fields.status,
  };
}

/** A page's update that changes whether it is published says so (`page.published`, `page.unpublished`). */
function verbOf(written: Written, facts: Facts): string {
  if (written.verb) return written.verb;
  if (written.kind === "membership" && written.action === "created") return "added";
  if (written.kind === "membership" && written.action === "deleted") return "removed";
  if (written.kind === "page" && written.action === "updated" && facts.statusBefore !== facts.statusAfter) {
    if (facts.statusAfter === "publish") return "published";
    if (facts.statusBefore === "publish") return "unpublished";
  }
  return written.action;
}

/** What a write published, as its events show it. */
export interface Published {
  /** How many pages' public output it rewrote or withdrew. */
  rebaked: number;
  /** The public addresses it refreshed (their cached answers dropped). */
  urls: string[];
}

export const NOTHING_PUBLISHED: Published = Object.freeze({ rebaked: 0, urls: [] as string[] });

/** An event's `published`, from the report of its write's publish run. */
export function publishedOf(rebaked: Rebaked): Published {
  return { rebaked: rebaked.pages.length, urls: rebaked.cache.flushed.urls.urls };
}

/** Any 64-bit number no other lock takes: the lock events are appended under (PostgreSQL). */
const EVENTS_LOCK = 0x73766345;

/**
 * Appends the events of one write, in its transaction; answers how many. `outboxId`: the outbox
 * row the write owes, whose payment fills their `published` (none: nothing to publish).
 */
export async function appendEvents(
  trx: Db,
  siteId: number | null,
  wrote: readonly Written[],
  now: number,
  outboxId?: number,
): Promise<number> {
  const acting = currentActing();
  const at = new Date(now).toISOString();
  const common = {
    site_id: siteId,
    actor_user_id: acting.userId,
    actor_token_id: acting.tokenId,
    request_id: acting.requestId,
    at,
    outbox_id: outboxId ?? null,
    published_json: outboxId === undefined ? JSON.stringify(NOTHING_PUBLISHED) : null,
    // A site's events wait for the webhook dispatcher; the network's own have no hooks.
    dispatched: siteId === null ? 1 : 0,
  };
  const slugs = await slugsOf(trx, siteId, wrote);
  const rows = [];
  for (const written of wrote) {
    const kind = EVENT_KINDS[written.kind];
    if (kind === null) continue;
    const facts = await factsOf(trx, siteId, written);
    rows.push({
      ...common,
      type: `${kind}.${verbOf(written, facts)}`,
      object_kind: kind,
      object_id: written.id,
      object_slug: slugs.get(`${written.kind}:${written.id}`) ?? null,
      changes_json: JSON.stringify({
        fields: facts.fields,
        sha256_before: facts.sha256Before,
        sha256_after: facts.sha256After,
      }),
    });
  }
  if (rows.length === 0) return 0;
  if (siteId !== null)
    rows.push({
      ...common,
      type: "site.changed",
      object_kind: "site",
      object_id: String(siteId),
      object_slug: null,
      changes_json: JSON.stringify({ fields: [], sha256_before: null, sha256_after: null }),
    });
  if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(${EVENTS_LOCK})`.execute(trx);
  await trx.insertInto("events").values(rows).execute();
  return rows.length;
}

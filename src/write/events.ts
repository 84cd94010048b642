// Events (docs/events.md): the public face of what a write wrote, appended by the write pipeline in
// the write's own transaction, after the revisions: one event per object written, named
// `<kind>.<verb>`, and one `site.changed` per write of a site. A dry run rolls them back with
// everything else. A session's recorded use is bookkeeping, not a change: it makes no event.
import { currentActing } from "../actor.ts";
import type { Db } from "../store/database.ts";
import { lastTwoRevisions, type RevisionKind } from "../revisions/revisions.ts";
import type { Written, WrittenKind } from "./change.ts";
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

/** Appends the events of one write, in its transaction; answers how many. */
export async function appendEvents(
  trx: Db,
  siteId: number | null,
  wrote: readonly Written[],
  now: number,
): Promise<number> {
  const acting = currentActing();
  const at = new Date(now).toISOString();
  const common = {
    site_id: siteId,
    actor_user_id: acting.userId,
    actor_token_id: acting.tokenId,
    request_id: acting.requestId,
    at,
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
  await trx.insertInto("events").values(rows).execute();
  return rows.length;
}

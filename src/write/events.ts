// Events (docs/events.md): the public face of what a write wrote, appended by the write pipeline in
// the write's own transaction, after the revisions: one event per object written, named
// `<kind>.<verb>`, and one `site.changed` per write of a site. A dry run rolls them back with
// everything else. A session's recorded use is bookkeeping, not a change: it makes no event.
import { currentActing } from "../actor.ts";
import type { Db } from "../store/database.ts";
import type { Written, WrittenKind } from "./change.ts";

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

/** Members are added and removed; every other kind is created, updated, renamed, restored and deleted. */
function verbOf(written: Written): string {
  if (written.verb) return written.verb;
  if (written.kind === "membership" && written.action === "created") return "added";
  if (written.kind === "membership" && written.action === "deleted") return "removed";
  return written.action;
}

/** The revisions' kind of a written kind that keeps revisions (their sha256 are the events'). */
const REVISED: Partial<Record<WrittenKind, string>> = {
  frame: "frames",
  page: "pages",
  menu: "menus",
  dataset: "data",
  style: "styles",
  sidebar: "sidebars",
};

/** The sha256 of the object's content before and after the write, from its last two revisions. */
async function shasOf(trx: Db, siteId: number | null, written: Written): Promise<[string | null, string | null]> {
  const kind = REVISED[written.kind];
  if (siteId === null || kind === undefined) return [null, null];
  const rows = await trx
    .selectFrom("revisions")
    .select("sha256")
    .where("site_id", "=", siteId)
    .where("kind", "=", kind)
    .where("object_id", "=", written.id)
    .orderBy("revision", "desc")
    .limit(2)
    .execute();
  if (written.action === "deleted") return [rows[0]?.sha256 ?? null, null];
  if (written.action === "created") return [null, rows[0]?.sha256 ?? null];
  return [rows[1]?.sha256 ?? null, rows[0]?.sha256 ?? null];
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
  const rows = [];
  for (const written of wrote) {
    const kind = EVENT_KINDS[written.kind];
    if (kind === null) continue;
    const [before, after] = await shasOf(trx, siteId, written);
    rows.push({
      ...common,
      type: `${kind}.${verbOf(written)}`,
      object_kind: kind,
      object_id: written.id,
      object_slug: written.slug ?? null,
      changes_json: JSON.stringify({ fields: written.fields ?? [], sha256_before: before, sha256_after: after }),
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

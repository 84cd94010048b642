// A new site's own settings and SEO defaults give way to a folder's first push (docs/cli.md,
// "Decisions"). The service makes both with every site, so a folder pushed into a site made a
// moment ago — `svc init`'s starter, or a site moved to a new one — would meet them as objects that
// differ and were never synced: conflicts, settled only by --force, which would also override
// every other protection of that push. When the site holds nothing else (no language, page,
// frame, stylesheet, menu, media file, data set, string, sidebar or redirect: nothing an author
// made) and the folder has never synced with it, nobody's work is on it to lose: those two
// conflicts are updates (and `svc status` shows them changed here only). A site with anything
// else on it keeps them as conflicts.
import { KINDS, NEVER_DELETED, kindOfKey, type Kind } from "./layout.ts";
import type { PlanItem, StatusItem } from "./plan.ts";
import type { StateEntry } from "./state.ts";

export const NEW_SITE_NOTE = "a new site's own; the folder's is sent";

/** Whether the server read holds only what the service makes with a site, and every kind was read. */
export function isNewSite(server: ReadonlyMap<string, unknown>, kinds: ReadonlySet<Kind>): boolean {
  if (!KINDS.every((kind) => kinds.has(kind))) return false;
  for (const key of server.keys()) {
    const kind = kindOfKey(key);
    if (kind === null || !NEVER_DELETED.has(kind)) return false;
  }
  return true;
}

/** Whether the site's own settings and SEO defaults give way: a new site the folder never synced with. */
function givesWay(
  server: ReadonlyMap<string, unknown>,
  base: ReadonlyMap<string, StateEntry>,
  kinds: ReadonlySet<Kind>,
) {
  return base.size === 0 && isNewSite(server, kinds);
}

/** The plan with a new site's settings and SEO defaults sent instead of met as conflicts. */
export function yieldNewSite(
  plan: PlanItem[],
  server: ReadonlyMap<string, unknown>,
  base: ReadonlyMap<string, StateEntry>,
  kinds: ReadonlySet<Kind>,
): PlanItem[] {
  if (!givesWay(server, base, kinds)) return plan;
  return plan.map((item) =>
    item.action === "conflict" && NEVER_DELETED.has(item.kind)
      ? { ...item, action: "update", note: NEW_SITE_NOTE }
      : item,
  );
}

/** The status with a new site's settings and SEO defaults changed here only (the push sends them), not conflicts. */
export function newSiteStatus(
  items: StatusItem[],
  server: ReadonlyMap<string, unknown>,
  base: ReadonlyMap<string, StateEntry>,
  kinds: ReadonlySet<Kind>,
): StatusItem[] {
  if (!givesWay(server, base, kinds)) return items;
  return items.map((item) =>
    item.conflict && NEVER_DELETED.has(item.kind) ? { ...item, server: null, conflict: false } : item,
  );
}

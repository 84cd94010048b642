// `svc status [dir]`: what changed in the folder and on the server since the last sync, each object
// named, without writing anything (not even the state). Exit 1 when an object changed on both sides.
import type { Kind } from "../layout.ts";
import { readFolder } from "../local.ts";
import { newSiteStatus } from "../new-site.ts";
import { overriddenFolder } from "../overrides.ts";
import { statusLine } from "../output.ts";
import { siteStatus } from "../plan.ts";
import { readServer } from "../remote.ts";
import { baseline, readState } from "../state.ts";
import { targetJson, type Session } from "./common.ts";

export async function statusCommand(session: Session, kinds: Set<Kind>): Promise<number> {
  const { dir, api, out, target } = session;
  const folder = overriddenFolder(readFolder(dir, kinds), session.environment);
  const base = baseline(readState(dir), target.url, target.site);
  const snapshot = await readServer(api, kinds);
  const items = newSiteStatus(
    siteStatus({ local: folder.objects, server: snapshot.objects, base, kinds }),
    snapshot.objects,
    base,
    kinds,
  );
  const conflicts = items.filter((item) => item.conflict);
  for (const problem of folder.problems) out.line(`invalid      ${problem.key}  (${problem.message})`);
  for (const item of items) out.line(statusLine(item));
  const here = items.filter((item) => item.local !== null).length;
  const there = items.filter((item) => item.server !== null).length;
  out.line(
    items.length === 0
      ? `in sync with ${target.url} site ${target.site}${base.size === 0 ? " (never synced: equal content)" : ""}`
      : `${here} changed here, ${there} changed on the server, ${conflicts.length} conflict${conflicts.length === 1 ? "" : "s"}`,
  );
  out.document({
    ok: conflicts.length === 0,
    command: "status",
    target: targetJson(target),
    synced_before: base.size > 0,
    items,
    invalid_files: folder.problems,
    conflicts: conflicts.map((item) => item.key),
  });
  return conflicts.length ? 1 : 0;
}

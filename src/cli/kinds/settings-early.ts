// The settings a push writes before everything else, where the folder's settings.json changes them:
// the name, tagline and theme (stylesheets under styles/ go to the theme the file names), the
// iframe hosts (pages' HTML keeps only iframes of hosts listed), and the menu locations the file
// adds (menus are placed there before the settings' own write). The rest — the home and 404 pages,
// which name pages, and locations the file removes, which menus may still hold — is written last,
// with the settings object itself (write-content.ts writeSettings).
import { data, type Rec } from "../api.ts";
import { isRecord } from "../file-shape.ts";
import type { PlanItem } from "../plan.ts";
import type { LocalObject } from "../local.ts";
import type { RemoteObject } from "../remote.ts";
import { urlsOf, warningsOf, type Outcome, type WriteContext } from "../write-types.ts";

const EARLY = ["name", "tagline", "theme", "iframe_hosts"] as const;
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The early part of the settings' change: what EARLY fields differ, and the locations the server lacks added to its own. */
export function earlySettings(want: Rec, have: Rec): Rec {
  const body: Rec = {};
  for (const field of EARLY) if (field in want && !same(want[field], have[field])) body[field] = want[field];
  const wanted = Array.isArray(want.menu_locations) ? (want.menu_locations as string[]) : null;
  const held = Array.isArray(have.menu_locations) ? (have.menu_locations as string[]) : [];
  if (wanted?.some((location) => !held.includes(location)))
    body.menu_locations = [...held, ...(wanted ?? []).filter((location) => !held.includes(location))];
  return body;
}

/** Writes the early settings of a plan that writes settings.json; null when nothing was sent. */
export async function writeEarlySettings(
  ctx: WriteContext,
  plan: readonly PlanItem[],
  local: ReadonlyMap<string, LocalObject>,
  remote: ReadonlyMap<string, RemoteObject>,
): Promise<Outcome | null> {
  const item = plan.find((i) => i.kind === "settings" && (i.action === "create" || i.action === "update"));
  const want = item ? local.get(item.key)?.value : undefined;
  if (!item || !isRecord(want)) return null;
  const have = remote.get(item.key)?.value;
  const body = earlySettings(want, isRecord(have) ? have : {});
  if (Object.keys(body).length === 0) return null;
  const answer = await data(ctx.api, ctx.api.site.PATCH("/settings", { body: body as never }));
  return { written: { server_sha256: "" }, warnings: warningsOf(answer), urls: urlsOf(answer, ctx.facts) };
}

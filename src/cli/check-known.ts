// What the push itself makes known that POST /frames/check cannot see (it is told of frames and
// data sets only): the texts of the strings files it sends, the menu locations of the settings.json
// it sends, the sidebars it sends. A frame's `unknown_string` for a key one of those files holds,
// or `unknown_source` for such a location or sidebar, describes the site before the push, not after
// it (docs/cli.md, "Warnings"), so it is left out of the push's warnings.
import { isRecord } from "./file-shape.ts";
import type { Views } from "./execute.ts";
import type { Warning } from "./output.ts";
import type { PlanItem } from "./plan.ts";

const SENDS = new Set(["create", "update", "rename"]);

export interface KnownAfterPush {
  strings: Set<string>;
  /** `menu.<location>` and `sidebar.<name>`, as the warnings name their sources. */
  sources: Set<string>;
}

export function knownAfterPush(plan: readonly PlanItem[], views: Views): KnownAfterPush {
  const known: KnownAfterPush = { strings: new Set(), sources: new Set() };
  for (const item of plan) {
    if (!SENDS.has(item.action)) continue;
    const value = views.local.get(item.key)?.value;
    if (item.kind === "strings" && isRecord(value)) for (const key of Object.keys(value)) known.strings.add(key);
    if (item.kind === "settings" && isRecord(value) && Array.isArray(value.menu_locations))
      for (const location of value.menu_locations) known.sources.add(`menu.${String(location)}`);
    if (item.kind === "sidebars") {
      const name = /^sidebars\/([^.]+)/.exec(item.key)?.[1];
      if (name) known.sources.add(`sidebar.${name}`);
    }
  }
  return known;
}

/** Whether a warning of the check is about something the push makes. */
export function madeByPush(warning: Warning, known: KnownAfterPush): boolean {
  if (warning.code === "unknown_string") return known.strings.has(String(warning.key));
  if (warning.code === "unknown_source") return known.sources.has(String(warning.source));
  return false;
}

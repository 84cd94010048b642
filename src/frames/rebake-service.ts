// POST /frames/rebake: rebuilds the frames the selectors name, at most 25 per call.
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import type { Change } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { frameByRef } from "./queries.ts";

export const REBAKE_LIMIT = 25;

const FLAGS = ["all", "menus", "pages", "languages", "settings"] as const;

function list(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return [];
  const items = Array.isArray(value) ? value : [value];
  if (!items.every((item) => typeof item === "string" || typeof item === "number")) {
    throw fail("invalid_field", { field, expected: "array of names" }, `${field} must be a list of names.`);
  }
  return items
    .map(String)
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

export async function rebakeFrames(ctx: ServiceContext, siteId: number, body: Record<string, unknown>) {
  const changed: Record<string, unknown> = {};
  const changes: Change[] = [];
  const warnings: Warning[] = [];
  for (const key of Object.keys(body)) {
    if (!(FLAGS as readonly string[]).includes(key) && key !== "datasets" && key !== "frames") {
      warnings.push(
        warning("unknown_field", `Field "${key}" is not a rebake selector and was ignored.`, { field: key }),
      );
    }
  }
  for (const flag of FLAGS) {
    const value = body[flag];
    if (value === undefined || value === null || value === false) continue;
    if (value !== true)
      throw fail("invalid_field", { field: flag, expected: "boolean" }, `${flag} must be true or false.`);
    changed[flag] = true;
    if (flag === "all") changes.push({ kind: "all" });
    if (flag === "menus") changes.push({ kind: "menu", menuId: 0 });
    if (flag === "pages") changes.push({ kind: "pages" });
    if (flag === "languages") changes.push({ kind: "languages" });
    if (flag === "settings") changes.push({ kind: "settings" });
  }
  const datasets = list(body.datasets, "datasets");
  if (datasets.length > 0) {
    changed.datasets = datasets;
    for (const name of datasets) changes.push({ kind: "dataset", name });
  }
  const frames = list(body.frames, "frames");
  if (frames.length > 0) {
    changed.frames = frames;
    for (const ref of frames) {
      const row = await frameByRef(ctx.db, siteId, ref);
      // An unknown ref still names a slug that missing-frame inserts may wait for.
      if (!row)
        warnings.push(
          warning("frame_not_found", `No frame "${ref}"; frames that embed that slug were rebaked.`, { frame: ref }),
        );
      changes.push({ kind: "frame", frameId: row?.id ?? "", slug: row?.slug ?? ref.toLowerCase() });
    }
  }
  if (changes.length === 0) throw fail("nothing_to_rebake", { selectors: [...FLAGS, "datasets", "frames"] });
  const report = await ctx.publisher.changed(siteId, changes, { limit: REBAKE_LIMIT });
  if (report.status === "unavailable") throw fail("internal_unavailable", { changed });
  // `skipped` is always present here: a list of slugs inside `rebaked` (docs/frames.md, "Rebake").
  const rebaked = { ...report, skipped: report.skipped ?? [] };
  return { site_id: siteId, changed, rebaked, warnings };
}

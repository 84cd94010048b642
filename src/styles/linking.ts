// Which frames a stylesheet reaches: the frames whose own markup links it (`svc/styles`, source
// `style.<name>`), for the refusal of a delete; and the frames a write of it would rebake, for a
// dry run — asked of the same dependency index the publish engine asks.
import { siteIndex } from "../frames/graph.ts";
import type { Change } from "../write/change.ts";
import { byCodeUnits } from "../effects/report.ts";
import { settingsOf } from "../site/settings.ts";
import type { Db } from "../store/database.ts";
import { nothingPlanned, plannedRebake, type PlannedRebake } from "../effects/planned.ts";

export interface FrameLink {
  id: string;
  slug: string;
}

/** Frames whose own markup links one of `names`, by slug. */
export async function framesLinking(db: Db, siteId: number, names: readonly string[]): Promise<FrameLink[]> {
  const sources = new Set(names.map((name) => `style.${name}`));
  const index = await siteIndex(db, siteId);
  return [...index.frames()]
    .filter((frame) => frame.sources.some((source) => sources.has(source)))
    .map(({ id, slug }) => ({ id, slug }))
    .sort((a, b) => byCodeUnits(a.slug, b.slug));
}

/** The frames and pages a style change would rebake: none when its theme is not the site's (no frame prints it). */
export async function plannedStyleRebake(
  db: Db,
  siteId: number,
  change: Extract<Change, { kind: "style" }>,
): Promise<PlannedRebake> {
  if ((await settingsOf(db, siteId)).theme !== change.theme) return nothingPlanned();
  return plannedRebake(db, siteId, await siteIndex(db, siteId), change);
}

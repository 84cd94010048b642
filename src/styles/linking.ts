// Which frames a stylesheet reaches: the frames whose own markup links it (`svc/styles`, source
// `style.<name>`), for the refusal of a delete; and the frames a write of it would rebake, for a
// dry run — asked of the same dependency index the publish engine asks.
import { siteIndex } from "../frames/graph.ts";
import type { Change } from "../publish/contract.ts";
import { byCodeUnits } from "../publish/report.ts";
import { settingsOf } from "../site/settings.ts";
import type { Db } from "../store/database.ts";

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

/** What a dry run answers for `rebaked`: the frames the change would rebake, and the published pages on them. */
export interface PlannedRebake {
  status: "planned";
  total: number;
  frames: Array<FrameLink & { because: string[] }>;
  pages: number[];
}

/** The frames and pages a style change would rebake: none when its theme is not the site's (no frame prints it). */
export async function plannedRebake(db: Db, siteId: number, change: Extract<Change, { kind: "style" }>): Promise<PlannedRebake> {
  const none: PlannedRebake = { status: "planned", total: 0, frames: [], pages: [] };
  if ((await settingsOf(db, siteId)).theme !== change.theme) return none;
  const index = await siteIndex(db, siteId);
  const frames = [...index.affectedBy([change])]
    .flatMap(([slug, because]) => {
      const node = index.get(slug);
      return node ? [{ id: node.id, slug, because }] : [];
    })
    .sort((a, b) => byCodeUnits(a.slug, b.slug));
  if (frames.length === 0) return none;
  const pages = await db
    .selectFrom("pages")
    .select("id")
    .where("site_id", "=", siteId)
    .where("frame_id", "in", frames.map((frame) => frame.id))
    .where("status", "=", "publish")
    .orderBy("id")
    .execute();
  return { status: "planned", total: frames.length, frames, pages: pages.map((page) => page.id) };
}

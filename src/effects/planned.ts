// What a dry run answers for `rebaked` (data sets, stylesheets): the frames a change would rebake,
// asked of the effects module the publish engine asks (effects.ts), and the published pages on them.
import type { Db } from "../store/database.ts";
import type { Change } from "../write/change.ts";
import type { DependencyIndex } from "./dependency-index.ts";
import { framesAffected } from "./effects.ts";
import { byCodeUnits } from "./report.ts";

export interface PlannedRebake {
  status: "planned";
  total: number;
  frames: Array<{ id: string; slug: string; because: string[] }>;
  pages: number[];
}

/** A plan that rebakes nothing. */
export function nothingPlanned(): PlannedRebake {
  return { status: "planned", total: 0, frames: [], pages: [] };
}

/** The frames `change` would rebake (by slug) in the site's `index`, and the published pages standing on them (by id). */
export async function plannedRebake(
  db: Db,
  siteId: number,
  index: DependencyIndex,
  change: Change,
): Promise<PlannedRebake> {
  const frames = [...framesAffected(index, [change])]
    .flatMap(([slug, because]) => {
      const node = index.get(slug);
      return node ? [{ id: node.id, slug, because }] : [];
    })
    .sort((a, b) => byCodeUnits(a.slug, b.slug));
  if (frames.length === 0) return nothingPlanned();
  const pages = await db
    .selectFrom("pages")
    .select("id")
    .where("site_id", "=", siteId)
    .where(
      "frame_id",
      "in",
      frames.map((frame) => frame.id),
    )
    .where("status", "=", "publish")
    .orderBy("id")
    .execute();
  return { status: "planned", total: frames.length, frames, pages: pages.map((page) => page.id) };
}

// Going (effects in one module): callers move to publish/planned.ts, which takes the site's index.
import type { Change } from "../write/change.ts";
import type { Db } from "../store/database.ts";
import { nothingPlanned, plannedRebake as planned, type PlannedRebake } from "../publish/planned.ts";
import { siteIndex } from "./graph.ts";

export { nothingPlanned, type PlannedRebake };

export async function plannedRebake(db: Db, siteId: number, change: Change): Promise<PlannedRebake> {
  return planned(db, siteId, await siteIndex(db, siteId), change);
}

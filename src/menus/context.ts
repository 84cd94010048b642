// What menu services need besides plain values: the database, the clock, the public port (item
// addresses are absolute) and the publish step.
import type { AppDeps } from "../app-deps.ts";
import type { Clock } from "../clock.ts";
import type { Change, Rebaked } from "../publish/changes.ts";
import type { Db } from "../store/database.ts";

export interface MenusContext {
  db: Db;
  clock: Clock;
  publicPort: number;
  /** Hands committed changes to the publish step; answers the `rebaked` report. */
  announce(siteId: number, changes: Change[]): Promise<Rebaked>;
}

export function menusContext(deps: AppDeps): MenusContext {
  return {
    db: deps.store.db,
    clock: deps.clock,
    publicPort: deps.config.port,
    // Read at call time, so the publishing engine (or a test's recorder) can replace it.
    announce: (siteId, changes) => deps.publisher.changed(siteId, changes),
  };
}

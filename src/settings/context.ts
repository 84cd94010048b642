// What the content services (settings, languages, pages, data) need besides plain values:
// the database, the clock, the public port (for addresses) and the publish step.
import type { AppDeps } from "../app-deps.ts";
import type { Clock } from "../clock.ts";
import type { Change, Rebaked } from "../publish/changes.ts";
import type { Db } from "../store/database.ts";

export interface ContentContext {
  db: Db;
  clock: Clock;
  /** Port the public site is served on; part of every address. */
  publicPort: number;
  /** Hands committed changes to the publish step; answers the `rebaked` report. */
  announce(siteId: number, changes: Change[]): Promise<Rebaked>;
}

export function contentContext(deps: AppDeps): ContentContext {
  return {
    db: deps.store.db,
    clock: deps.clock,
    publicPort: deps.config.port,
    // Read at call time, so the publishing engine (or a test's recorder) can replace it.
    announce: (siteId, changes) => deps.publisher.changed(siteId, changes),
  };
}

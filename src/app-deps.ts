// What the app is built from. main.ts makes the real ones; tests make their own
// (a temporary database, raised limits, a stalled renderer, …).
import type { Clock } from "./clock.ts";
import type { Config } from "./config.ts";
import type { Limits } from "./http/limits.ts";
import type { Store } from "./store/database.ts";
import type { NetworkContext } from "./network/context.ts";
import type { Change, Publisher, Rebaked } from "./publish/changes.ts";
import type { Db } from "./store/database.ts";
import type { PublicSite } from "./public/public-site.ts";

export interface AppDeps {
  config: Config;
  store: Store;
  clock: Clock;
  limits: Limits;
  /** Rebakes and flushes what a committed write affects. */
  publisher: Publisher;
  /** Answers public page requests (static copies, cached and on-request renders). */
  publicSite: PublicSite;
}

export function networkContext(deps: AppDeps): NetworkContext {
  return { db: deps.store.db, clock: deps.clock, publicPort: deps.config.port };
}

/** What capability services need besides plain values: the database, the clock, the public
 * port (addresses are absolute) and the publish step. */
export interface ServiceContext {
  db: Db;
  clock: Clock;
  /** Port the public site is served on; part of every address. */
  publicPort: number;
  /** Hands committed changes to the publish step; answers the `rebaked` report. */
  announce(siteId: number, changes: Change[]): Promise<Rebaked>;
}

export function serviceContext(deps: AppDeps): ServiceContext {
  return {
    db: deps.store.db,
    clock: deps.clock,
    publicPort: deps.config.port,
    // Read at call time, so the publishing engine (or a test's recorder) can replace it.
    announce: (siteId, changes) => deps.publisher.changed(siteId, changes),
  };
}

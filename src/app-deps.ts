// What the app is built from. main.ts makes the real ones; tests make their own
// (a temporary database, raised limits, a stalled renderer, …).
import type { Clock } from "./clock.ts";
import type { Config } from "./config.ts";
import type { Limits } from "./http/limits.ts";
import type { Store } from "./store/database.ts";
import type { NetworkContext } from "./network/context.ts";
import type { Publisher } from "./publish/changes.ts";
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

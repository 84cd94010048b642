// What the app is built from: the store, the engine and the public site over its caches. server.ts
// makes the real ones; tests make their own (a temporary database, raised limits, a stalled
// renderer, a recording publisher, …).
import { CpuPermits } from "./cpu-permits.ts";
import type { Clock } from "./clock.ts";
import type { Config } from "./config.ts";
import type { Limits } from "./http/limits.ts";
import type { BlobStore } from "./blobs/blob-store.ts";
import type { Db, Store } from "./store/database.ts";
import type { Publisher, ServiceContext } from "./write/context.ts";
import { createPublishing, type PublishingOptions } from "./publish/setup.ts";
import type { PublishingEngine } from "./publish/engine.ts";
import { PublicSite } from "./public/public-site.ts";
import { ADMIN_ADDRESS } from "./admin/paths.ts";

export type { PublishingOptions } from "./publish/setup.ts";

export interface AppDeps {
  config: Config;
  store: Store;
  clock: Clock;
  limits: Limits;
  /** Rebakes and flushes what a committed write affects. */
  publisher: Publisher;
  /** Answers public page requests (static copies, cached and on-request renders). */
  publicSite: PublicSite;
  /** Where media bytes are kept (file system or S3-compatible); closed on shutdown. */
  blobs: BlobStore;
  /** The cores for work off the service's thread, which image variants share with renders (absent: their own). */
  cpu?: CpuPermits;
}

/** The one context of every service. The publisher is read at call time, so a test can replace it. */
export function serviceContext(deps: AppDeps): ServiceContext {
  return {
    db: deps.store.db,
    clock: deps.clock,
    publicFront: deps.config,
    adminHost: deps.config.adminHost,
    get publisher() {
      return deps.publisher;
    },
  };
}

export interface Publishing {
  engine: PublishingEngine;
  publicSite: PublicSite;
  /** The cores for work off the service's thread: the render workers' and the variants' (cpu-permits.ts). */
  cpu: CpuPermits;
}

/** What publishing needs of the configuration: how addresses are printed, and the admin's host and address. */
export type PublishingConfig = Pick<Config, "publicScheme" | "port" | "adminHost" | "adminUrl">;

/**
 * The engine over the features' sources, and the public site over the engine's caches. Renders
 * and image variants share `renderWorkers` permits (default 1): cores − 1 in the service. The
 * admin's host is no site's, and `/admin/` of a site without a page there sends to the admin
 * (docs/admin.md).
 */
export function wirePublishing(
  db: Db,
  clock: Clock,
  config: PublishingConfig,
  options: PublishingOptions = {},
): Publishing {
  const cpu = options.permits ?? new CpuPermits(options.renderWorkers ?? 1);
  const { engine, pages, directory } = createPublishing(db, clock, config, {
    ...options,
    permits: cpu,
    reservedHosts: [config.adminHost],
  });
  const fresh = options.invalidation?.fresh?.bind(options.invalidation);
  const elsewhere = new Map([[ADMIN_ADDRESS, config.adminUrl]]);
  return { engine, publicSite: new PublicSite(db, pages, directory, engine, fresh, config, elsewhere), cpu };
}

// Builds the publishing parts that share state: the page cache, the host directory, the
// compiled-frame cache and the engine. The page cache and the host directory are handed to the
// invalidation (invalidation.ts), which tells their flushes to the other processes on the same
// PostgreSQL database and applies theirs.
import type { PublicFront } from "../config.ts";
import type { Clock } from "../clock.ts";
import type { Db } from "../store/database.ts";
import { CompiledCache } from "./compiled-cache.ts";
import { PublishingEngine } from "./engine.ts";
import { DEFAULT_RENDER_TIMEOUT_MS, inProcessExecutor, type Executor } from "./executor.ts";
import { PageCache } from "./page-cache.ts";
import type { CpuPermits } from "../cpu-permits.ts";
import { RenderPool } from "./render-pool.ts";
import { singleProcess, type Invalidation } from "./invalidation.ts";
import { SiteDirectory } from "./site-directory.ts";

export interface PublishingOptions {
  executor?: Executor;
  timeoutMs?: number;
  cacheBytes?: number;
  /** Cross-process invalidation; default: a single process (nothing to tell). */
  invalidation?: Invalidation;
  /** Render worker threads (render-pool.ts); default 1. */
  renderWorkers?: number;
  /** The process's cores for work off its thread, shared with image variants (cpu-permits.ts). */
  permits?: CpuPermits;
  /** Hosts that are no site's (the admin's: site-directory.ts). */
  reservedHosts?: readonly string[];
}

export interface Publishing {
  engine: PublishingEngine;
  /** Rendered public pages in memory. */
  pages: PageCache;
  /** Host → site of the public site. */
  directory: SiteDirectory;
}

export function createPublishing(
  db: Db,
  clock: Clock,
  front: PublicFront,
  options: PublishingOptions = {},
): Publishing {
  const pages = new PageCache(options.cacheBytes);
  const directory = new SiteDirectory(db, new Set(options.reservedHosts));
  (options.invalidation ?? singleProcess).attach(pages, directory);
  const engine = new PublishingEngine({
    db,
    clock,
    front,
    pages,
    directory,
    compiled: new CompiledCache(),
    executor: options.executor ?? inProcessExecutor,
    pool: new RenderPool(options.renderWorkers, undefined, options.permits),
    timeoutMs: options.timeoutMs ?? DEFAULT_RENDER_TIMEOUT_MS,
  });
  return { engine, pages, directory };
}

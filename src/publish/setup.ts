// Builds the publishing parts that share state: the page cache, the compiled-frame cache, the
// engine (Publisher and on-request renderer) and the public site. The page cache and the host
// directory are handed to the invalidation (invalidation.ts), which tells their flushes to the
// other processes on the same PostgreSQL database and applies theirs.
import type { Clock } from "../clock.ts";
import { ServiceError } from "../errors.ts";
import { resolveSource } from "../data/sources.ts";
import { PublicSite } from "../public/public-site.ts";
import { SiteDirectory } from "../public/site-directory.ts";
import type { Db } from "../store/database.ts";
import { CompiledCache } from "./compiled-cache.ts";
import { PublishingEngine } from "./engine.ts";
import { DEFAULT_RENDER_TIMEOUT_MS, inProcessExecutor, type Executor } from "./executor.ts";
import { PageCache } from "./page-cache.ts";
import { singleProcess, type Invalidation } from "./invalidation.ts";
import type { SourceLoader } from "./render-job.ts";

export interface PublishingOptions {
  executor?: Executor;
  timeoutMs?: number;
  cacheBytes?: number;
  /** Cross-process invalidation; default: a single process (nothing to tell). */
  invalidation?: Invalidation;
}

export interface Publishing {
  engine: PublishingEngine;
  publicSite: PublicSite;
}

/** Data sources through the content model's one resolver; a missing data set prints nothing. */
export function contentSources(port: number): SourceLoader {
  return async (db, site, source, { lang, pageId }) => {
    const name = source.startsWith("data.") ? source.slice("data.".length) : source;
    try {
      const answer = await resolveSource({ db, publicPort: port }, site, { source: name, lang: lang ?? undefined, page: pageId });
      return answer.items;
    } catch (error) {
      if (error instanceof ServiceError) return error.code === "dataset_not_found" ? [] : undefined;
      throw error;
    }
  };
}

export function createPublishing(db: Db, clock: Clock, port: number, options: PublishingOptions = {}): Publishing {
  const pages = new PageCache(options.cacheBytes);
  const directory = new SiteDirectory(db);
  (options.invalidation ?? singleProcess).attach(pages, directory);
  const engine = new PublishingEngine({
    db,
    clock,
    port,
    pages,
    compiled: new CompiledCache(),
    executor: options.executor ?? inProcessExecutor,
    timeoutMs: options.timeoutMs ?? DEFAULT_RENDER_TIMEOUT_MS,
    sources: contentSources(port),
  });
  return { engine, publicSite: new PublicSite(db, pages, directory, engine) };
}

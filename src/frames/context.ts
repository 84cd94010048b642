// What frame services need: the database, the clock, the publish step and the public page cache.
import type { Clock } from "../clock.ts";
import type { Publisher } from "../publish/changes.ts";
import type { PageCache } from "../publish/page-cache.ts";
import type { Db } from "../store/database.ts";

export interface FramesContext {
  db: Db;
  clock: Clock;
  publisher: Publisher;
  /** Rendered public pages in memory; a write with `bake: false` flushes the pages it affects here. */
  pageCache: PageCache;
  publicPort: number;
}

// Freshness across processes (docs/deploy.md): on PostgreSQL every process that flushes a site's
// cached pages bumps that site's mark (scope 0: every site and the host directory) before telling
// the others; a process checks the marks before it answers a public page from memory, so a page is
// never served from a cache that a committed write has made stale, even before its NOTIFY arrives.
// SQLite serves one process: nothing to create there.
import type { Build } from "./build.ts";

export const up: Build = async (db, dialect) => {
  if (dialect !== "postgres") return;
  await db.schema
    .createTable("invalidation_marks")
    .addColumn("scope", "integer", (c) => c.primaryKey())
    .addColumn("mark", "bigint", (c) => c.notNull())
    .execute();
};

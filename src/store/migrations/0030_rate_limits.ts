// The shared rate-limit counters (docs/deploy.md): on PostgreSQL several service processes count
// requests and failed authentications in one table, rate-limiter-flexible's RateLimiterPostgres
// layout (key, points, expire in epoch ms). Made here rather than by the library at start, so
// concurrent first starts never race to create it and the schema is versioned like the rest.
// SQLite serves one process and keeps its counters in memory: nothing to create there.
import type { Build } from "./build.ts";

export const RATE_LIMITS_TABLE = "rate_limits";

export const up: Build = async (db, dialect) => {
  if (dialect !== "postgres") return;
  await db.schema
    .createTable(RATE_LIMITS_TABLE)
    .addColumn("key", "varchar(255)", (c) => c.primaryKey())
    .addColumn("points", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("expire", "bigint")
    .execute();
  await db.schema.createIndex("rate_limits_expire").on(RATE_LIMITS_TABLE).column("expire").execute();
};

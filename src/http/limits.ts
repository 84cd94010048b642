// The two limits of the spec: failed authentications per address (lockout) and requests
// per caller, each a fixed one-minute window held by rate-limiter-flexible. The memory store
// serves one process (SQLite); on PostgreSQL the counters live in the database (table
// `rate_limits`, made by migration 0030), so every process behind a load balancer counts
// against the same windows (CONTRACT §1).
// The package's index loads every store it has (38 modules); only the files used are imported
// (types in rate-limiter-flexible.d.ts).
import RateLimiterMemory from "rate-limiter-flexible/lib/RateLimiterMemory.js";
import RateLimiterPostgres from "rate-limiter-flexible/lib/RateLimiterPostgres.js";
import RateLimiterRes from "rate-limiter-flexible/lib/RateLimiterRes.js";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import type pg from "pg";
import type { Store } from "../store/database.ts";
import { RATE_LIMITS_TABLE } from "../store/migrations/0030_rate_limits.ts";

export interface RequestAllowance {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets (at least 1). */
  resetSeconds: number;
}

export interface Lockout {
  locked: boolean;
  retryAfterSeconds: number;
}

export interface Limits {
  readonly requestsPerMinute: number;
  lockoutOf(address: string): Promise<Lockout>;
  recordAuthFailure(address: string): Promise<void>;
  consumeRequest(callerKey: string): Promise<RequestAllowance>;
}

const WINDOW_SECONDS = 60;

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

export class FlexibleLimits implements Limits {
  constructor(
    private readonly requests: RateLimiterAbstract,
    private readonly failures: RateLimiterAbstract,
    readonly requestsPerMinute: number,
    private readonly failuresPerMinute: number,
  ) {}

  async lockoutOf(address: string): Promise<Lockout> {
    const res = await this.failures.get(address);
    // A window that has run out may linger until its timer fires: a non-positive
    // msBeforeNext means it is over.
    if (!res || res.msBeforeNext <= 0 || res.consumedPoints < this.failuresPerMinute) return { locked: false, retryAfterSeconds: 0 };
    return { locked: true, retryAfterSeconds: seconds(res.msBeforeNext) };
  }

  async recordAuthFailure(address: string): Promise<void> {
    await this.failures.penalty(address, 1);
  }

  async consumeRequest(callerKey: string): Promise<RequestAllowance> {
    try {
      const res = await this.requests.consume(callerKey, 1);
      return { allowed: true, limit: this.requestsPerMinute, remaining: res.remainingPoints, resetSeconds: seconds(res.msBeforeNext) };
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      return { allowed: false, limit: this.requestsPerMinute, remaining: 0, resetSeconds: seconds(rejection.msBeforeNext) };
    }
  }
}

export function memoryLimits(requestsPerMinute: number, failuresPerMinute: number): Limits {
  return new FlexibleLimits(
    new RateLimiterMemory({ points: requestsPerMinute, duration: WINDOW_SECONDS, keyPrefix: "req" }),
    new RateLimiterMemory({ points: failuresPerMinute, duration: WINDOW_SECONDS, keyPrefix: "authfail" }),
    requestsPerMinute,
    failuresPerMinute,
  );
}

/**
 * Limits shared by every process on one PostgreSQL database: one row per key in `rate_limits`,
 * updated with a single upsert per request (the window and the count move together, so two
 * processes never both take the last point). Uses the store's pool; the table is made by a
 * migration, so nothing is created here.
 */
export function postgresLimits(pool: pg.Pool, requestsPerMinute: number, failuresPerMinute: number): Limits {
  const common = { storeClient: pool, storeType: "pool", tableName: RATE_LIMITS_TABLE, tableCreated: true, duration: WINDOW_SECONDS, clearExpiredByTimeout: true };
  return new FlexibleLimits(
    new RateLimiterPostgres({ ...common, points: requestsPerMinute, keyPrefix: "req" }),
    new RateLimiterPostgres({ ...common, points: failuresPerMinute, keyPrefix: "authfail" }),
    requestsPerMinute,
    failuresPerMinute,
  );
}

/** The limits a store calls for: in the database on PostgreSQL, in memory on SQLite. */
export function limitsFor(store: Pick<Store, "postgres">, requestsPerMinute: number, failuresPerMinute: number): Limits {
  return store.postgres
    ? postgresLimits(store.postgres.pool, requestsPerMinute, failuresPerMinute)
    : memoryLimits(requestsPerMinute, failuresPerMinute);
}

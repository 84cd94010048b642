// The request limits (docs/security.md, "Limits at a glance"), each a fixed window: failed authentications
// per address (lockout, a minute), failed password sign-ins per login from any address (15
// minutes), API requests per caller (a user, whichever of its tokens it sends, or an
// address without a valid token; a minute), and public-site requests per client address, counted
// apart (key prefix `pub`; a minute), and submissions per client address and form (key prefix
// `form`; five a minute, docs/forms.md "Submitting"). An address is counted as its client
// (`addressGroup`: IPv6 by its /64). The memory store serves one process (SQLite); on PostgreSQL the counters
// live in the database (table `rate_limits`, made by migration 0030), so every process behind a
// load balancer counts against the same windows.
// The package's index loads every store it has (38 modules); only the files used are imported
// (types in rate-limiter-flexible.d.ts).
import RateLimiterMemory from "rate-limiter-flexible/lib/RateLimiterMemory.js";
import RateLimiterPostgres from "rate-limiter-flexible/lib/RateLimiterPostgres.js";
import RateLimiterRes from "rate-limiter-flexible/lib/RateLimiterRes.js";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import { hash } from "node:crypto";
import type pg from "pg";
import type { Config } from "../config.ts";
import type { Store } from "../store/database.ts";
import { RATE_LIMITS_TABLE } from "../store/migrations/0030_rate_limits.ts";
import { addressGroup } from "./address-group.ts";
import { thenOf } from "../store/kept-reads.ts";

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

/** One request counted in its window (the API's, per caller; the public site's, per address). */
export interface PublicAllowance {
  allowed: boolean;
  /** Requests left in the window (0 once over). */
  remaining: number;
  /** Whole seconds until the window resets (at least 1). */
  retryAfterSeconds: number;
}

export interface Limits {
  readonly requestsPerMinute: number;
  readonly publicRequestsPerMinute: number;
  /** Whether an address (its client, `addressGroup`) is locked by failed authentications. */
  lockoutOf(address: string): Promise<Lockout>;
  /**
   * Counts a password sign-in for a login, from any address, before its password is checked:
   * locked when the login has spent its failures in the window. Taken first, in one atomic step,
   * so a burst of guesses sent at once cannot all pass a check made before any of them failed.
   */
  takeSignIn(login: string): Promise<Lockout>;
  /** Gives back the sign-in `takeSignIn` counted, when it did not fail: only failures count. */
  giveBackSignIn(login: string): Promise<void>;
  /** One failed authentication from an address (a bad token, a failed sign-in). */
  recordAuthFailure(address: string): Promise<void>;
  /** Counts one API call of a caller's key; in memory it answers at once, not a promise. */
  consumeRequest(callerKey: string): RequestAllowance | Promise<RequestAllowance>;
  /**
   * Counts one public-site request of a client address. In memory it answers at once, not a
   * promise, so the server's raw listener answers a page held in memory without waiting a turn;
   * on PostgreSQL it is one upsert, like `consumeRequest`.
   */
  consumePublic(address: string): PublicAllowance | Promise<PublicAllowance>;
  /**
   * Counts one submission of a form (`form`: the site's id and the form's name) from a client
   * address: FORM_SUBMISSIONS_PER_MINUTE in a window, in every process alike on PostgreSQL.
   */
  consumeFormSubmission(address: string, form: string): PublicAllowance | Promise<PublicAllowance>;
}

/** The submissions a client address may send to one form in a minute (docs/forms.md). */
export const FORM_SUBMISSIONS_PER_MINUTE = 5;

/** The numbers of the four limits (config.ts reads them from the environment). */
export type LimitSettings = Pick<
  Config,
  "rateLimitPerMin" | "authFailuresPerMin" | "authFailuresPerLogin" | "publicRateLimitPerMin"
>;

const WINDOW_SECONDS = 60;
/** The window of a login's failed sign-ins: long enough that guessing from many addresses is slow. */
export const LOGIN_WINDOW_SECONDS = 15 * 60;

/**
 * The key of a login's failures: a digest, so a key has one length whatever a caller sends as a
 * login (the body may carry megabytes) and the table does not list the logins tried. Every string
 * is counted alike, a login that exists or not, so a refusal tells nothing of which exist.
 */
function loginKey(login: string): string {
  return hash("sha256", login, "hex").slice(0, 32);
}

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/**
 * A limit in memory (the API's per caller, the public site's per address): a fixed window per
 * key, counted synchronously (a Map lookup and an increment), so a call or a page held in memory
 * waits no turn for it. Windows that are over are swept once a window, so the map holds only the
 * keys seen in the last two windows.
 */
export class MemoryWindows {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private nextSweep = 0;
  private readonly windowMs: number;

  constructor(
    readonly points: number,
    windowSeconds = WINDOW_SECONDS,
  ) {
    this.windowMs = windowSeconds * 1000;
  }

  take(key: string): PublicAllowance {
    const now = Date.now();
    if (now >= this.nextSweep) this.sweep(now);
    let window = this.windows.get(key);
    if (window === undefined || window.resetAt <= now) {
      window = { count: 0, resetAt: now + this.windowMs };
      this.windows.set(key, window);
    }
    window.count++;
    return {
      allowed: window.count <= this.points,
      remaining: Math.max(0, this.points - window.count),
      retryAfterSeconds: seconds(window.resetAt - now),
    };
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    this.nextSweep = now + this.windowMs;
  }
}

/** A limit on PostgreSQL: a rate-limiter-flexible store (one upsert per request). */
export class StoredWindows {
  constructor(private readonly limiter: RateLimiterAbstract) {}

  async take(key: string): Promise<PublicAllowance> {
    try {
      const res = await this.limiter.consume(key, 1);
      return { allowed: true, remaining: res.remainingPoints, retryAfterSeconds: seconds(res.msBeforeNext) };
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      return { allowed: false, remaining: 0, retryAfterSeconds: seconds(rejection.msBeforeNext) };
    }
  }
}

export class FlexibleLimits implements Limits {
  constructor(
    private readonly requests: MemoryWindows | StoredWindows,
    private readonly failures: RateLimiterAbstract,
    private readonly publicWindows: MemoryWindows | StoredWindows,
    private readonly settings: LimitSettings,
    /** Failed password sign-ins per login, in windows of LOGIN_WINDOW_SECONDS. */
    private readonly loginFailures: RateLimiterAbstract,
    /** Submissions per client address and form (in memory unless given). */
    private readonly formWindows: MemoryWindows | StoredWindows = new MemoryWindows(FORM_SUBMISSIONS_PER_MINUTE),
  ) {}

  get requestsPerMinute(): number {
    return this.settings.rateLimitPerMin;
  }

  get publicRequestsPerMinute(): number {
    return this.settings.publicRateLimitPerMin;
  }

  async lockoutOf(address: string): Promise<Lockout> {
    const res = await this.failures.get(addressGroup(address));
    // A window that has run out may linger until its timer fires: a non-positive
    // msBeforeNext means it is over.
    if (!res || res.msBeforeNext <= 0 || res.consumedPoints < this.settings.authFailuresPerMin)
      return { locked: false, retryAfterSeconds: 0 };
    return { locked: true, retryAfterSeconds: seconds(res.msBeforeNext) };
  }

  async takeSignIn(login: string): Promise<Lockout> {
    try {
      await this.loginFailures.consume(loginKey(login), 1);
      return { locked: false, retryAfterSeconds: 0 };
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      return { locked: true, retryAfterSeconds: seconds(rejection.msBeforeNext) };
    }
  }

  async giveBackSignIn(login: string): Promise<void> {
    await this.loginFailures.reward(loginKey(login), 1);
  }

  async recordAuthFailure(address: string): Promise<void> {
    await this.failures.penalty(addressGroup(address), 1);
  }

  consumeRequest(callerKey: string): RequestAllowance | Promise<RequestAllowance> {
    return thenOf(this.requests.take(callerKey), (taken) => this.allowance(taken));
  }

  private allowance(taken: PublicAllowance): RequestAllowance {
    return {
      allowed: taken.allowed,
      limit: this.requestsPerMinute,
      remaining: taken.remaining,
      resetSeconds: taken.retryAfterSeconds,
    };
  }

  consumePublic(address: string): PublicAllowance | Promise<PublicAllowance> {
    return this.publicWindows.take(addressGroup(address));
  }

  consumeFormSubmission(address: string, form: string): PublicAllowance | Promise<PublicAllowance> {
    return this.formWindows.take(`${addressGroup(address)}|${form}`);
  }
}

export function memoryLimits(settings: LimitSettings): Limits {
  return new FlexibleLimits(
    new MemoryWindows(settings.rateLimitPerMin),
    new RateLimiterMemory({ points: settings.authFailuresPerMin, duration: WINDOW_SECONDS, keyPrefix: "authfail" }),
    new MemoryWindows(settings.publicRateLimitPerMin),
    settings,
    new RateLimiterMemory({
      points: settings.authFailuresPerLogin,
      duration: LOGIN_WINDOW_SECONDS,
      keyPrefix: "authlogin",
    }),
    new MemoryWindows(FORM_SUBMISSIONS_PER_MINUTE),
  );
}

/**
 * Limits shared by every process on one PostgreSQL database: one row per key in `rate_limits`,
 * updated with a single upsert per request (the window and the count move together, so two
 * processes never both take the last point). Uses the store's pool; the table is made by a
 * migration, so nothing is created here.
 *
 * The public limit pays that one upsert per public request, as the API limit does per call, and
 * no more: once the database says an address is over, this process refuses it from memory until
 * its window ends (`inMemoryBlockOnConsumed`), so a flood costs no further round trips. While the
 * database does not answer, the window is counted in this process's memory instead
 * (`insuranceLimiter`), so pages held in memory are still served (docs/deploy.md).
 */
export function postgresLimits(pool: pg.Pool, settings: LimitSettings): Limits {
  const common = {
    storeClient: pool,
    storeType: "pool",
    tableName: RATE_LIMITS_TABLE,
    tableCreated: true,
    duration: WINDOW_SECONDS,
  };
  const publicPoints = settings.publicRateLimitPerMin;
  return new FlexibleLimits(
    new StoredWindows(
      new RateLimiterPostgres({
        ...common,
        clearExpiredByTimeout: true,
        points: settings.rateLimitPerMin,
        keyPrefix: "req",
      }),
    ),
    new RateLimiterPostgres({
      ...common,
      clearExpiredByTimeout: true,
      points: settings.authFailuresPerMin,
      keyPrefix: "authfail",
    }),
    new StoredWindows(
      new RateLimiterPostgres({
        ...common,
        // The two above clear the whole table's old rows already.
        clearExpiredByTimeout: false,
        points: publicPoints,
        keyPrefix: "pub",
        inMemoryBlockOnConsumed: publicPoints + 1,
        insuranceLimiter: new RateLimiterMemory({ points: publicPoints, duration: WINDOW_SECONDS, keyPrefix: "pub" }),
      }),
    ),
    settings,
    new RateLimiterPostgres({
      ...common,
      clearExpiredByTimeout: false,
      duration: LOGIN_WINDOW_SECONDS,
      points: settings.authFailuresPerLogin,
      keyPrefix: "authlogin",
    }),
    new StoredWindows(
      new RateLimiterPostgres({
        ...common,
        clearExpiredByTimeout: false,
        points: FORM_SUBMISSIONS_PER_MINUTE,
        keyPrefix: "form",
      }),
    ),
  );
}

/** The limits a store calls for: in the database on PostgreSQL, in memory on SQLite. */
export function limitsFor(store: Pick<Store, "postgres">, settings: LimitSettings): Limits {
  return store.postgres ? postgresLimits(store.postgres.pool, settings) : memoryLimits(settings);
}

// The two limits of the spec: failed authentications per address (lockout) and requests
// per caller, each a fixed one-minute window held by rate-limiter-flexible. The memory store
// serves one process; issue 7 swaps in its PostgreSQL store behind the same interface.
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";

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

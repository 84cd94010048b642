// Pacing and retry of the typed client, as openapi-fetch middleware (docs/client.md, "Pacing"):
// - at most `maxInFlight` calls (4) on the wire at once: a call takes a slot in `onRequest` and
//   gives it back when its answer (after any retries) or its failure comes;
// - the rate-limit headers of every answer are read, and calls slow down before the window runs
//   out (pace.ts holds the rules, as pure functions);
// - a 429 is waited out (its Retry-After, in seconds, told through `onWait`) and the same request
//   sent again, body included; a 503 database_unavailable is retried a few times with backoff;
//   no other answer is retried, and a failed connection is not either.
//
// A request body is kept for a retry with `Request.clone()` before the first send (a stream body
// is teed, so the copy fills as the original is sent) and read whole only when a retry is needed;
// the retry is a new Request with the URL, method and headers of the one that was sent.
import type { Middleware } from "openapi-fetch";
import {
  announceWait,
  block,
  decide,
  defaultSpreadBelow,
  INITIAL_PACE,
  observe,
  readRateHeaders,
  retryAfterSeconds,
  unavailableDelayMs,
  type PaceState,
} from "./pace.ts";

export type WaitReason = "rate limit" | "database unavailable";

export interface Wait {
  /** Whole seconds the client waits before sending again. */
  seconds: number;
  reason: WaitReason;
}

export interface PacingOptions {
  /** Calls on the wire at once (default 4). */
  maxInFlight?: number;
  /** Told of every wait of a second or more, once per wait (e.g. to print `waiting 23 s: rate limit`). */
  onWait?: (wait: Wait) => void;
  /** Retries of one call answered 429 (default 20); then the 429 is the answer. */
  rateLimitRetries?: number;
  /** Retries of one call answered 503 database_unavailable (default 3); then the 503 is the answer. */
  unavailableRetries?: number;
  /** The first wait before retrying a 503 without Retry-After, doubled each time (default 1000 ms). */
  backoffMs?: number;
  /** Spread calls out once this few are left in the window (default: max(maxInFlight, limit / 10)). */
  spreadBelow?: number;
  /** The clock (ms), for tests. */
  now?: () => number;
  /** Sleeps `ms`, for tests; rejects when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface Pacing {
  /** The middleware; one Pacing may serve several clients (they then share slots and windows). */
  readonly middleware: Middleware;
  /** Calls holding a slot now. */
  inFlight(): number;
  /** The pacing state now (for tests and progress displays). */
  state(): PaceState;
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

export function realSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener("abort", aborted);
      resolve();
    }
    function aborted() {
      clearTimeout(timer);
      reject(abortError(signal!));
    }
    signal?.addEventListener("abort", aborted, { once: true });
  });
}

/** A counting semaphore handing slots out first come, first served. */
class Slots {
  private used = 0;
  private readonly queue: Array<() => void> = [];
  private readonly size: number;

  // (No parameter properties: Node's type stripping runs this file as it is.)
  constructor(size: number) {
    this.size = size;
  }

  get inUse(): number {
    return this.used;
  }

  async acquire(signal?: AbortSignal): Promise<void> {
    if (this.used < this.size && this.queue.length === 0) {
      this.used++;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const take = () => {
        signal?.removeEventListener("abort", aborted);
        resolve();
      };
      const aborted = () => {
        const at = this.queue.indexOf(take);
        if (at !== -1) this.queue.splice(at, 1);
        reject(abortError(signal!));
      };
      if (signal?.aborted) return aborted();
      signal?.addEventListener("abort", aborted, { once: true });
      this.queue.push(take);
    });
  }

  release(): void {
    const next = this.queue.shift();
    if (next)
      next(); // the slot passes to the next caller
    else this.used = Math.max(0, this.used - 1);
  }
}

interface Pending {
  /** An unsent copy of the request's body, for a retry; null without a body. */
  spare: Request | null;
}

/** The error code of a JSON error answer in either envelope, without consuming it. */
async function errorCode(response: Response): Promise<string | null> {
  try {
    const body = (await response.clone().json()) as Record<string, unknown> | null;
    const code = body?.error ?? body?.code;
    return typeof code === "string" ? code : null;
  } catch {
    return null;
  }
}

async function discard(response: Response): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // already consumed or errored: nothing to free
  }
}

export function createPacing(options: PacingOptions = {}): Pacing {
  const maxInFlight = Math.max(1, Math.floor(options.maxInFlight ?? 4));
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const rateLimitRetries = options.rateLimitRetries ?? 20;
  const unavailableRetries = options.unavailableRetries ?? 3;
  const backoffMs = options.backoffMs ?? 1000;
  const slots = new Slots(maxInFlight);
  const pending = new Map<string, Pending>();
  let state: PaceState = INITIAL_PACE;

  /** Waits until the pacing lets one call go, and counts it. */
  async function turn(signal: AbortSignal | undefined): Promise<void> {
    for (;;) {
      const rules = { spreadBelow: options.spreadBelow ?? defaultSpreadBelow(state.limit, maxInFlight) };
      const decision = decide(state, now(), rules);
      state = decision.state;
      if (decision.send) return;
      if (decision.announce) options.onWait?.(decision.announce);
      await sleep(decision.waitMs, signal);
    }
  }

  function observed(response: Response, counted: boolean): void {
    const at = now();
    state = observe(state, readRateHeaders(response.headers, at), at, pending.size - (counted ? 1 : 0));
  }

  /** A fresh copy of the request that was sent, for a retry. */
  async function again(request: Request, entry: Pending): Promise<Request> {
    const body = entry.spare ? await entry.spare.clone().arrayBuffer() : null;
    return new Request(request.url, {
      method: request.method,
      headers: request.headers,
      body,
      signal: request.signal,
      redirect: request.redirect,
    });
  }

  const middleware: Middleware = {
    async onRequest({ request, id }) {
      await slots.acquire(request.signal);
      try {
        await turn(request.signal);
      } catch (error) {
        slots.release();
        throw error;
      }
      pending.set(id, { spare: request.body ? request.clone() : null });
      return undefined;
    },

    async onResponse({ request, response, options: client, id }) {
      const entry = pending.get(id);
      if (!entry) {
        // A call this middleware did not see leave (registered while it was on the wire).
        observed(response, false);
        return undefined;
      }
      let current = response;
      let limited = 0;
      let unavailable = 0;
      try {
        for (;;) {
          observed(current, true);
          const at = now();
          if (current.status === 429 && limited < rateLimitRetries) {
            limited++;
            const window = readRateHeaders(current.headers, at);
            const seconds = Math.max(
              1,
              retryAfterSeconds(current.headers, at) ?? (window ? Math.ceil((window.resetAt - at) / 1000) : 1),
            );
            state = block(state, at + seconds * 1000);
            const told = announceWait(state, at, at + seconds * 1000);
            state = told.state;
            if (told.seconds !== null) options.onWait?.({ seconds, reason: "rate limit" });
            await discard(current);
          } else if (
            current.status === 503 &&
            unavailable < unavailableRetries &&
            (await errorCode(current)) === "database_unavailable"
          ) {
            unavailable++;
            const ms = unavailableDelayMs(unavailable, retryAfterSeconds(current.headers, at), backoffMs);
            if (ms >= 1000) options.onWait?.({ seconds: Math.ceil(ms / 1000), reason: "database unavailable" });
            await discard(current);
            await sleep(ms, request.signal);
          } else {
            return current === response ? undefined : current;
          }
          await turn(request.signal);
          current = await client.fetch(await again(request, entry));
        }
      } finally {
        pending.delete(id);
        slots.release();
      }
    },

    onError({ id }) {
      if (pending.delete(id)) slots.release();
      return undefined;
    },
  };

  return { middleware, inFlight: () => slots.inUse, state: () => state };
}

// The timing rules of the client's pacing, as pure functions of a state and the time (no I/O, no
// timers): pacing.ts keeps one state per client, asks `decide` before every send, feeds every
// answer to `observe`, and sleeps what `decide` says. docs/client.md, "Pacing", tells the rules.
//
// The service counts API calls per user in fixed one-minute windows and says on every answer how
// many are left (X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset in seconds; the same
// in the draft's `RateLimit: "default";r=…;t=…` and `RateLimit-Policy: "default";q=…;w=…`). Past
// the limit it answers 429 with Retry-After (seconds). A database that does not answer gives
// 503 database_unavailable with Retry-After.

/** What one answer says of the caller's window, with times on the client's clock (ms). */
export interface RateWindow {
  limit: number | null;
  remaining: number;
  /** When the window ends: the answer's time plus its reset seconds. */
  resetAt: number;
}

export interface PaceState {
  /**
   * Calls believed left in the current window: the server's last `remaining`, less every call
   * sent since that was not counted in it; null when unknown (before the first answer, or once
   * the window has ended).
   */
  available: number | null;
  /** The end of the window `available` belongs to (ms). */
  resetAt: number;
  /** The window's size in calls, when an answer said it. */
  limit: number | null;
  /** Nothing is sent before this (a 429's Retry-After). */
  blockedUntil: number;
  /** When the last call was let through. */
  lastSendAt: number;
  /** The end of the last wait reported to the caller, so that waiters report one wait once. */
  announcedUntil: number;
}

export const INITIAL_PACE: PaceState = Object.freeze({
  available: null,
  resetAt: 0,
  limit: null,
  blockedUntil: 0,
  lastSendAt: Number.NEGATIVE_INFINITY,
  announcedUntil: 0,
});

export interface PaceRules {
  /**
   * Calls are spread out once `available` is at or below this: each waits its share of the time
   * left in the window, so the last call of a window goes near its end instead of a burst
   * hitting zero. Default: the larger of the in-flight limit and a tenth of the window's limit.
   */
  spreadBelow: number;
}

export type Decision =
  | { send: true; state: PaceState }
  | {
      send: false;
      /** How long to wait before asking again (ms, > 0). */
      waitMs: number;
      state: PaceState;
      /** Set when this wait is one to tell the user about (a new wait of a second or more). */
      announce?: { seconds: number; reason: "rate limit" };
    };

/** Whole, non-negative numbers only; anything else reads as absent. */
function count(value: string | null | undefined): number | null {
  if (value === null || value === undefined || !/^\s*\d+\s*$/.test(value)) return null;
  return Number(value);
}

/** `"default";r=5;t=30` → {r: "5", t: "30"} (the draft's structured field, first item). */
function draftParameters(value: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  if (!value) return out;
  for (const part of value.split(",")[0].split(";").slice(1)) {
    const [key, raw] = part.split("=");
    if (key && raw !== undefined) out[key.trim()] = raw.trim();
  }
  return out;
}

/** The window an answer describes, or null when it carries no rate-limit headers. */
export function readRateHeaders(headers: Headers, now: number): RateWindow | null {
  const draft = draftParameters(headers.get("ratelimit"));
  const policy = draftParameters(headers.get("ratelimit-policy"));
  const remaining = count(headers.get("x-ratelimit-remaining")) ?? count(draft.r);
  const reset = count(headers.get("x-ratelimit-reset")) ?? count(draft.t);
  if (remaining === null || reset === null) return null;
  const limit = count(headers.get("x-ratelimit-limit")) ?? count(policy.q);
  return { limit, remaining, resetAt: now + reset * 1000 };
}

/** Retry-After in seconds (the delay form; an HTTP date is read relative to `now`), or null. */
export function retryAfterSeconds(headers: Headers, now: number): number | null {
  const value = headers.get("retry-after");
  if (value === null) return null;
  const seconds = count(value);
  if (seconds !== null) return seconds;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

/** Two answers whose reset times differ by less than this are of the same window (resets are whole seconds). */
const SAME_WINDOW_MS = 1500;

/**
 * The state after an answer that arrived at `now` while `othersInFlight` other calls were on the
 * wire. The service may have counted any of those after this one (it counts a call when it
 * handles it, not when it was sent: calls overtake each other), so all are taken off its
 * `remaining`; the estimate is then never above what is really left. In one window, `available`
 * only goes down and the window's end is the earliest one told (each is rounded up to a whole
 * second, so the earliest is the closest).
 */
export function observe(state: PaceState, window: RateWindow | null, now: number, othersInFlight: number): PaceState {
  if (window === null) return state;
  const estimate = Math.max(0, window.remaining - Math.max(0, othersInFlight));
  const known = state.available !== null && now < state.resetAt;
  if (known && window.resetAt < state.resetAt - SAME_WINDOW_MS) return state; // a late answer of an older window
  const sameWindow = known && window.resetAt <= state.resetAt + SAME_WINDOW_MS;
  return {
    ...state,
    limit: window.limit ?? state.limit,
    available: sameWindow ? Math.min(state.available!, estimate) : estimate,
    resetAt: sameWindow ? Math.min(state.resetAt, window.resetAt) : window.resetAt,
  };
}

/**
 * The state after a 429 whose Retry-After ends at `until`: nothing more is sent before then, and
 * the window is taken to end then (the service's word over the client's estimate).
 */
export function block(state: PaceState, until: number): PaceState {
  const blockedUntil = Math.max(state.blockedUntil, until);
  return { ...state, blockedUntil, available: 0, resetAt: blockedUntil };
}

/** Whether a wait ending at `until` is one to report, and the state that remembers it. */
export function announceWait(
  state: PaceState,
  now: number,
  until: number,
): { state: PaceState; seconds: number | null } {
  const seconds = Math.ceil((until - now) / 1000);
  if (until - now < 1000 || until <= state.announcedUntil + 500) return { state, seconds: null };
  return { state: { ...state, announcedUntil: until }, seconds };
}

/** The spread threshold for a state: `rules.spreadBelow`, or the default for the window's limit. */
export function defaultSpreadBelow(limit: number | null, maxInFlight: number): number {
  return Math.max(maxInFlight, Math.ceil((limit ?? 0) / 10));
}

function wait(state: PaceState, now: number, until: number): Decision {
  const { state: next, seconds } = announceWait(state, now, until);
  return seconds === null
    ? { send: false, waitMs: Math.max(1, until - now), state: next }
    : { send: false, waitMs: Math.max(1, until - now), state: next, announce: { seconds, reason: "rate limit" } };
}

/**
 * May a call be sent at `now`? Either it may (the state counts it), or it waits `waitMs` and asks
 * again: while blocked by a 429, while the window is believed spent (until it ends), and, once
 * `available` is at or below `rules.spreadBelow`, until its share of the time left has passed
 * since the last call.
 */
export function decide(state: PaceState, now: number, rules: PaceRules): Decision {
  if (now < state.blockedUntil) return wait(state, now, state.blockedUntil);
  if (state.available === null || now >= state.resetAt) {
    return { send: true, state: { ...state, available: null, lastSendAt: now } };
  }
  if (state.available <= 0) return wait(state, now, state.resetAt);
  if (state.available > rules.spreadBelow) {
    return { send: true, state: { ...state, available: state.available - 1, lastSendAt: now } };
  }
  const share = (state.resetAt - now) / (state.available + 1);
  const at = state.lastSendAt + share;
  if (now >= at) return { send: true, state: { ...state, available: state.available - 1, lastSendAt: now } };
  return wait(state, now, Math.ceil(at));
}

/** The wait before retry `attempt` (1, 2, …) of a 503: Retry-After when given, else 1 s, 2 s, 4 s, … from `baseMs`. */
export function unavailableDelayMs(attempt: number, retryAfter: number | null, baseMs: number): number {
  if (retryAfter !== null) return retryAfter * 1000;
  return baseMs * 2 ** Math.max(0, attempt - 1);
}

// The one source of "now" for timestamps. Tests replace Date through node:test's mock timers,
// which also drives the rate limiter's windows, so every time window moves on one clock.
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

/** `YYYY-MM-DD HH:MM:SS` in GMT, the format of every `*_gmt` field of the API. */
export function gmt(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace("T", " ");
}

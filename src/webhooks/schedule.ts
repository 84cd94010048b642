// When a failed delivery is tried again (docs/webhooks.md, "Retries"): exponential backoff with
// jitter over about a day, the first retry within a minute, as Stripe, Svix and GitHub's
// redelivery users expect. Attempt n (1-based) that fails waits RETRY_DELAYS_MS[n - 1], plus or
// minus a fifth, before attempt n + 1; after the last one the delivery has failed for good.
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const RETRY_DELAYS_MS: readonly number[] = [
  5 * SECOND,
  1 * MINUTE,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  8 * HOUR,
  8 * HOUR,
];

/** Attempts in all: the first and one per retry. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** How long to wait after failed attempt `attempts` (1-based); null when it was the last. `random` in [0, 1). */
export function retryDelay(attempts: number, random: number = Math.random()): number | null {
  const base = RETRY_DELAYS_MS[attempts - 1];
  if (base === undefined) return null;
  return Math.round(base * (0.8 + 0.4 * random));
}

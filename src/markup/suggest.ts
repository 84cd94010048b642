// The closest of some names to a misspelled one (warning `unknown_insert`'s suggestion).

/** Edit distance (insert, delete, replace one character), up to `limit`; past it, limit + 1. */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      best = Math.min(best, current[j]!);
    }
    if (best > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The known name nearest `name` (a different namespace counts one edit: `op/image` → `svc/image`),
 * or null when none is within a third of its length (at least 2 edits).
 */
export function closestName(name: string, known: Iterable<string>): string | null {
  const bare = (n: string) => n.replace(/^(svc|op)\//, "");
  const limit = Math.max(2, Math.floor(bare(name).length / 3));
  let best: string | null = null;
  let bestDistance = limit + 1;
  for (const candidate of known) {
    const d = distance(bare(name), bare(candidate), limit) + (name.split("/")[0] === candidate.split("/")[0] ? 0 : 1);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= limit ? best : null;
}

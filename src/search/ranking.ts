// How a search's results are ordered, the same on both databases (docs/search.md, "Ranking"). A
// search never reads more than a bounded set of its matches, so its cost stops growing with the
// number of pages it matches: the newest RESULT_CAP matches (the database walks its index in page
// order and stops there), and the newest TITLE_CANDIDATES pages whose title holds every word, so
// a page titled with a common word is found first however old it is. Each candidate is ranked by
// where the words are — the title holding every word, the title holding some, the summary or
// tags holding some, the text only — then, of two titles holding the words, the shorter first
// (the words are more of it: "Tortoise" before "Tortoise hatchling"), then newest first. Ranking by word counts (BM25)
// is not used: FTS5's bm25 reads every match of each word to weigh it (bench/README.md, "Search").

/** Matches counted and ranked at most; past it, the answer says there are more. */
export const RESULT_CAP = 1_000;
/** Pages whose title holds every word, older than the newest RESULT_CAP matches, added at most. */
export const TITLE_CANDIDATES = 200;

/** The candidates a database found, each list newest first. */
export interface Candidates {
  /** The newest matches, at most RESULT_CAP + 1 (one more says there are more). */
  newest: readonly number[];
  /** Pages among the newest whose title holds every word. */
  titleAll: ReadonlySet<number>;
  /** Pages whose title holds some word. */
  titleSome: ReadonlySet<number>;
  /** Pages whose summary or tags hold some word. */
  meta: ReadonlySet<number>;
  /** Pages whose title holds every word, older than the newest matches. */
  older: readonly number[];
  /** The length of the title (in characters) of every page whose title holds a word. */
  titleLength: ReadonlyMap<number, number>;
}

/** The pages whose titles' lengths the ranking reads: those whose title holds a word. */
export function titled(found: Omit<Candidates, "titleLength">): number[] {
  return [...new Set([...found.titleAll, ...found.titleSome, ...found.older])];
}

/** The candidates' page ids, best first, at most RESULT_CAP; `total` as far as it was counted. */
export function rankCandidates(found: Candidates): { total: number; more: boolean; ids: number[] } {
  const more = found.newest.length > RESULT_CAP;
  const ids = [...new Set([...found.newest.slice(0, RESULT_CAP), ...found.older])];
  const older = new Set(found.older);
  const tier = (id: number) =>
    found.titleAll.has(id) || older.has(id) ? 3 : found.titleSome.has(id) ? 2 : found.meta.has(id) ? 1 : 0;
  const tiers = new Map(ids.map((id) => [id, tier(id)]));
  const length = (id: number) => found.titleLength.get(id) ?? 0;
  ids.sort((a, b) => tiers.get(b)! - tiers.get(a)! || length(a) - length(b) || b - a);
  const ranked = ids.slice(0, RESULT_CAP);
  return { total: more ? RESULT_CAP : ranked.length, more, ids: ranked };
}

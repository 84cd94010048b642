// The words a search looks for (docs/search.md), taken from what a visitor typed: split into words
// by the runtime's word segmenter (Intl.Segmenter) and each word into its runs of letters and
// digits — the tokens the index holds — folded (lower case, no accents), stop words dropped. No
// query syntax is read from the input: the databases' queries are built from these words alone
// (sqlite-search.ts quotes each as an FTS5 string, postgres-search.ts gives each as a lexeme), so
// nothing a visitor types is ever read as an operator.
import { foldWord, stopWordsOf } from "./stop-words.ts";

/** Longer queries answer an empty result, unread (no scan of an unbounded query). */
export const MAX_QUERY_LENGTH = 200;
/** At most this many words are looked for; the rest of a long query is left out. */
export const MAX_QUERY_WORDS = 12;

const segmenter = new Intl.Segmenter(undefined, { granularity: "word" });
const TOKEN = /[\p{L}\p{N}\p{M}]+/gu;

/** The tokens of a text, in order, folded (what the index compares). */
export function tokensOf(text: string): string[] {
  const out: string[] = [];
  for (const segment of segmenter.segment(text)) {
    if (!segment.isWordLike) continue;
    for (const run of segment.segment.match(TOKEN) ?? []) {
      const word = foldWord(run);
      if (word) out.push(word);
    }
  }
  return out;
}

/**
 * The words to look for, each once, in the order typed, without the language's stop words; the
 * last is matched as a prefix. Empty for a query over MAX_QUERY_LENGTH or of stop words alone.
 */
export function searchWords(q: string, lang: string): string[] {
  if (q.length > MAX_QUERY_LENGTH) return [];
  const stop = stopWordsOf(lang);
  const words: string[] = [];
  for (const word of tokensOf(q)) {
    if (stop.has(word) || words.includes(word)) continue;
    words.push(word);
    if (words.length === MAX_QUERY_WORDS) break;
  }
  return words;
}

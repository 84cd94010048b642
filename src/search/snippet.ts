// A result's snippet (docs/search.md): a window of the page's summary or text around the first
// word found, every word that matches marked `<mark>…</mark>`, everything else escaped — the only
// markup a snippet holds is the marks. Words match as the index compares them (folded); each
// searched word matches the words it begins, as the last one is searched and as a stemmed word
// (PostgreSQL) finds its longer forms.
import { escapeText } from "../markup/escape.ts";
import { foldWord } from "./stop-words.ts";

/** Words a snippet shows. */
const WINDOW = 30;
/** Words shown before the first one matched. */
const LEAD = 8;
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

interface Token {
  start: number;
  end: number;
  hit: boolean;
}

function tokens(text: string, words: readonly string[]): Token[] {
  const out: Token[] = [];
  for (const match of text.matchAll(WORD)) {
    const folded = foldWord(match[0]);
    out.push({
      start: match.index,
      end: match.index + match[0].length,
      hit: words.some((word) => folded.startsWith(word)),
    });
  }
  return out;
}

/** The snippet of the first of `texts` holding a word searched, else the start of the first not empty. */
export function snippetOf(texts: readonly string[], words: readonly string[]): string {
  const read = texts.map((text) => ({ text, tokens: tokens(text, words) }));
  const chosen = read.find((one) => one.tokens.some((token) => token.hit)) ?? read.find((one) => one.text !== "");
  if (!chosen) return "";
  const { text, tokens: all } = chosen;
  const first = Math.max(
    0,
    all.findIndex((token) => token.hit),
  );
  const from = Math.max(0, first - LEAD);
  const shown = all.slice(from, from + WINDOW);
  if (shown.length === 0) return escapeText(text.slice(0, 200));
  const begin = from === 0 ? 0 : shown[0]!.start;
  const stop = from + WINDOW >= all.length ? text.length : shown[shown.length - 1]!.end;
  let out = from === 0 ? "" : "… ";
  let at = begin;
  for (const token of shown) {
    if (!token.hit) continue;
    out += `${escapeText(text.slice(at, token.start))}<mark>${escapeText(text.slice(token.start, token.end))}</mark>`;
    at = token.end;
  }
  out += escapeText(text.slice(at, stop));
  return stop < text.length ? `${out} …` : out;
}

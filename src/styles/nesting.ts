// How deeply a stylesheet nests blocks, checked before lightningcss sees it: the parser recurses
// once per level on a native stack, and a few thousand levels (`a{a{a{…`, `:is(` or `calc(`
// nested, `@layer a{` repeated) end the whole process (SIGSEGV; its bundler's thread dies near
// 800). No real stylesheet nests more than a handful of levels; past MAX_CSS_NESTING the write is
// refused as invalid CSS at the block that goes too deep.
import type { CssSpot } from "./css.ts";

/** Blocks, parentheses and brackets inside one another at most this deep. */
export const MAX_CSS_NESTING = 64;

/** Where the stylesheet first nests deeper than `max` (1-based line and column, UTF-16 units), or null. */
export function tooDeepAt(css: string, max = MAX_CSS_NESTING): CssSpot | null {
  let depth = 0;
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < css.length; i++) {
    const c = css.charCodeAt(i);
    if (c === 10) {
      line++;
      lineStart = i + 1;
    } else if (c === 47 && css.charCodeAt(i + 1) === 42) {
      // A comment: up to its end (or the end of the text).
      const end = css.indexOf("*/", i + 2);
      const stop = end < 0 ? css.length : end + 2;
      for (let j = i; j < stop; j++) {
        if (css.charCodeAt(j) === 10) {
          line++;
          lineStart = j + 1;
        }
      }
      i = stop - 1;
    } else if (c === 34 || c === 39) {
      // A string: up to its closing quote, an unescaped line end, or the end of the text.
      let j = i + 1;
      while (j < css.length && css.charCodeAt(j) !== c && css.charCodeAt(j) !== 10)
        j += css.charCodeAt(j) === 92 ? 2 : 1;
      i = Math.min(j, css.length) - (css.charCodeAt(j) === 10 ? 1 : 0);
    } else if (c === 92) {
      i++; // an escaped character is no bracket
    } else if (c === 123 || c === 40 || c === 91) {
      if (++depth > max) return { line, column: i - lineStart + 1 };
    } else if ((c === 125 || c === 41 || c === 93) && depth > 0) {
      depth--;
    }
  }
  return null;
}

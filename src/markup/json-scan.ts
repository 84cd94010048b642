// Two small JSON scanners that never recurse. `nestedDeeperThan` measures how deep JSON text
// nests before anything parses it: request bodies (app.ts) and the JSON inside markup
// (insert parameters, binds) deeper than MAX_JSON_DEPTH are refused, so no recursive code of the
// service or of V8 (JSON.stringify, structuredClone) ever meets deep input. `scanObjectMembers`
// records where each member of a top-level object sits, so a reference can be rewritten in
// place: only the key or value token changes, every other byte (spacing, key order, escapes
// elsewhere) stays as written.

/**
 * How deep any JSON the service reads may nest: the top-level value is level 1, each object or
 * array inside one more. Request bodies deeper than this are 400 body_too_deep; insert parameters
 * and binds deeper than this are compile warnings (docs/security.md, docs/markup.md).
 */
export const MAX_JSON_DEPTH = 64;

/**
 * True when the JSON text `text[start, end)` opens more than `max` objects or arrays inside one
 * another. One linear pass: brackets inside strings do not count (a string is skipped to its
 * closing quote, escapes included); the scan stops at the first bracket past `max`. Text that is
 * not JSON gives some answer; the parser that runs next refuses it.
 */
export function nestedDeeperThan(text: string, max: number, start = 0, end = text.length): boolean {
  let depth = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // To the closing quote: one preceded by an even number of backslashes. Each run of
      // backslashes is counted once, for the quote right after it, so the pass stays linear.
      let q = i;
      for (;;) {
        q = text.indexOf('"', q + 1);
        if (q < 0 || q >= end) return false; // an unterminated string: not JSON
        let slashes = 0;
        while (text.charCodeAt(q - 1 - slashes) === 0x5c) slashes++;
        if ((slashes & 1) === 0) break;
      }
      i = q;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

export interface JsonMember {
  key: string;
  /** [keyStart, keyEnd) is the key's string token including its quotes. */
  keyStart: number;
  keyEnd: number;
  /** [valueStart, valueEnd) is the value's token (a whole nested object or array for those). */
  valueStart: number;
  valueEnd: number;
}

function isJsonWs(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}

/** End of the string token starting at `i` (a `"`), or -1. */
function stringEnd(text: string, i: number, end: number): number {
  for (let p = i + 1; p < end; p++) {
    const c = text.charCodeAt(p);
    if (c === 0x5c) p++;
    else if (c === 0x22) return p + 1;
  }
  return -1;
}

/** End of the value token starting at `i`, or -1. */
function valueEnd(text: string, i: number, end: number): number {
  const c = text.charCodeAt(i);
  if (c === 0x22) return stringEnd(text, i, end);
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    for (let p = i; p < end; p++) {
      const d = text.charCodeAt(p);
      if (d === 0x22) {
        p = stringEnd(text, p, end) - 1;
        if (p < 0) return -1;
      } else if (d === 0x7b || d === 0x5b) depth++;
      else if (d === 0x7d || d === 0x5d) {
        if (--depth === 0) return p + 1;
      }
    }
    return -1;
  }
  let p = i;
  while (p < end) {
    const d = text.charCodeAt(p);
    if (d === 0x2c || d === 0x7d || d === 0x5d || isJsonWs(d)) break;
    p++;
  }
  return p > i ? p : -1;
}

/**
 * Members of the JSON object `text[start, end)`, in the order written; null when the text is
 * not an object. Meant for text that JSON.parse already accepted.
 */
export function scanObjectMembers(text: string, start: number, end: number): JsonMember[] | null {
  let i = start;
  const ws = (): void => {
    while (i < end && isJsonWs(text.charCodeAt(i))) i++;
  };
  ws();
  if (text.charCodeAt(i) !== 0x7b) return null;
  i++;
  ws();
  const members: JsonMember[] = [];
  if (text.charCodeAt(i) === 0x7d) return members;
  for (;;) {
    if (text.charCodeAt(i) !== 0x22) return null;
    const keyStart = i;
    const keyEnd = stringEnd(text, i, end);
    if (keyEnd < 0) return null;
    let key: string;
    try {
      key = JSON.parse(text.slice(keyStart, keyEnd)) as string;
    } catch {
      return null;
    }
    i = keyEnd;
    ws();
    if (text.charCodeAt(i) !== 0x3a) return null;
    i++;
    ws();
    const valueStart = i;
    const vEnd = valueEnd(text, i, end);
    if (vEnd < 0) return null;
    members.push({ key, keyStart, keyEnd, valueStart, valueEnd: vEnd });
    i = vEnd;
    ws();
    const c = text.charCodeAt(i);
    if (c === 0x7d) return members;
    if (c !== 0x2c) return null;
    i++;
    ws();
  }
}

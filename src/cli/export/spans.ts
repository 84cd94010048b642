// Text edits by position, and the known values a package's parser found, located in the text they
// came from: a file's bytes stay as they were except where a link is rewritten. Pure.

export interface Edit {
  start: number;
  end: number;
  text: string;
}

/** `text` with the edits (non-overlapping) applied. */
export function applyEdits(text: string, edits: readonly Edit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  let out = "";
  let at = 0;
  for (const edit of sorted) {
    if (edit.start < at) continue;
    out += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + text.slice(at);
}

/**
 * Each of `values` replaced in `text`, found in order from where the last one was (the order a
 * parser reports them in), each where it stands as a whole token: not inside a longer run of the
 * same characters.
 */
export function replaceInOrder(text: string, values: ReadonlyArray<{ from: string; to: string | null }>): string {
  const edits: Edit[] = [];
  let cursor = 0;
  for (const { from, to } of values) {
    let at = text.indexOf(from, cursor);
    while (at !== -1 && !standsAlone(text, at, from.length)) at = text.indexOf(from, at + 1);
    if (at === -1) continue;
    cursor = at + from.length;
    if (to !== null && to !== from) edits.push({ start: at, end: cursor, text: to });
  }
  return applyEdits(text, edits);
}

const TOKEN_EDGE = /[\s"'(),]/;

function standsAlone(text: string, at: number, length: number): boolean {
  const before = at === 0 ? " " : text[at - 1];
  const after = at + length >= text.length ? " " : text[at + length];
  return TOKEN_EDGE.test(before) && TOKEN_EDGE.test(after);
}

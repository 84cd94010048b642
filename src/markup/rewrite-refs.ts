// Rewrites references to a renamed frame inside svc/frame, svc/partial and svc/layout inserts, in place.
// The compiler's own walk finds the inserts (so exactly the comments it treats as inserts:
// never text inside <script>/<textarea> or attribute values); the JSON scanner gives the
// positions of keys and values inside the parameters.

import { visitInserts } from "./compile.ts";
import { REF_KEY_SET, type ParsedInsert } from "./insert-grammar.ts";
import { scanObjectMembers, type JsonMember } from "./json-scan.ts";

export interface RewriteResult {
  html: string;
  /** Number of reference values replaced. */
  replaced: number;
}

/**
 * In every svc/frame and svc/partial insert, a reference value (keys name, ref, frame, slug, id;
 * strings, or numbers as String(n)) for which `matchesOld` is true becomes `newSlug`.
 * When the insert has no `name` key, the first matching alias key is renamed to `name`
 * (`"ref": "old"` -> `"name": "new"`); other matching keys keep their key and get the new value.
 * Every other byte of the markup is unchanged; markup with no match is returned as it is.
 */
export function rewriteFrameRefs(html: string, matchesOld: (value: string) => boolean, newSlug: string): RewriteResult {
  const edits: Array<[start: number, end: number, text: string]> = [];
  let replaced = 0;
  const newValue = JSON.stringify(newSlug);

  const onInsert = (ins: ParsedInsert): void => {
    if (ins.form !== "self" || ins.params === null) return;
    if (ins.full !== "svc/frame" && ins.full !== "svc/partial" && ins.full !== "svc/layout") return;
    const members = scanObjectMembers(html, ins.paramsStart, ins.paramsEnd);
    if (members === null) return;
    // JSON.parse keeps the last of duplicate keys; only that one is the live reference.
    const live = new Map<string, JsonMember>();
    for (const m of members) if (REF_KEY_SET.has(m.key)) live.set(m.key, m);
    const refs = members.filter((m) => live.get(m.key) === m);
    const hasName = live.has("name");
    let renamed = false;
    for (const m of refs) {
      const v = ins.params[m.key];
      // Numbers are matched by the same text the analysis reports them with (String(v)).
      const text = typeof v === "string" ? v : typeof v === "number" && Number.isFinite(v) ? String(v) : undefined;
      if (text === undefined || !matchesOld(text)) continue;
      if (!hasName && !renamed) {
        edits.push([m.keyStart, m.keyEnd, '"name"']);
        renamed = true;
      }
      edits.push([m.valueStart, m.valueEnd, newValue]);
      replaced++;
    }
  };

  visitInserts(html, (ins) => onInsert(ins));

  if (edits.length === 0) return { html, replaced: 0 };
  const parts: string[] = [];
  let pos = 0;
  for (const [start, end, text] of edits) {
    parts.push(html.slice(pos, start), text);
    pos = end;
  }
  parts.push(html.slice(pos));
  return { html: parts.join(""), replaced };
}

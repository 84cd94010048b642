// Inclusive CPU time of a V8 .cpuprofile (from `node --cpu-prof`), by a name the caller chooses for
// each function (bench/profile-scale.ts, bench/revisions-profile.ts).

import { readFileSync } from "node:fs";

/** A .cpuprofile node's call frame, as far as names are made from it. */
export interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

/** Inclusive CPU time (µs) by `nameOf` each function; a name is counted once per sample, however often it stands on the stack. */
export function inclusiveTimes(file: string, nameOf: (frame: CallFrame) => string): Map<string, number> {
  const profile = JSON.parse(readFileSync(file, "utf8"));
  const byId = new Map<number, any>(profile.nodes.map((node: any) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const sampled = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++)
    sampled.set(profile.samples[i], (sampled.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
  const out = new Map<string, number>();
  for (const node of profile.nodes) {
    const time = sampled.get(node.id) ?? 0;
    if (time === 0 || node.callFrame.functionName === "(idle)") continue;
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const key = nameOf(byId.get(id).callFrame);
      if (seen.has(key)) continue;
      seen.add(key);
      out.set(key, (out.get(key) ?? 0) + time);
    }
  }
  return out;
}

// Summarises a V8 .cpuprofile (from `node --cpu-prof`): the functions with the most self time
// and the most inclusive time. `node bench/profile-summary.mjs <file.cpuprofile> [rows]`
import { readFileSync } from "node:fs";

const profile = JSON.parse(readFileSync(process.argv[2], "utf8"));
const rows = Number(process.argv[3] ?? 30);
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const sampled = new Map();
for (let i = 0; i < profile.samples.length; i++)
  sampled.set(profile.samples[i], (sampled.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));

const nameOf = (node) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url.replace(/^.*?\/node_modules\//, "nm/").replace(/^file:\/\/.*?\/(src|bench|test)\//, "$1/");
  return `${functionName || "(anonymous)"} ${where}:${lineNumber + 1}`;
};

const self = new Map();
const inclusive = new Map();
let total = 0;
for (const node of profile.nodes) {
  const time = sampled.get(node.id) ?? 0;
  if (time === 0) continue;
  total += time;
  const name = nameOf(node);
  self.set(name, (self.get(name) ?? 0) + time);
  const seen = new Set();
  for (let id = node.id; id !== undefined; id = parent.get(id)) {
    const key = nameOf(byId.get(id));
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + time);
  }
}
const show = (map, title) => {
  console.log(`== ${title} (of ${(total / 1000).toFixed(0)} ms sampled)`);
  for (const [name, time] of [...map].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
    console.log(
      `${(time / 1000).toFixed(0).padStart(8)} ms ${((100 * time) / total).toFixed(1).padStart(5)}%  ${name}`,
    );
  }
};
show(self, "self time");
show(inclusive, "inclusive time");

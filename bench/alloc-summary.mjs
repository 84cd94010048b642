// Sums V8 sampling heap profiles written by bench/memory-sampler.mjs ($MEMORY_ALLOC_PROFILE) by
// allocating stack (the innermost `DEPTH` frames, default 5):
//   node bench/alloc-summary.mjs major.json [rows]
//   node bench/alloc-summary.mjs all.json major.json [rows]
// `major.json` (the default profile) holds what outlived a young collection, died in the old
// generation or is still alive at exit, plus the young objects a major collection found dead;
// `all.json` (MEMORY_ALLOC_ALL=1) everything allocated. With both, each stack shows the share of
// what it allocated that reached the old generation: near 100% for objects every young
// collection kept alive, a few % for short-lived ones.
import { readFileSync } from "node:fs";

const depth = Number(process.env.DEPTH ?? 5);
const name = (frame) =>
  `${frame.functionName || "(anonymous)"} ${frame.url.replace(/.*\//, "")}:${frame.lineNumber + 1}`;

function byStack(file) {
  const profile = JSON.parse(readFileSync(file, "utf8"));
  const sums = new Map();
  let total = 0;
  const walk = (node, stack) => {
    const here = [...stack, name(node.callFrame)];
    if (node.selfSize > 0) {
      const key = here.slice(-depth).reverse().join(" < ");
      sums.set(key, (sums.get(key) ?? 0) + node.selfSize);
      total += node.selfSize;
    }
    for (const child of node.children) walk(child, here);
  };
  walk(profile.head, []);
  return { sums, total };
}

const args = process.argv.slice(2);
const files = args.filter((a) => a.endsWith(".json"));
const rows = Number(args.find((a) => !a.endsWith(".json")) ?? 30);
const mb = (n) => (n / 1024 / 1024).toFixed(1).padStart(7);
const major = byStack(files.at(-1));
const all = files.length > 1 ? byStack(files[0]) : undefined;
console.log(`sampled ${mb(major.total)} MB${all ? ` of ${mb(all.total)} MB allocated` : ""}`);
for (const [key, size] of [...major.sums].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
  const of = all?.sums.get(key);
  const share = all ? ` of ${mb(of ?? 0)} MB (${of ? ((100 * size) / of).toFixed(0).padStart(3) : "  ?"}%)` : "";
  console.log(`${mb(size)} MB${share}  ${key}`);
}

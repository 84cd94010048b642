// Sums a V8 heap snapshot's self sizes by constructor name (node type and name), biggest first:
//   node bench/heap-summary.mjs a.heapsnapshot [b.heapsnapshot] [rows]
// With two snapshots, the second column set is b and the rows are ordered by b − a.
import { readFileSync } from "node:fs";

function summary(file) {
  const snapshot = JSON.parse(readFileSync(file, "utf8"));
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ["type", "name", "self_size"].map((f) => fields.indexOf(f));
  const nodes = snapshot.nodes;
  const strings = snapshot.strings;
  const sums = new Map();
  let total = 0;
  for (let i = 0; i < nodes.length; i += width) {
    const type = types[nodes[i + typeAt]];
    const name = type === "object" || type === "native" || type === "closure" ? strings[nodes[i + nameAt]] : "";
    const key = `${type}${name ? ` ${name.slice(0, 60)}` : ""}`;
    const size = nodes[i + sizeAt];
    total += size;
    const entry = sums.get(key) ?? { count: 0, size: 0 };
    entry.count++;
    entry.size += size;
    sums.set(key, entry);
  }
  return { sums, total };
}

const [a, b, rowsArg] = process.argv.slice(2);
const rows = Number((b && !b.endsWith(".heapsnapshot") ? b : rowsArg) ?? 40);
const first = summary(a);
const second = b?.endsWith(".heapsnapshot") ? summary(b) : undefined;
const mb = (n) => (n / 1024 / 1024).toFixed(1).padStart(7);
const keys = [...new Set([...first.sums.keys(), ...(second ? second.sums.keys() : [])])];
const size = (s, k) => s?.sums.get(k)?.size ?? 0;
const count = (s, k) => s?.sums.get(k)?.count ?? 0;
keys.sort((x, y) =>
  second ? size(second, y) - size(first, y) - (size(second, x) - size(first, x)) : size(first, y) - size(first, x),
);
console.log(`total ${mb(first.total)} MB${second ? ` → ${mb(second.total)} MB` : ""}`);
for (const key of keys.slice(0, rows)) {
  const left = `${mb(size(first, key))} MB ${String(count(first, key)).padStart(8)}`;
  const right = second ? `  →${mb(size(second, key))} MB ${String(count(second, key)).padStart(8)}` : "";
  console.log(`${left}${right}  ${key}`);
}

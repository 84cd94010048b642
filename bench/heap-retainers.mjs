// What holds a V8 heap snapshot's memory: its dominator tree (Cooper, Harvey and Kennedy's
// iterative algorithm over the strong edges) and the objects of biggest retained size, each with
// a path from the roots; an object listed is left out when one listed above it dominates it and
// retains little more (COVERED=<ratio>, default 0.8; 2 lists every one):
//   node --max-old-space-size=8000 bench/heap-retainers.mjs a.heapsnapshot [rows] [min-kb]
// HEAP_TREE=<text>: then the dominator subtree (HEAP_DEPTH levels, default 3; children of at least
// min-kb) of the first object listed whose name or path holds <text>.
import { readFileSync } from "node:fs";

const [file, rowsArg, minArg] = process.argv.slice(2);
const rows = Number(rowsArg ?? 40);
const minBytes = Number(minArg ?? 256) * 1024;
const snapshot = JSON.parse(readFileSync(file, "utf8"));
const meta = snapshot.snapshot.meta;
const nodeWidth = meta.node_fields.length;
const edgeWidth = meta.edge_fields.length;
const nodeTypes = meta.node_types[0];
const edgeTypes = meta.edge_types[0];
const { nodes, edges, strings } = snapshot;
const count = nodes.length / nodeWidth;
const [nType, nName, nSize, nEdges] = ["type", "name", "self_size", "edge_count"].map((f) =>
  meta.node_fields.indexOf(f),
);
const [eType, eName, eTo] = ["type", "name_or_index", "to_node"].map((f) => meta.edge_fields.indexOf(f));
const weak = edgeTypes.indexOf("weak");
const shortcut = edgeTypes.indexOf("shortcut");

const firstEdge = new Uint32Array(count + 1);
for (let i = 0, e = 0; i < count; i++) {
  firstEdge[i] = e;
  e += nodes[i * nodeWidth + nEdges] * edgeWidth;
  firstEdge[i + 1] = e;
}
const strong = (e) => edges[e + eType] !== weak && edges[e + eType] !== shortcut;

// Post-order from the root (node 0), iteratively.
const order = new Int32Array(count).fill(-1);
const postOrder = [];
const stack = [0];
const cursor = new Uint32Array(count);
const seen = new Uint8Array(count);
seen[0] = 1;
for (let i = 0; i < count; i++) cursor[i] = firstEdge[i];
while (stack.length > 0) {
  const n = stack[stack.length - 1];
  if (cursor[n] < firstEdge[n + 1]) {
    const e = cursor[n];
    cursor[n] += edgeWidth;
    if (!strong(e)) continue;
    const to = edges[e + eTo] / nodeWidth;
    if (!seen[to]) {
      seen[to] = 1;
      stack.push(to);
    }
  } else {
    order[n] = postOrder.length;
    postOrder.push(n);
    stack.pop();
  }
}
// Predecessors of reachable nodes.
const predCount = new Uint32Array(count + 1);
for (let n = 0; n < count; n++) {
  if (!seen[n]) continue;
  for (let e = firstEdge[n]; e < firstEdge[n + 1]; e += edgeWidth)
    if (strong(e)) predCount[edges[e + eTo] / nodeWidth + 1]++;
}
for (let i = 0; i < count; i++) predCount[i + 1] += predCount[i];
const preds = new Uint32Array(predCount[count]);
const fill = predCount.slice();
for (let n = 0; n < count; n++) {
  if (!seen[n]) continue;
  for (let e = firstEdge[n]; e < firstEdge[n + 1]; e += edgeWidth)
    if (strong(e)) preds[fill[edges[e + eTo] / nodeWidth]++] = n;
}
const dom = new Int32Array(count).fill(-1);
dom[0] = 0;
const intersect = (a, b) => {
  while (a !== b) {
    while (order[a] < order[b]) a = dom[a];
    while (order[b] < order[a]) b = dom[b];
  }
  return a;
};
for (let changed = true; changed; ) {
  changed = false;
  for (let i = postOrder.length - 2; i >= 0; i--) {
    const n = postOrder[i];
    let idom = -1;
    for (let p = predCount[n]; p < predCount[n + 1]; p++) {
      const pred = preds[p];
      if (dom[pred] === -1) continue;
      idom = idom === -1 ? pred : intersect(pred, idom);
    }
    if (idom !== -1 && dom[n] !== idom) {
      dom[n] = idom;
      changed = true;
    }
  }
}
const retained = new Float64Array(count);
for (const n of postOrder) {
  retained[n] += nodes[n * nodeWidth + nSize];
  if (n !== 0) retained[dom[n]] += retained[n];
}

const label = (n) => {
  const type = nodeTypes[nodes[n * nodeWidth + nType]];
  const name = strings[nodes[n * nodeWidth + nName]] ?? "";
  return `${type} ${JSON.stringify(name.slice(0, 50))}`;
};
/** A parent of n on a path from the root, and the edge's name. */
const parent = new Int32Array(count).fill(-1);
const parentEdge = new Int32Array(count).fill(-1);
{
  const queue = [0];
  const visited = new Uint8Array(count);
  visited[0] = 1;
  for (let q = 0; q < queue.length; q++) {
    const n = queue[q];
    for (let e = firstEdge[n]; e < firstEdge[n + 1]; e += edgeWidth) {
      if (!strong(e)) continue;
      const to = edges[e + eTo] / nodeWidth;
      if (visited[to]) continue;
      visited[to] = 1;
      parent[to] = n;
      parentEdge[to] = e;
      queue.push(to);
    }
  }
}
const edgeName = (e) => {
  const type = edgeTypes[edges[e + eType]];
  const name = edges[e + eName];
  return type === "element" || type === "hidden" ? `[${name}]` : `.${strings[name]}`;
};
const pathOf = (n) => {
  const parts = [];
  for (let at = n, depth = 0; at > 0 && depth < 12; at = parent[at], depth++) parts.push(`${edgeName(parentEdge[at])}`);
  return parts.reverse().join("");
};

const mb = (b) => (b / 1024 / 1024).toFixed(2).padStart(7);
console.log(`reachable ${postOrder.length} of ${count}; root retains ${mb(retained[0])} MB`);
// The biggest objects that are not dominated by another object listed (the children of the
// synthetic roots first, then deeper while one child holds most).
const candidates = [];
for (const n of postOrder) if (retained[n] >= minBytes && n !== 0) candidates.push(n);
candidates.sort((a, b) => retained[b] - retained[a]);
const shown = new Set();
let printed = 0;
for (const n of candidates) {
  if (printed >= rows) break;
  // Skip a node whose dominator listed retains almost as much (the same thing seen again).
  let d = dom[n];
  let covered = false;
  while (d > 0) {
    if (shown.has(d) && retained[n] > retained[d] * Number(process.env.COVERED ?? 0.8)) covered = true;
    d = dom[d];
  }
  if (covered) continue;
  shown.add(n);
  printed++;
  console.log(`${mb(retained[n])} MB  ${label(n)}  ${pathOf(n)}`);
}

if (process.env.HEAP_TREE) {
  const children = new Map();
  for (const n of postOrder) {
    if (n === 0) continue;
    const list = children.get(dom[n]) ?? [];
    list.push(n);
    children.set(dom[n], list);
  }
  const start = candidates.find((n) => `${label(n)} ${pathOf(n)}`.includes(process.env.HEAP_TREE));
  const show = (n, depth) => {
    const edge = parent[n] >= 0 && dom[n] === parent[n] ? edgeName(parentEdge[n]) : "";
    console.log(`${"  ".repeat(depth)}${mb(retained[n])} MB ${label(n)} ${edge}`);
    if (depth >= Number(process.env.HEAP_DEPTH ?? 3)) return;
    const list = (children.get(n) ?? [])
      .filter((c) => retained[c] >= minBytes)
      .sort((a, b) => retained[b] - retained[a]);
    for (const c of list.slice(0, 12)) show(c, depth + 1);
  };
  if (start !== undefined) show(start, 0);
}

import { DependencyIndex, type FrameNode } from "../src/publish/dependency-index.ts";
const nodes: FrameNode[] = [];
for (let i = 0; i < 10000; i++) nodes.push({ id: Math.random().toString(16).slice(2, 18).padEnd(16, "0"), slug: `block-${i}`, sources: ["site"], refs: [], liveReasons: [] });
function t(name: string, f: () => void) { for (let i = 0; i < 20; i++) f(); const t0 = performance.now(); for (let i = 0; i < 100; i++) f(); console.log(name, ((performance.now() - t0) / 100).toFixed(3), "ms"); }
t("index", () => new DependencyIndex(nodes));
const m = new Map(nodes.map((n) => [n.slug, n]));
t("map copy", () => new Map(m));
t("spread+filter", () => [...nodes.filter((n) => n.id !== "x"), nodes[0]]);

import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { frame10k } from "./content.ts";
import { Api, startService, ROOT } from "./lib.ts";
const what = process.argv[2];
const dir = join(ROOT, "bench/results/profiles");
rmSync(dir, { recursive: true, force: true });
const data = mkdtempSync(join(tmpdir(), "fp-"));
cpSync("/tmp/bx/large-frames-only", data, { recursive: true });
const s = await startService(data, {}, ["--cpu-prof", `--cpu-prof-dir=${dir}`]);
const api = new Api(s.port);
const t0 = performance.now();
for (let i = 0; i < 100; i++) {
  if (what === "frames") await api.call("POST", "/api/site/1/frames", { slug: `extra-${i}`, html: frame10k(i), bake: false });
  else await api.call("POST", "/api/site/1/pages", { title: `Page ${i}`, slug: `page-${i}`, frame: `block-${i}` });
}
console.log(what, ((performance.now() - t0) / 100).toFixed(1), "ms each");
await s.stop();
rmSync(data, { recursive: true, force: true });
const main = readdirSync(dir).filter((f) => f.endsWith(".cpuprofile")).sort()[0];
spawnSync(process.execPath, [join(ROOT, "bench/profile-summary.mjs"), join(dir, main), "30"], { stdio: "inherit" });

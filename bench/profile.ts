// Profiles the service under the load of one scenario: starts it with `node --cpu-prof` on a
// fresh database, fills the small site, loads one address for a few seconds, stops it (the
// profile is written on exit) and prints a summary.
//   node --import tsx bench/profile.ts static|cached|api [seconds]
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fillSmallSite } from "./small-site.ts";
import { ADMIN_TOKEN, Api, http, load, ROOT, startService } from "./lib.ts";

const targets: Record<string, { path: string; headers: Record<string, string> }> = {
  static: { path: "/about/", headers: { host: "localhost" } },
  cached: { path: "/news/", headers: { host: "localhost" } },
  api: { path: "/api/site/1/frames/card-4k", headers: { authorization: `Bearer ${ADMIN_TOKEN}` } },
  profile: { path: "/api/profile", headers: { authorization: `Bearer ${ADMIN_TOKEN}` } },
  healthz: { path: "/healthz", headers: {} },
};
const which = process.argv[2] ?? "api";
const seconds = Number(process.argv[3] ?? 5);
const target = targets[which];
if (!target) throw new Error(`unknown target ${which}: ${Object.keys(targets).join(", ")}`);

const dir = join(ROOT, "bench/results/profiles");
rmSync(dir, { recursive: true, force: true });
const data = mkdtempSync(join(tmpdir(), "svc-profile-"));
const service = await startService(data, {}, ["--cpu-prof", `--cpu-prof-dir=${dir}`]);
try {
  await fillSmallSite(new Api(service.port));
  await http(service.port, "GET", target.path, { headers: target.headers });
  const result = await load(`http://127.0.0.1:${service.port}${target.path}`, {
    connections: 8,
    duration: seconds,
    headers: target.headers,
  });
  console.log(`${which}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms`);
} finally {
  await service.stop();
  rmSync(data, { recursive: true, force: true });
}
const main = readdirSync(dir)
  .filter((f) => f.endsWith(".cpuprofile"))
  .sort()[0];
console.log(`profile: ${join(dir, main)}`);
spawnSync(process.execPath, [join(ROOT, "bench/profile-summary.mjs"), join(dir, main), "40"], { stdio: "inherit" });

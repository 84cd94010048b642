// CPU a request costs the service against the bare server answering the same bytes, for one
// address, measured from /proc (user + system time of each process) over a few load runs. Less
// moved by other load on the machine than a throughput ratio, so it says whether a change to the
// request path helped when the machine is not quiet. With BENCH_REQUEST_CPU_BASE=<commit>, that
// commit is built in a temporary worktree (bench/baseline-build.ts) and measured in the same
// rounds, filled alike. Starts dist/main.js: `npm run build` first.
//   node --import tsx bench/request-cpu.ts api|list [seconds] [rounds]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fillSmallSite } from "./small-site.ts";
import { fillPageList, LIST_PAGES } from "./fill.ts";
import { ADMIN_TOKEN, Api, cpuMsOf, http, load, startBare, startService, type Service } from "./lib.ts";
import { baselineTree } from "./baseline-build.ts";

const targets: Record<string, { path: string; fill?: (api: Api) => Promise<void> }> = {
  api: { path: "/api/site/1/frames/card-4k" },
  list: { path: "/api/site/1/pages?per_page=100", fill: (api) => fillPageList(api, LIST_PAGES, () => {}) },
};
const which = process.argv[2] ?? "api";
const seconds = Number(process.argv[3] ?? 2);
const rounds = Number(process.argv[4] ?? 3);
const target = targets[which];
if (!target) throw new Error(`unknown target ${which}: ${Object.keys(targets).join(", ")}`);
const headers = { authorization: `Bearer ${ADMIN_TOKEN}` };
const baseCommit = process.env.BENCH_REQUEST_CPU_BASE;

/** CPU µs a request of `pid` serving `port`, over one load run after a warm-up. */
async function perRequest(port: number, pid: number): Promise<number> {
  const url = `http://127.0.0.1:${port}${target.path}`;
  await load(url, { connections: 8, duration: 1, headers });
  const before = cpuMsOf(pid);
  const run = await load(url, { connections: 8, duration: seconds, headers });
  return ((cpuMsOf(pid) - before) * 1000) / run.requests;
}

async function filled(dir: string, options: { root?: string } = {}): Promise<Service> {
  const service = await startService(dir, {}, [], options);
  const api = new Api(service.port);
  await fillSmallSite(api);
  await target.fill?.(api);
  return service;
}

const data = mkdtempSync(join(tmpdir(), "svc-request-cpu-"));
const base = baseCommit ? baselineTree((message) => console.error(message), baseCommit) : null;
const services: Service[] = [];
try {
  const service = await filled(join(data, "current"));
  services.push(service);
  const baseService = base ? await filled(join(data, "base"), { root: base.root }) : null;
  if (baseService) services.push(baseService);
  const answer = await http(service.port, "GET", target.path, { headers });
  if (answer.status !== 200) throw new Error(`${target.path}: ${answer.status}`);
  const bare = await startBare(answer, join(data, "answer.json"));
  try {
    for (let i = 0; i < rounds; i++) {
      const s = await perRequest(service.port, service.pid);
      const b = await perRequest(bare.port, bare.pid);
      const was = baseService ? await perRequest(baseService.port, baseService.pid) : null;
      console.log(
        `${which}: ${s.toFixed(1)} µs a request, bare ${b.toFixed(1)} µs; CPU ratio bare/service ${(b / s).toFixed(3)}` +
          (was === null ? "" : `; ${base!.commit.slice(0, 7)} ${was.toFixed(1)} µs (ratio ${(b / was).toFixed(3)})`) +
          ` (${answer.body.length} bytes)`,
      );
    }
  } finally {
    await bare.stop();
  }
} finally {
  for (const service of services) await service.stop();
  base?.remove();
  rmSync(data, { recursive: true, force: true });
}

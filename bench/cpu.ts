// CPU time the server spends per request, for the service and for the bare server answering the
// same bytes: a measure that other load on the machine does not move (throughput does).
//   node --import tsx bench/cpu.ts static|cached|api [seconds]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fillSmallSite } from "./small-site.ts";
import { ADMIN_TOKEN, Api, cpuMsOf, http, load, ROOT, startBare, startService } from "./lib.ts";

const targets: Record<string, { path: string; headers: Record<string, string> }> = {
  static: { path: "/about/", headers: { host: "localhost" } },
  cached: { path: "/news/", headers: { host: "localhost" } },
  api: { path: "/api/site/1/frames/card-4k", headers: { authorization: `Bearer ${ADMIN_TOKEN}` } },
};
const seconds = Number(process.argv[3] ?? 4);
const which = (process.argv[2] ?? "static,cached,api").split(",");
const data = mkdtempSync(join(tmpdir(), "svc-cpu-"));
const service = await startService(data);
try {
  await fillSmallSite(new Api(service.port));
  for (const name of which) {
    const target = targets[name];
    await http(service.port, "GET", target.path, { headers: target.headers });
    const answer = await http(service.port, "GET", target.path, { headers: target.headers });
    const bare = await startBare(answer, join(ROOT, `bench/results/answer-cpu-${name}.json`));
    const perRequest = async (port: number, pid: number) => {
      await load(`http://127.0.0.1:${port}${target.path}`, { connections: 8, duration: 1, headers: target.headers });
      const before = cpuMsOf(pid);
      const result = await load(`http://127.0.0.1:${port}${target.path}`, {
        connections: 8,
        duration: seconds,
        headers: target.headers,
      });
      return { us: ((cpuMsOf(pid) - before) * 1000) / result.requests, rps: result.rps };
    };
    const s = await perRequest(service.port, service.pid);
    const b = await perRequest(bare.port, bare.pid);
    await bare.stop();
    console.log(
      `${name}: service ${s.us.toFixed(1)} µs/request (${s.rps.toFixed(0)} req/s), bare ${b.us.toFixed(1)} µs/request (${b.rps.toFixed(0)} req/s): CPU ratio ${(b.us / s.us).toFixed(3)}`,
    );
  }
} finally {
  await service.stop();
  rmSync(data, { recursive: true, force: true });
}

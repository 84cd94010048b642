// Where a frame write of the `revisions` group spends its time, on the baseline (the commit before
// revisions, BENCH_REVISIONS_BASE) and on this checkout's build: for each, a service process on a
// site filled as the group fills it (BENCH_REVISIONS_SITE), restarted under `node --cpu-prof`
// with bench/sql-trace.mjs preloaded; both filled, then both restarted; ten warm-up writes, then `n` measured ones on each, one write each in turn. Prints, for both,
// the SQL statements by time per write and the functions whose inclusive CPU time per write
// differs most (by function name: the two bundles' line numbers differ).
//   npm run build && node --import tsx bench/revisions-profile.ts [n] [frames|pages]
// The profiles and traces stay in bench/results/profiles-revisions/.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inclusiveTimes } from "./cpu-profile.ts";
import { Api, cpuMsOf, median, ROOT, sleep, startService } from "./lib.ts";
import { baselineTree } from "./baseline-build.ts";
import { BASE, SITE } from "./revisions.ts";
import { fill, frameVersion, pageVersion, WRITTEN } from "./written-site.ts";

const n = Number(process.argv[2] ?? 200);
const kind = process.argv[3] ?? "frames";
const out = join(ROOT, "bench/results/profiles-revisions");
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

/** Inclusive CPU time (µs) by function name of a .cpuprofile, the place given only as dist, nm or node. */
function inclusive(file: string): Map<string, number> {
  return inclusiveTimes(file, ({ functionName, url }) => {
    const where = url.includes("/dist/")
      ? "dist"
      : url.includes("/node_modules/")
        ? "nm"
        : url.startsWith("node:")
          ? "node"
          : "";
    return `${functionName || "(anonymous)"} ${where}`.trim();
  });
}

interface Taken {
  ms: number[];
  cpuMs: number;
  sql: Record<string, { calls: number; ms: number; rows: number }>;
  cpu: Map<string, number>;
}

type Side = "base" | "current";

/** Both services filled, restarted under the profiler, then written to in turn (one write each), so other load on the machine hits both alike. */
async function takeBoth(root: string): Promise<Record<Side, Taken>> {
  const sides: Side[] = ["base", "current"];
  const data = mkdtempSync(join(tmpdir(), "svc-profile-revisions-"));
  const options = (side: Side) => (side === "base" ? { root } : {});
  const env = (side: Side): Record<string, string> =>
    side === "base" ? { SVC_CODE_CACHE_DIR: join(data, "code-cache") } : {};
  try {
    const pageIds: Record<Side, number[]> = { base: [], current: [] };
    await Promise.all(
      sides.map(async (side) => {
        const service = await startService(join(data, side), env(side), [], options(side));
        try {
          pageIds[side] = (await fill(new Api(service.port), SITE)).pageIds;
        } finally {
          await service.stop();
        }
      }),
    );
    const services = await Promise.all(
      sides.map((side) =>
        startService(
          join(data, side),
          { ...env(side), SQL_TRACE_FILE: join(out, `${side}.sql.json`) },
          ["--cpu-prof", `--cpu-prof-dir=${join(out, side)}`, "--import", join(ROOT, "bench/sql-trace.mjs")],
          options(side),
        ),
      ),
    );
    const ms: Record<Side, number[]> = { base: [], current: [] };
    const cpuMs: Record<Side, number> = { base: 0, current: 0 };
    try {
      const write = (k: number, i: number) => {
        const api = new Api(services[k]!.port);
        return kind === "frames"
          ? api.call("PUT", `/api/site/1/frames/rev-frame-${i % WRITTEN}`, { html: frameVersion(i % WRITTEN, i + 1) })
          : api.call("PATCH", `/api/site/1/pages/${pageIds[sides[k]!][i % WRITTEN]}`, pageVersion(i % WRITTEN, i + 1));
      };
      for (let i = 0; i < 10; i++) for (let k = 0; k < 2; k++) await write(k, i);
      for (const service of services) process.kill(service.pid, "SIGUSR2");
      await sleep(200);
      const cpu0 = services.map((service) => cpuMsOf(service.pid));
      for (let i = 10; i < 10 + n; i++) {
        for (let j = 0; j < 2; j++) {
          const k = (i + j) % 2;
          const t0 = performance.now();
          await write(k, i);
          ms[sides[k]!].push(performance.now() - t0);
        }
      }
      for (const [k, side] of sides.entries()) cpuMs[side] = (cpuMsOf(services[k]!.pid) - cpu0[k]!) / n;
    } finally {
      await Promise.all(services.map((service) => service.stop()));
    }
    const taken = (side: Side): Taken => {
      const dir = join(out, side);
      const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"))!;
      return {
        ms: ms[side],
        cpuMs: cpuMs[side],
        sql: JSON.parse(readFileSync(join(out, `${side}.sql.json`), "utf8")),
        cpu: inclusive(join(dir, file)),
      };
    };
    return { base: taken("base"), current: taken("current") };
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
}

const fmt = (v: number, d = 2) => v.toFixed(d).padStart(8);
const tree = baselineTree((m) => console.error(m), BASE);
let taken: Record<Side, Taken>;
try {
  taken = await takeBoth(tree.root);
} finally {
  tree.remove();
}
const { base, current } = taken;
console.log(
  `=== ${kind} writes: median ${median(base.ms).toFixed(2)} ms on the baseline ${tree.commit.slice(0, 7)}, ${median(current.ms).toFixed(2)} ms on the current build; CPU ${base.cpuMs.toFixed(2)} and ${current.cpuMs.toFixed(2)} ms a write (${n} writes each)`,
);
const perWrite = (t: Taken, sql: string) => {
  const e = t.sql[sql] ?? { calls: 0, ms: 0, rows: 0 };
  return { ms: e.ms / n, calls: e.calls / n, rows: e.rows / n };
};
const totals = (t: Taken) =>
  Object.keys(t.sql).reduce((a, sql) => ({ ms: a.ms + perWrite(t, sql).ms, calls: a.calls + perWrite(t, sql).calls }), {
    ms: 0,
    calls: 0,
  });
console.log(`--- SQL per write, baseline → current (ms, calls, rows read), by the difference in time`);
console.log(
  `${fmt(totals(base).ms)} →${fmt(totals(current).ms)} ms ${fmt(totals(base).calls, 1)} →${fmt(totals(current).calls, 1)} calls  (all statements)`,
);
const sqls = new Set([...Object.keys(base.sql), ...Object.keys(current.sql)]);
for (const sql of [...sqls]
  .sort(
    (a, b) =>
      Math.abs(perWrite(current, b).ms - perWrite(base, b).ms) -
      Math.abs(perWrite(current, a).ms - perWrite(base, a).ms),
  )
  .slice(0, 16)) {
  const [b, c] = [perWrite(base, sql), perWrite(current, sql)];
  console.log(
    `${fmt(b.ms, 3)} →${fmt(c.ms, 3)} ms ${fmt(b.calls, 1)} →${fmt(c.calls, 1)} calls ${fmt(b.rows, 0)} →${fmt(c.rows, 0)} rows  ${sql.replace(/\s+/g, " ").slice(0, 200)}`,
  );
}
console.log(
  `--- CPU by function (inclusive ms per write; the warm-up writes included, divided by the measured ones), baseline → current, by the difference`,
);
const cpu = (t: Taken, name: string) => (t.cpu.get(name) ?? 0) / 1000 / n;
const names = new Set([...base.cpu.keys(), ...current.cpu.keys()]);
for (const name of [...names]
  .sort((a, b) => Math.abs(cpu(current, b) - cpu(base, b)) - Math.abs(cpu(current, a) - cpu(base, a)))
  .slice(0, 40)) {
  console.log(`${fmt(cpu(base, name))} →${fmt(cpu(current, name))} ms  ${name}`);
}
console.log(`\nprofiles and SQL traces: ${out}`);

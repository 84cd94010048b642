// Where the writes of the `scale` group spend their time, at both sizes. For each size and each
// write, a service process of its own on a copy of the filled site, under `node --cpu-prof` and
// with bench/sql-trace.mjs preloaded: one warm-up write, then `n` measured ones. Prints, per write,
// the SQL statements by time per write (calls, rows read) and the functions whose inclusive CPU
// time per write grew most from the small site to the large one.
//   BENCH_SCALE_KEEP=/tmp/scale BENCH_ONLY=scale npm run bench     # once, keeps the filled sites
//   node --import tsx bench/profile-scale.ts /tmp/scale [page_write,frame_write,…] [n]
// The profiles and traces stay in bench/results/profiles-scale/.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inclusiveTimes } from "./cpu-profile.ts";
import { Api, median, memoryOf, ROOT, sleep, startService } from "./lib.ts";
import { poolsOf, SCALE_LARGE, SCALE_SMALL, writeOnce, WRITES, type Write } from "./scale.ts";
import type { FilledScale } from "./scale-site.ts";

const kept = process.argv[2];
if (!kept) throw new Error("usage: bench/profile-scale.ts <dir kept by BENCH_SCALE_KEEP> [writes] [n]");
const writes = (process.argv[3] ? process.argv[3].split(",") : [...WRITES]) as Write[];
const n = Number(process.argv[4] ?? 0);
/** Measured writes per process when not given: fewer of the slow menu appends. */
const countFor = (w: Write, pages: number) => n || (w === "menu_append" ? (pages > 5_000 ? 3 : 10) : 20);
const out = join(ROOT, "bench/results/profiles-scale");
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

interface Taken {
  ms: number[];
  sql: Record<string, { calls: number; ms: number; rows: number }>;
  cpu: Map<string, number>;
  count: number;
  peakMb: number;
}

function loadFilled(pages: number): FilledScale {
  const saved = JSON.parse(readFileSync(join(kept, `scale-${pages}.json`), "utf8"));
  return { ...saved, ids: new Map(Object.entries(saved.ids)) };
}

/** Inclusive CPU time (µs) by function of a .cpuprofile, with its file and line. */
function inclusive(file: string): Map<string, number> {
  return inclusiveTimes(file, ({ functionName, url, lineNumber }) => {
    const where = url.replace(/^.*?\/node_modules\//, "nm/").replace(/^file:\/\/.*?\/(dist|src|bench|test)\//, "$1/");
    return `${functionName || "(anonymous)"} ${where}:${lineNumber + 1}`;
  });
}

async function take(pages: number, write: Write): Promise<Taken> {
  const filled = loadFilled(pages);
  const data = mkdtempSync(join(tmpdir(), "svc-profile-scale-"));
  const dir = join(out, `${pages}-${write}`);
  const trace = join(out, `${pages}-${write}.sql.json`);
  try {
    cpSync(join(kept, `scale-${pages}`), data, { recursive: true });
    const service = await startService(data, { SQL_TRACE_FILE: trace }, [
      "--cpu-prof",
      `--cpu-prof-dir=${dir}`,
      "--import",
      join(ROOT, "bench/sql-trace.mjs"),
    ]);
    const ms: number[] = [];
    const count = countFor(write, pages);
    let peakMb = 0;
    try {
      const api = new Api(service.port);
      const pools = poolsOf(filled);
      await writeOnce[write](api, filled, pools, 0);
      process.kill(service.pid, "SIGUSR2");
      await sleep(200); // the signal is handled on the service's event loop, not before the next request
      for (let r = 1; r <= count; r++) ms.push(await writeOnce[write](api, filled, pools, r));
      peakMb = memoryOf(service.pid).peakMb;
    } finally {
      await service.stop();
    }
    const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"))!;
    return { ms, sql: JSON.parse(readFileSync(trace, "utf8")), cpu: inclusive(join(dir, file)), count, peakMb };
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
}

const fmt = (v: number, d = 1) => v.toFixed(d).padStart(9);

for (const write of writes) {
  const small = await take(SCALE_SMALL, write);
  const large = await take(SCALE_LARGE, write);
  console.log(
    `\n=== ${write}: median ${median(small.ms).toFixed(1)} ms at ${SCALE_SMALL} pages, ${median(large.ms).toFixed(1)} ms at ${SCALE_LARGE} (${small.count} and ${large.count} writes; peak RSS ${small.peakMb.toFixed(0)} and ${large.peakMb.toFixed(0)} MB)`,
  );
  console.log(`--- SQL per write (ms, calls, rows read) at ${SCALE_SMALL} → ${SCALE_LARGE}, by time at ${SCALE_LARGE}`);
  const sqls = new Set([...Object.keys(small.sql), ...Object.keys(large.sql)]);
  const per = (t: Taken, sql: string) => {
    const e = t.sql[sql] ?? { calls: 0, ms: 0, rows: 0 };
    return { ms: e.ms / t.count, calls: e.calls / t.count, rows: e.rows / t.count };
  };
  const totals = (t: Taken) =>
    Object.values(t.sql).reduce(
      (a, e) => ({ ms: a.ms + e.ms / t.count, calls: a.calls + e.calls / t.count, rows: a.rows + e.rows / t.count }),
      { ms: 0, calls: 0, rows: 0 },
    );
  const [ts, tl] = [totals(small), totals(large)];
  console.log(
    `${fmt(ts.ms)} →${fmt(tl.ms)} ms ${fmt(ts.calls, 0)} →${fmt(tl.calls, 0)} calls ${fmt(ts.rows, 0)} →${fmt(tl.rows, 0)} rows  (all statements)`,
  );
  for (const sql of [...sqls].sort((a, b) => per(large, b).ms - per(large, a).ms).slice(0, 14)) {
    const [s, l] = [per(small, sql), per(large, sql)];
    console.log(
      `${fmt(s.ms)} →${fmt(l.ms)} ms ${fmt(s.calls, 1)} →${fmt(l.calls, 1)} calls ${fmt(s.rows, 0)} →${fmt(l.rows, 0)} rows  ${sql.replace(/\s+/g, " ").slice(0, 230)}`,
    );
  }
  console.log(
    `--- CPU of the service's own functions (dist/) and the garbage collector, inclusive ms per write, ${SCALE_SMALL} → ${SCALE_LARGE}, by growth (the warm-up write included, divided by the measured writes)`,
  );
  const names = new Set(
    [...small.cpu.keys(), ...large.cpu.keys()].filter(
      (name) => name.includes(" dist/") || name.startsWith("(garbage collector)"),
    ),
  );
  const cpu = (t: Taken, name: string) => (t.cpu.get(name) ?? 0) / 1000 / t.count;
  for (const name of [...names]
    .sort((a, b) => cpu(large, b) - cpu(small, b) - (cpu(large, a) - cpu(small, a)))
    .slice(0, 25)) {
    console.log(`${fmt(cpu(small, name))} →${fmt(cpu(large, name))} ms  ${name}`);
  }
}
console.log(`\nprofiles and SQL traces: ${out}`);

// Where the webhooks group's writes spend their time with one active webhook and without any
// (bench/README.md, "Events and webhooks"): two services of this checkout's build, filled as the
// group fills them, restarted under `node --cpu-prof` with bench/sql-trace.mjs preloaded, the hook
// made on one (its receiver the group's, in this process); ten warm-up writes, then `n` measured
// ones on each, one write each in turn, and a pause for the last deliveries. Prints the SQL
// statements by time per write and the functions whose inclusive CPU time per write differs most.
//   npm run build && node --import tsx bench/webhooks-profile.ts [n]
// The profiles and traces stay in bench/results/profiles-webhooks/.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inclusiveTimes } from "./cpu-profile.ts";
import { Api, cpuMsOf, ROOT, sleep, startService } from "./lib.ts";
import { startBenchReceiver } from "./webhook-receiver.ts";
import { fillLists, writeOf } from "./webhooks.ts";
import { fill } from "./written-site.ts";

const n = Number(process.argv[2] ?? 300);
const out = join(ROOT, "bench/results/profiles-webhooks");
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const sides = ["unhooked", "hooked"] as const;
type Side = (typeof sides)[number];
const fmt = (v: number, d = 2) => v.toFixed(d).padStart(8);

const data = mkdtempSync(join(tmpdir(), "svc-profile-webhooks-"));
const receiver = await startBenchReceiver();
const env = { SVC_WEBHOOKS_ALLOW_PRIVATE: "1" };
let pageIds: number[] = [];
const cpuMs = {} as Record<Side, number>;
try {
  for (const side of sides) {
    const service = await startService(join(data, side), env);
    try {
      const api = new Api(service.port);
      pageIds = (await fill(api, 0)).pageIds;
      await fillLists(api);
      if (side === "hooked") await api.call("POST", "/api/site/1/webhooks", { url: receiver.url });
    } finally {
      await service.stop();
    }
  }
  const services = await Promise.all(
    sides.map((side) =>
      startService(join(data, side), { ...env, SQL_TRACE_FILE: join(out, `${side}.sql.json`) }, [
        "--cpu-prof",
        `--cpu-prof-dir=${join(out, side)}`,
        "--import",
        join(ROOT, "bench/sql-trace.mjs"),
      ]),
    ),
  );
  try {
    const apis = services.map((service) => new Api(service.port));
    const write = writeOf(pageIds);
    for (let i = 0; i < 10; i++) for (const api of apis) await write(api, i);
    await sleep(1_500);
    for (const service of services) process.kill(service.pid, "SIGUSR2");
    await sleep(200);
    const cpu0 = services.map((service) => cpuMsOf(service.pid));
    for (let i = 10; i < 10 + n; i++) for (let j = 0; j < 2; j++) await write(apis[(i + j) % 2]!, i);
    await sleep(1_500);
    for (const [k, side] of sides.entries()) cpuMs[side] = (cpuMsOf(services[k]!.pid) - cpu0[k]!) / n;
  } finally {
    await Promise.all(services.map((service) => service.stop()));
  }
} finally {
  await receiver.close();
  rmSync(data, { recursive: true, force: true });
}

const sql = (side: Side): Record<string, { calls: number; ms: number; rows: number }> =>
  JSON.parse(readFileSync(join(out, `${side}.sql.json`), "utf8"));
const cpu = (side: Side) => {
  const dir = join(out, side);
  return inclusiveTimes(join(dir, readdirSync(dir).find((f) => f.endsWith(".cpuprofile"))!), (frame) =>
    `${frame.functionName || "(anonymous)"} ${frame.url.includes("/node_modules/") ? "nm" : frame.url.startsWith("node:") ? "node" : ""}`.trim(),
  );
};
console.log(
  `=== ${n} writes each (a frame, a page and a data set in turn): CPU ${cpuMs.unhooked.toFixed(2)} ms a write without a hook, ${cpuMs.hooked.toFixed(2)} with one`,
);
const [without, withHook] = [sql("unhooked"), sql("hooked")];
const per = (s: typeof without, text: string) => {
  const e = s[text] ?? { calls: 0, ms: 0, rows: 0 };
  return { ms: e.ms / n, calls: e.calls / n, rows: e.rows / n };
};
const total = (s: typeof without) =>
  Object.keys(s).reduce((a, text) => ({ ms: a.ms + per(s, text).ms, calls: a.calls + per(s, text).calls }), {
    ms: 0,
    calls: 0,
  });
console.log(`--- SQL per write, without → with the hook (ms, calls, rows read), by the difference in time`);
console.log(
  `${fmt(total(without).ms)} →${fmt(total(withHook).ms)} ms ${fmt(total(without).calls, 1)} →${fmt(total(withHook).calls, 1)} calls  (all statements)`,
);
const texts = new Set([...Object.keys(without), ...Object.keys(withHook)]);
const gap = (text: string) => Math.abs(per(withHook, text).ms - per(without, text).ms);
for (const text of [...texts].sort((a, b) => gap(b) - gap(a)).slice(0, 16)) {
  const [a, b] = [per(without, text), per(withHook, text)];
  console.log(
    `${fmt(a.ms, 3)} →${fmt(b.ms, 3)} ms ${fmt(a.calls, 2)} →${fmt(b.calls, 2)} calls ${fmt(a.rows, 0)} →${fmt(b.rows, 0)} rows  ${text.replace(/\s+/g, " ").slice(0, 200)}`,
  );
}
console.log(`--- CPU by function (inclusive ms per write), without → with the hook, by the difference`);
const [cpuWithout, cpuWith] = [cpu("unhooked"), cpu("hooked")];
const ms = (times: Map<string, number>, name: string) => (times.get(name) ?? 0) / 1000 / n;
const names = new Set([...cpuWithout.keys(), ...cpuWith.keys()]);
const diff = (name: string) => Math.abs(ms(cpuWith, name) - ms(cpuWithout, name));
for (const name of [...names].sort((a, b) => diff(b) - diff(a)).slice(0, 40))
  console.log(`${fmt(ms(cpuWithout, name))} →${fmt(ms(cpuWith, name))} ms  ${name}`);
console.log(`\nprofiles and SQL traces: ${out}`);

// What each dependency patch of the build (scripts/dependency-patches.mjs) saves of a start:
// `node --import tsx bench/patch-savings.ts` (PATCH_ROUNDS=<n>, default 15). Not part of
// `npm run bench`; its numbers are in docs/architecture.md and bench/README.md ("Cold start").
//
// Builds the service with every patch, with none, and with every patch but one (SVC_BUILD_PATCHES,
// SVC_BUILD_DIR: scripts/build.mjs) into .tmp/patch-savings/, then starts each build as the cold
// start scenario does (bench/run.ts: spawn `node dist/main.js`, poll /healthz every 5 ms, the
// code cache made by a first start), in rounds, the builds in a different order each round, so a
// burst of other work on the machine moves a round of all of them. Each start on a fresh data
// directory (database made, migrations) and, alternately first, on an existing one.
//
// A patch saves the median start without it less the median start with all of them; printed
// beside, the median of that difference within each round, which a slow stretch of the machine
// moves less, and the same of the CPU time the process had used when its first answer was sent
// (process.cpuUsage(), from a preloaded file), which other work on the machine moves less again.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
// @ts-expect-error a build script (plain JavaScript), typed here by its use
import { PATCHES } from "../scripts/dependency-patches.mjs";
import { median, ROOT, round, startService } from "./lib.ts";

const ROUNDS = Number(process.env.PATCH_ROUNDS ?? 15);
const WORK = join(ROOT, ".tmp", "patch-savings");
const patches = PATCHES as Array<{ id: string; file: string }>;
const ids = patches.map((patch) => patch.id);
const packageOf = (patch: { file: string }) => patch.file.split("/")[0]!;
const withPatchesOf = [...new Set(patches.map(packageOf))].filter(
  (name) => patches.filter((patch) => packageOf(patch) === name).length > 1,
);
const allBut = (left: string[]) => ids.filter((id) => !left.includes(id)).join(",") || "0";

/** Each build: its name and SVC_BUILD_PATCHES (once each: with one patch, "without" it is "no patch"). */
const variants = [
  { name: "all patches", setting: "1" },
  { name: "no patch", setting: "0" },
  ...ids.map((id) => ({ name: `without ${id}`, setting: allBut([id]) })),
  // A package's patches together, where it has several.
  ...withPatchesOf.map((name) => ({
    name: `without ${name}'s patches`,
    setting: allBut(patches.filter((patch) => packageOf(patch) === name).map((patch) => patch.id)),
  })),
].filter((variant, i, all) => all.findIndex((other) => other.setting === variant.setting) === i);

rmSync(WORK, { recursive: true, force: true });
mkdirSync(WORK, { recursive: true });
const folders = variants.map((variant, i) => {
  const folder = join(WORK, `build-${i}`);
  execFileSync(process.execPath, ["scripts/build.mjs"], {
    cwd: ROOT,
    env: { ...process.env, SVC_BUILD_PATCHES: variant.setting, SVC_BUILD_DIR: join(folder, "dist") },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return folder;
});
// The CPU time at the first answer, written where the CPU_AT_FIRST_ANSWER variable says.
const preload = join(WORK, "cpu-at-first-answer.cjs");
writeFileSync(
  preload,
  `const channel = require("node:diagnostics_channel");
   channel.subscribe("http.server.response.finish", function first() {
     channel.unsubscribe("http.server.response.finish", first);
     const { user, system } = process.cpuUsage();
     require("node:fs").writeFileSync(process.env.CPU_AT_FIRST_ANSWER, String((user + system) / 1000));
   });`,
);
const cpuFile = join(WORK, "cpu-ms");
const env = {
  SVC_CODE_CACHE_DIR: join(WORK, "code-cache"),
  NODE_OPTIONS: `--require ${preload}`,
  CPU_AT_FIRST_ANSWER: cpuFile,
};

type Kind = "fresh" | "existing";
const times = variants.map(() => ({
  fresh: { ms: [] as number[], cpu: [] as number[] },
  existing: { ms: [] as number[], cpu: [] as number[] },
}));
const existingDirs = folders.map((folder) => join(folder, "existing-data"));

async function start(variant: number, kind: Kind): Promise<void> {
  const dataDir = kind === "fresh" ? mkdtempSync(join(WORK, "fresh-")) : existingDirs[variant]!;
  const service = await startService(dataDir, env, [], { root: folders[variant] });
  await service.stop();
  const cpu = Number(readFileSync(cpuFile, "utf8"));
  times[variant]![kind].ms.push(service.startMs);
  times[variant]![kind].cpu.push(cpu);
  if (kind === "fresh") rmSync(dataDir, { recursive: true, force: true });
}

// A first start of each: its code cache, and the existing data directory.
for (let v = 0; v < variants.length; v++)
  await (await startService(existingDirs[v]!, env, [], { root: folders[v] })).stop();
const loads: number[] = [loadavg()[0]!];
for (let r = 0; r < ROUNDS; r++) {
  const order = variants.map((_, v) => (v + r) % variants.length);
  const kinds: Kind[] = r % 2 === 0 ? ["fresh", "existing"] : ["existing", "fresh"];
  for (const kind of kinds) for (const v of order) await start(v, kind);
  loads.push(loadavg()[0]!);
}

/** Medians of the starts, and of the differences to the build with all patches in the same round. */
function row(v: number, kind: Kind): string {
  const { ms, cpu } = times[v]![kind];
  const base = times[0]![kind];
  const paired = (mine: number[], theirs: number[]) => round(median(mine.map((value, r) => value - theirs[r]!)), 1);
  const saved =
    v === 0 ? ["", "", ""] : [round(median(ms) - median(base.ms), 1), paired(ms, base.ms), paired(cpu, base.cpu)];
  return [variants[v]!.name, round(median(ms), 0), saved[0], saved[1], round(median(cpu), 0), saved[2]].join(" | ");
}

console.log(
  `${ROUNDS} rounds, load average (1 min) ${round(Math.min(...loads), 1)}–${round(Math.max(...loads), 1)}, Node ${process.version}`,
);
for (const kind of ["fresh", "existing"] as Kind[]) {
  console.log(
    `\n${kind} data directory: build | median start (ms) | saved: difference of medians | saved: median of the differences in a round | CPU at first answer (ms) | CPU saved (median of the differences)`,
  );
  for (let v = 0; v < variants.length; v++) console.log(row(v, kind));
}
console.log(JSON.stringify({ rounds: ROUNDS, variants: variants.map((variant, v) => ({ ...variant, ...times[v] })) }));
rmSync(WORK, { recursive: true, force: true });

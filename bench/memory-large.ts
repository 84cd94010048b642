// Scenario 7's measured step alone, for working on the service's memory (bench/README.md, "Memory,
// back under 300 MB"). Fills the large site once into a kept directory, then, for each run, starts
// the service on a fresh copy of it, runs the full rebake (`PATCH /settings {tagline}`), serves
// every page once and prints RSS before, after and at its peak (VmHWM), as npm run bench does,
// with what bench/memory-sampler.mjs saw inside the process at its highest RSS.
//
//   npm run build && node --import tsx bench/memory-large.ts [runs]
//
// MEMORY_KEEP=<dir>          the filled site (default <OS temp>/svc-large-filled; filled when missing, about 2 min)
// MEMORY_NODE_ARGS="<flags>" flags of the service's node, e.g. `--trace-gc-nvp`
// MEMORY_LOG=<file>          what the service prints once it answers (the collections, with the flag above)
// MEMORY_SERIES=1            the sampler's series (every 200 ms)
// MEMORY_SAMPLER=0           without the sampler
// MEMORY_SNAPSHOT_MB=<n>     a heap snapshot once RSS passes n MB (its path is printed)
// MEMORY_SNAPSHOT_END=1      with MEMORY_NODE_ARGS=--heapsnapshot-signal=SIGUSR2: a snapshot once every
//                            page was served (node writes it into this checkout)
// MEMORY_ALLOC_PROFILE=<file> a sampling heap profile (MEMORY_ALLOC_ALL=1: of everything allocated)
import { cpSync, createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fillLarge, LARGE_FRAMES, LARGE_PAGES } from "./fill.ts";
import { Api, http, memoryOf, ROOT, sleep, startService } from "./lib.ts";

const keep = process.env.MEMORY_KEEP ?? join(tmpdir(), "svc-large-filled");
const runs = Number(process.argv[2] ?? 1);
const log = (message: string) => console.log(message);

if (!existsSync(keep)) {
  const t0 = performance.now();
  await fillLarge(keep, log);
  log(`filled ${keep} in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}

/** The rebake and the serving of scenario 7 on a running service: its RSS at each step. */
async function measure(service: Awaited<ReturnType<typeof startService>>, run: number): Promise<string> {
  const api = new Api(service.port);
  const before = memoryOf(service.pid);
  const t0 = performance.now();
  const { answer } = await api.timed("PATCH", "/api/site/1/settings", { tagline: `After a full rebake ${run}` });
  const seconds = (performance.now() - t0) / 1000;
  if (answer.rebaked.total !== LARGE_FRAMES || answer.rebaked.pages.length !== LARGE_PAGES)
    throw new Error(`full rebake: ${answer.rebaked.total} frames, ${answer.rebaked.pages.length} pages`);
  const rebaked = memoryOf(service.pid);
  for (let p = 0; p < LARGE_PAGES; p++) {
    const page = await http(service.port, "GET", `/page-${p}/`, { headers: { host: "localhost" } });
    if (page.status !== 200) throw new Error(`/page-${p}/: ${page.status}`);
  }
  await sleep(200);
  const served = memoryOf(service.pid);
  if (process.env.MEMORY_SNAPSHOT_END === "1") {
    process.kill(service.pid, "SIGUSR2");
    await sleep(15_000);
  }
  const peak = Math.max(served.peakMb, served.rssMb, rebaked.rssMb);
  const mb = (n: number) => n.toFixed(0);
  return `rebake ${seconds.toFixed(1)} s; RSS before ${mb(before.rssMb)} MB, after the rebake ${mb(rebaked.rssMb)} MB, after serving ${mb(served.rssMb)} MB; peak ${peak.toFixed(1)} MB`;
}

for (let run = 1; run <= runs; run++) {
  const work = mkdtempSync(join(tmpdir(), "svc-memory-"));
  const dataDir = join(work, "data");
  cpSync(keep, dataDir, { recursive: true });
  const samples = join(work, "samples.json");
  const snapshot = join(work, "peak.heapsnapshot");
  const nodeArgs = process.env.MEMORY_SAMPLER === "0" ? [] : [`--import=${join(ROOT, "bench/memory-sampler.mjs")}`];
  if (process.env.MEMORY_NODE_ARGS) nodeArgs.push(...process.env.MEMORY_NODE_ARGS.split(" "));
  const service = await startService(
    dataDir,
    {
      MEMORY_SAMPLES_FILE: samples,
      MEMORY_SNAPSHOT_FILE: snapshot,
      MEMORY_SNAPSHOT_MB: process.env.MEMORY_SNAPSHOT_MB ?? "",
      MEMORY_ALLOC_PROFILE: process.env.MEMORY_ALLOC_PROFILE ?? "",
    },
    nodeArgs,
  );
  if (process.env.MEMORY_LOG) {
    const out = createWriteStream(process.env.MEMORY_LOG);
    service.child.stdout!.pipe(out);
    service.child.stderr!.pipe(out);
  }
  try {
    log(`run ${run}: ${await measure(service, run)}`);
  } finally {
    await service.stop();
  }
  if (existsSync(samples)) {
    const { peak, series } = JSON.parse(readFileSync(samples, "utf8"));
    const { spaces, ...rest } = peak;
    log(`  at the highest RSS seen inside (MB): ${JSON.stringify(rest)}`);
    log(`  V8 spaces then (MB resident, used): ${JSON.stringify(spaces)}`);
    if (process.env.MEMORY_SERIES === "1") for (const row of series) log(`  ${row.join("\t")}`);
  }
  if (existsSync(snapshot)) log(`  heap snapshot: ${snapshot}`);
  else rmSync(work, { recursive: true, force: true });
}

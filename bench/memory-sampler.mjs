// Loaded into the service under test with `--import` by bench/memory-large.ts (plain JavaScript:
// it runs before the bundle, with no tsx). Every 20 ms it samples the process's memory and keeps
// the sample of the highest RSS: V8's heap and each of its spaces (resident, used), external
// memory, RSS by kind (/proc), the render workers and their heaps; every 200 ms a row of the
// series (seconds, RSS, heap used, heap total, external, in MB). Both go to $MEMORY_SAMPLES_FILE
// as the process exits.
//   $MEMORY_SNAPSHOT_MB: a heap snapshot of the main thread ($MEMORY_SNAPSHOT_FILE) once RSS
//   first passes that many MB (bench/heap-summary.mjs, bench/heap-retainers.mjs read it).
//   $MEMORY_ALLOC_PROFILE: V8's sampling heap profile of the whole run, written there at exit
//   (bench/alloc-summary.mjs): what reached the old generation; with MEMORY_ALLOC_ALL=1, everything.
import { readFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { getHeapSpaceStatistics, writeHeapSnapshot } from "node:v8";
import workerThreads from "node:worker_threads";

const workers = new Set();
const Original = workerThreads.Worker;
// The bundle reads Worker off the module object when it starts a render worker.
workerThreads.Worker = class extends Original {
  constructor(...args) {
    super(...args);
    workers.add(this);
    this.once("exit", () => workers.delete(this));
  }
};

const mb = (bytes) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** RSS of anonymous memory, of mapped files and of shared memory, in MB (/proc/self/status). */
function rssParts() {
  const status = readFileSync("/proc/self/status", "utf8");
  const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
  return { anon: mb(kb("RssAnon") * 1024), file: mb(kb("RssFile") * 1024), shmem: mb(kb("RssShmem") * 1024) };
}

const snapshotAt = Number(process.env.MEMORY_SNAPSHOT_MB || 0);
let snapshotTaken = false;
let peak = { rssBytes: 0 };
let workerHeaps = [];
const series = [];
let ticks = 0;

function sample() {
  const usage = process.memoryUsage();
  if (ticks++ % 10 === 0)
    series.push([
      Math.round(process.uptime() * 10) / 10,
      mb(usage.rss),
      mb(usage.heapUsed),
      mb(usage.heapTotal),
      mb(usage.external),
    ]);
  if (usage.rss > peak.rssBytes) {
    peak = {
      rssBytes: usage.rss,
      rss: mb(usage.rss),
      heapUsed: mb(usage.heapUsed),
      heapTotal: mb(usage.heapTotal),
      external: mb(usage.external),
      arrayBuffers: mb(usage.arrayBuffers),
      status: rssParts(),
      workers: workers.size,
      workerHeaps,
      spaces: Object.fromEntries(
        getHeapSpaceStatistics()
          .filter((space) => space.physical_space_size > 0)
          .map((space) => [space.space_name, [mb(space.physical_space_size), mb(space.space_used_size)]]),
      ),
    };
  }
  if (snapshotAt > 0 && !snapshotTaken && usage.rss > snapshotAt * 1024 * 1024) {
    snapshotTaken = true;
    writeHeapSnapshot(process.env.MEMORY_SNAPSHOT_FILE);
  }
}

setInterval(() => {
  sample();
  for (const worker of workers)
    worker.getHeapStatistics().then(
      (stats) => {
        workerHeaps = [mb(stats.used_heap_size), mb(stats.total_heap_size)];
      },
      () => {},
    );
}, 20).unref();

const profileFile = process.env.MEMORY_ALLOC_PROFILE;
const session = profileFile ? new Session() : undefined;
if (session) {
  session.connect();
  session.post("HeapProfiler.startSampling", {
    samplingInterval: 16384,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: process.env.MEMORY_ALLOC_ALL === "1",
  });
}

process.on("exit", () => {
  sample();
  // An in-thread session answers at once, so this runs before the process is gone.
  session?.post("HeapProfiler.stopSampling", (error, result) => {
    if (!error) writeFileSync(profileFile, JSON.stringify(result.profile));
  });
  if (process.env.MEMORY_SAMPLES_FILE) writeFileSync(process.env.MEMORY_SAMPLES_FILE, JSON.stringify({ peak, series }));
});

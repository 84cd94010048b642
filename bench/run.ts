// `npm run bench` (bench/README.md): starts the service as a real process on fresh SQLite databases,
// fills it through the API, measures every scenario against its baseline in the same run, writes
// bench/results/latest.json and prints a table. Exits 0 when every target passes.
// See bench/README.md for what each scenario measures.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chainFrame, menuTree } from "./content.ts";
import { fillSmallSite } from "./small-site.ts";
import { fillLarge, fillPageList, LARGE_FRAMES, LARGE_PAGES, LIST_PAGES } from "./fill.ts";
import { scaleGroup } from "./scale.ts";
import { searchGroup } from "./search.ts";
import { mediaGroup } from "./media.ts";
import { stylesGroup } from "./styles.ts";
import { revisionsGroup } from "./revisions.ts";
import { webhooksGroup } from "./webhooks.ts";
import { fairnessGroup } from "./fairness.ts";
import {
  Api,
  ADMIN_TOKEN,
  compare,
  freePort,
  http,
  median,
  memoryOf,
  ROOT,
  round,
  sleep,
  startBare,
  startService,
  type Result,
  type Service,
} from "./lib.ts";

const S = "/api/site/1";
const RESULTS = join(ROOT, "bench/results");
const QUICK = process.env.BENCH_QUICK === "1";
/** Peak RSS of scenario 7 (bench/README.md, "Memory, back under 300 MB"). */
const MEMORY_TARGET_MB = 300;
/** Load settings: few connections and a few seconds, the same for the service and the bare server. */
const LOAD = { connections: 8, duration: QUICK ? 1 : 2, warmup: 1, rounds: QUICK ? 1 : 5 };
const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(",")) : null;
const wanted = (group: string) => !ONLY || ONLY.has(group);

const results: Result[] = [];
const notes: string[] = [];
const started = performance.now();

function log(message: string): void {
  process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(0).padStart(3)}s] ${message}\n`);
}

function record(result: Result): void {
  results.push(result);
  log(
    `${result.name}: ${result.value} ${result.unit} (baseline ${result.baseline}, ratio ${result.ratio}, target ${result.target}) ${result.pass ? "pass" : "FAIL"}`,
  );
}

function header(answer: { headers: Record<string, string | string[] | undefined> }, name: string): string | undefined {
  const value = answer.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/** Scenarios 1–2: a public page, served from memory, against the bare server answering the same bytes. */
async function publicPage(
  service: Service,
  name: string,
  path: string,
  printed: string,
  target: number,
): Promise<void> {
  const headers = { host: "localhost" };
  let answer = await http(service.port, "GET", path, { headers });
  for (let i = 0; i < 3 && header(answer, "x-svc-printed") !== printed; i++)
    answer = await http(service.port, "GET", path, { headers });
  if (answer.status !== 200 || header(answer, "x-svc-printed") !== printed)
    throw new Error(
      `${path}: expected 200 printed ${printed}, got ${answer.status} ${header(answer, "x-svc-printed")}`,
    );
  const bare = await startBare(answer, join(RESULTS, `answer-${name}.json`));
  try {
    const {
      service: s,
      bare: b,
      ratio,
    } = await compare(`http://127.0.0.1:${service.port}${path}`, `http://127.0.0.1:${bare.port}${path}`, {
      ...LOAD,
      headers,
    });
    const after = await http(service.port, "GET", path, { headers });
    if (header(after, "x-svc-printed") !== printed)
      throw new Error(`${path} was not served as ${printed} after the run`);
    record({
      name,
      value: round(s.rps, 0),
      unit: "req/s",
      baseline: round(b.rps, 0),
      ratio: round(ratio, 3),
      target: `>= ${target}`,
      pass: ratio >= target,
    });
    notes.push(`${name}: ${answer.body.length} bytes; p99 ${s.p99} ms (bare ${b.p99} ms)`);
  } finally {
    await bare.stop();
  }
}

/** An authenticated API read against the bare server answering the same bytes, with its p99. */
async function apiRead(service: Service, name: string, path: string, target: number, what: string): Promise<void> {
  const headers = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const answer = await http(service.port, "GET", path, { headers });
  if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.body}`);
  const bare = await startBare(answer, join(RESULTS, `answer-${name}.json`));
  try {
    const {
      service: s,
      bare: b,
      ratio,
    } = await compare(`http://127.0.0.1:${service.port}${path}`, `http://127.0.0.1:${bare.port}${path}`, {
      ...LOAD,
      headers,
    });
    record({
      name,
      value: round(s.rps, 0),
      unit: "req/s",
      baseline: round(b.rps, 0),
      ratio: round(ratio, 3),
      target: `>= ${target}`,
      pass: ratio >= target,
    });
    record({
      name: `${name}_p99`,
      value: s.p99,
      unit: "ms",
      baseline: b.p99,
      ratio: round(s.p99 / Math.max(b.p99, 1), 2),
      target: "reported",
      pass: true,
    });
    notes.push(
      `${name}: ${what}, ${answer.body.length} bytes of JSON; p50 ${s.p50} ms, p99 ${s.p99} ms (bare p50 ${b.p50} ms, p99 ${b.p99} ms)`,
    );
  } finally {
    await bare.stop();
  }
}

/** Scenario 3: an authenticated API read of a 4 KB frame. */
async function apiFrameGet(service: Service): Promise<void> {
  const answer = await http(service.port, "GET", `${S}/frames/card-4k`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  if (Buffer.byteLength(JSON.parse(answer.body.toString()).frame.html) < 4000) throw new Error("the frame is not 4 KB");
  await apiRead(service, "api_frame_get_4kb", `${S}/frames/card-4k`, 0.6, "a 4 KB frame");
}

/** Scenario 15: a page of a list, 100 pages of a site of 2,000, as the CLI and agents page through them. */
async function apiPageList(service: Service, api: Api): Promise<void> {
  await fillPageList(api, LIST_PAGES, log);
  const path = `${S}/pages?per_page=100`;
  const answer = await http(service.port, "GET", path, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  const listed = JSON.parse(answer.body.toString());
  if (listed.pages.length !== 100 || listed.total < LIST_PAGES)
    throw new Error(`${path}: not 100 of ${LIST_PAGES} pages`);
  await apiRead(service, "api_page_list_100", path, 0.5, `100 pages of ${listed.total}`);
}

/** Scenario 4: markup analysis, in a process of its own while the service is idle. */
async function markupAnalysis(): Promise<void> {
  const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "bench/markup-analysis.ts")], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  const [code] = await once(child, "exit");
  if (code !== 0) throw new Error(`markup analysis exited with ${code}`);
  record(JSON.parse(out.trim().split("\n").pop()!) as Result);
}

/** Scenario 13: templating, a layout chain against the same output flat, in a process of its own. */
async function templating(): Promise<void> {
  const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "bench/templating.ts")], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  const [code] = await once(child, "exit");
  if (code !== 0) throw new Error(`templating exited with ${code}`);
  const measured = JSON.parse(out.trim().split("\n").pop()!) as { results: Result[]; notes: string[] };
  for (const result of measured.results) record(result);
  notes.push(...measured.notes);
}

/**
 * Scenario 5: a frame embedded by `n` frames, half directly and half through those (two levels),
 * one page on every tenth embedder. Returns the leaf's slug.
 */
async function embeddingFamily(api: Api, n: number): Promise<string> {
  const leaf = `leaf-${n}`;
  await api.call("POST", `${S}/frames`, { slug: leaf, html: chainFrame(0, null) });
  const direct = n / 2;
  for (let i = 0; i < n; i++) {
    const slug = `emb-${n}-${i}`;
    const child = i < direct ? leaf : `emb-${n}-${i - direct}`;
    await api.call("POST", `${S}/frames`, { slug, html: chainFrame(i, child) });
    if (i % 10 === 0)
      await api.call("POST", `${S}/pages`, { title: `Embedder ${n} ${i}`, slug: `emb-${n}-${i}`, frame: slug });
  }
  return leaf;
}

async function rebakeGrowth(api: Api): Promise<void> {
  let t0 = performance.now();
  const small = await embeddingFamily(api, 100);
  const large = await embeddingFamily(api, 1000);
  log(`embedding families written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const times: Record<string, number[]> = { [small]: [], [large]: [] };
  const runs = QUICK ? 2 : 4;
  for (let i = 0; i < runs + 1; i++) {
    for (const leaf of [small, large]) {
      const { ms, answer } = await api.timed("PUT", `${S}/frames/${leaf}`, { html: chainFrame(i + 1, null) });
      const expected = leaf === small ? 100 : 1000;
      if (answer.rebaked.total !== expected)
        throw new Error(`PUT ${leaf} rebaked ${answer.rebaked.total} frames, expected ${expected}`);
      if (i > 0) times[leaf].push(ms); // the first round warms up
    }
  }
  t0 = median(times[small]);
  const t1 = median(times[large]);
  const ratio = t1 / t0;
  record({
    name: "rebake_growth_1000_vs_100",
    value: round(t1, 1),
    unit: "ms",
    baseline: round(t0, 1),
    ratio: round(ratio, 2),
    target: "<= 12",
    pass: ratio <= 12,
  });
}

/** Scenario 6: PUT of a whole 100-item and 1,000-item menu tree. */
async function menuGrowth(api: Api, pageIds: number[]): Promise<void> {
  const created = await api.call("POST", `${S}/menus`, { name: "Footer", location: "footer_1", items: [] });
  const ref = created.menu.id;
  const times: Record<number, number[]> = { 100: [], 1000: [] };
  const runs = QUICK ? 2 : 4;
  for (let i = 0; i < runs + 1; i++) {
    for (const n of [100, 1000]) {
      const { ms, answer } = await api.timed("PUT", `${S}/menus/${ref}/items`, { items: menuTree(n, pageIds) });
      if (answer.total !== n) throw new Error(`menu PUT stored ${answer.total} items, expected ${n}`);
      if (i > 0) times[n].push(ms);
    }
  }
  const t0 = median(times[100]);
  const t1 = median(times[1000]);
  record({
    name: "menu_tree_growth_1000_vs_100",
    value: round(t1, 1),
    unit: "ms",
    baseline: round(t0, 1),
    ratio: round(t1 / t0, 2),
    target: "<= 12",
    pass: t1 / t0 <= 12,
  });
}

// ---------------------------------------------------------------------------------------------
// Scenario 9: cold start, what `npm start` runs (`node dist/main.js`) against a bare node:http
// process started the same way.

/**
 * Milliseconds from spawning to the first 200 on /healthz, of the bare server and of the service
 * on a fresh data directory (first start: database made, migrations, main site and admin) and on
 * an existing one (made by one start beforehand). Each round starts the bare server right before
 * each service start, fresh and existing alternating which goes first, so a burst of other work
 * on the machine moves a round of both. The ratio is median service time / median bare time: a
 * single bare start (about 0.1 s) is too noisy to divide by.
 */
async function coldStart(work: string): Promise<void> {
  const rounds = QUICK ? 3 : 11;
  const existingDir = join(work, "start-existing");
  await (await startService(existingDir)).stop();
  const times = {
    fresh: { service: [] as number[], bare: [] as number[] },
    existing: { service: [] as number[], bare: [] as number[] },
  };
  for (let i = 0; i < rounds; i++) {
    for (const kind of i % 2 === 0 ? (["fresh", "existing"] as const) : (["existing", "fresh"] as const)) {
      times[kind].bare.push(await bareColdStart());
      const service = await startService(kind === "fresh" ? join(work, `start-fresh-${i}`) : existingDir);
      await service.stop();
      times[kind].service.push(service.startMs);
    }
  }
  for (const kind of ["fresh", "existing"] as const) {
    const service = median(times[kind].service);
    const bare = median(times[kind].bare);
    const name = kind === "fresh" ? "cold_start" : "cold_start_existing_data";
    record({
      name,
      value: round(service, 0),
      unit: "ms",
      baseline: round(bare, 0),
      ratio: round(service / bare, 2),
      target: "<= 3",
      pass: service / bare <= 3,
    });
    notes.push(
      `${name}: service ${times[kind].service.map((ms) => round(ms, 0)).join(", ")} ms; bare ${times[kind].bare.map((ms) => round(ms, 0)).join(", ")} ms`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// The second service: 10,000 frames of 10 KB and 2,000 pages.

/** Milliseconds from spawning a bare node:http process to its first 200: the floor of any start. */
async function bareColdStart(): Promise<number> {
  const port = await freePort();
  const file = join(RESULTS, "answer-healthz.json");
  writeFileSync(
    file,
    JSON.stringify({
      status: 200,
      headers: { "content-type": "application/json" },
      body_base64: Buffer.from('{"ok":true}').toString("base64"),
    }),
  );
  const t0 = performance.now();
  const child = spawn(process.execPath, [join(ROOT, "bench/bare-server.mjs"), file, String(port)], {
    cwd: ROOT,
    stdio: "ignore",
  });
  try {
    for (;;) {
      try {
        if ((await http(port, "GET", "/healthz", { fresh: true })).status === 200) return performance.now() - t0;
      } catch {
        // not yet
      }
      await sleep(5);
    }
  } finally {
    child.kill("SIGTERM");
    await once(child, "exit");
  }
}

/** While working on the bench: start from a copy of a data directory filled by an earlier run. */
function copyFilled(from: string, dataDir: string) {
  cpSync(from, dataDir, { recursive: true });
  return { frames: LARGE_FRAMES, pages: LARGE_PAGES, how: `copied from ${from}` };
}

async function largeSite(dataDir: string): Promise<void> {
  const t0 = performance.now();
  const filled = process.env.BENCH_LARGE_FROM
    ? copyFilled(process.env.BENCH_LARGE_FROM, dataDir)
    : await fillLarge(dataDir, log);
  log(`large site filled in ${((performance.now() - t0) / 1000).toFixed(1)} s (${filled.how})`);
  notes.push(
    `large site: ${filled.frames} frames, ${filled.pages} pages, filled ${filled.how} in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );

  const service = await startService(dataDir);
  try {
    const api = new Api(service.port);
    // A full rebake: every frame prints site.name, so a settings change rebakes all of them and
    // rewrites the static copy of every page.
    const beforeRebake = memoryOf(service.pid);
    const { ms, answer } = await api.timed("PATCH", `${S}/settings`, { tagline: "After a full rebake" });
    const rebaked = answer.rebaked;
    if (rebaked.total !== filled.frames || rebaked.pages.length !== filled.pages)
      throw new Error(`full rebake: ${rebaked.total} frames, ${rebaked.pages.length} pages`);
    const afterRebake = memoryOf(service.pid);
    // Serve every page once, so the page cache holds them too.
    for (let i = 0; i < filled.pages; i++) {
      const page = await http(service.port, "GET", `/page-${i}/`, { headers: { host: "localhost" } });
      if (page.status !== 200) throw new Error(`/page-${i}/: ${page.status}`);
    }
    await sleep(200);
    const mem = memoryOf(service.pid);
    // The value is the peak resident set of the process (VmHWM): the full rebake itself included,
    // not only what stays once it is over.
    const peak = Math.max(mem.peakMb, mem.rssMb, afterRebake.rssMb);
    notes.push(
      `full rebake of ${rebaked.total} frames and ${rebaked.pages.length} pages: ${(ms / 1000).toFixed(1)} s; RSS before it ${beforeRebake.rssMb.toFixed(0)} MB, after it ${afterRebake.rssMb.toFixed(0)} MB, after serving every page once ${mem.rssMb.toFixed(0)} MB, peak ${mem.peakMb.toFixed(0)} MB`,
    );
    record({
      name: "memory_10k_frames_2k_pages",
      value: round(peak, 1),
      unit: "MB",
      baseline: MEMORY_TARGET_MB,
      ratio: round(peak / MEMORY_TARGET_MB, 3),
      target: `<= ${MEMORY_TARGET_MB} MB (peak RSS)`,
      pass: peak <= MEMORY_TARGET_MB,
    });
  } finally {
    await service.stop();
  }

  const bare = await bareColdStart();
  const again = await startService(dataDir);
  await again.stop();
  record({
    name: "cold_start_10k_frames",
    value: round(again.startMs, 0),
    unit: "ms",
    baseline: round(bare, 0),
    ratio: round(again.startMs / bare, 2),
    target: "reported",
    pass: true,
  });
}

// ---------------------------------------------------------------------------------------------

function table(rows: Result[]): string {
  const cells = [
    ["scenario", "value", "baseline", "ratio", "target", "pass"],
    ...rows.map((r) => [
      r.name,
      `${r.value} ${r.unit}`,
      `${r.baseline}`,
      `${r.ratio}`,
      r.target,
      r.pass ? "yes" : "NO",
    ]),
  ];
  const widths = cells[0].map((_, i) => Math.max(...cells.map((row) => row[i].length)));
  return cells
    .map(
      (row, n) =>
        row.map((cell, i) => (i === 0 || i === 4 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ") +
        (n === 0 ? `\n${widths.map((w) => "-".repeat(w)).join("  ")}` : ""),
    )
    .join("\n");
}

async function main(): Promise<void> {
  mkdirSync(RESULTS, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), "svc-bench-"));
  try {
    // First, while nothing else of the bench runs.
    if (wanted("start")) await coldStart(work);
    // Pure CPU work in a process of its own: also while nothing else of the bench runs.
    if (wanted("templating")) await templating();
    if (["static", "cached", "api", "list", "markup", "rebake", "menu"].some(wanted)) {
      const service = await startService(join(work, "small"));
      try {
        const api = new Api(service.port);
        const { pageIds } = await fillSmallSite(api);
        if (wanted("static")) await publicPage(service, "public_static_copy", "/about/", "static", 0.9);
        if (wanted("cached")) await publicPage(service, "public_on_request_cached", "/news/", "cache", 0.9);
        if (wanted("api")) await apiFrameGet(service);
        if (wanted("markup")) await markupAnalysis();
        if (wanted("rebake")) await rebakeGrowth(api);
        if (wanted("menu")) await menuGrowth(api, pageIds);
        // Last: its 2,000 pages would change what the scenarios above measure.
        if (wanted("list")) await apiPageList(service, api);
      } finally {
        await service.stop();
      }
    }
    if (wanted("media")) {
      const service = await startService(join(work, "media"));
      try {
        await mediaGroup(service, work, RESULTS, { log, record, note: (text) => notes.push(text) });
      } finally {
        await service.stop();
      }
    }
    if (wanted("styles")) {
      const service = await startService(join(work, "styles"));
      try {
        await stylesGroup(service, RESULTS, { log, record, note: (text) => notes.push(text) });
      } finally {
        await service.stop();
      }
    }
    // Revisions: three services of its own (one the commit before revisions, built in a worktree).
    if (wanted("revisions")) await revisionsGroup(work, { log, record, note: (text) => notes.push(text) });
    // Webhooks: three services of its own (one the commit before events, built in a worktree) and the hook's receiver.
    if (wanted("webhooks")) await webhooksGroup(work, { log, record, note: (text) => notes.push(text) });
    if (wanted("fairness")) {
      const service = await startService(join(work, "fairness"));
      try {
        await fairnessGroup(service, { log, record, note: (text) => notes.push(text) });
      } finally {
        await service.stop();
      }
    }
    if (wanted("large")) await largeSite(join(work, "large"));
    if (wanted("scale")) await scaleGroup(work, { log, record, note: (text) => notes.push(text) });
    if (wanted("search")) await searchGroup(work, { log, record, note: (text) => notes.push(text) });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }

  writeFileSync(join(RESULTS, "latest.json"), `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(
    `\n${table(results)}\n\n${notes.map((n) => `- ${n}`).join("\n")}\n\nwhole run: ${((performance.now() - started) / 1000).toFixed(0)} s; results in bench/results/latest.json\n`,
  );
  process.exitCode = results.every((r) => r.pass) ? 0 : 1;
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(2);
});

// The `scale` group of `npm run bench` (bench/README.md, "Scale"): the same site at 2,000 and 20,000
// pages (bench/scale-site.ts), and on each, through the HTTP API of the running service, the
// median of many single requests of four writes. Each ratio is median(20k) / median(2k).
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fillScale, isLive, pageFrame, shapeOf, SOLO, type FillMode, type FilledScale } from "./scale-site.ts";
import { Api, median, memoryOf, round, startService, type Result } from "./lib.ts";

const S = "/api/site/1";
const QUICK = process.env.BENCH_QUICK === "1";
export const SCALE_SMALL = Number(process.env.BENCH_SCALE_SMALL ?? 2_000);
export const SCALE_LARGE = Number(process.env.BENCH_SCALE_LARGE ?? 20_000);
const MODE: FillMode = process.env.BENCH_SCALE_FILL === "api" ? "api" : "bulk";
/** Peak RSS of the 20k phase (bench/README.md, "Memory, back under 300 MB"). */
const PEAK_RSS_TARGET_MB = 350;
/**
 * Samples per write and size: at least MIN, then more while the phase's budget lasts, at most
 * MAX. The three quick writes take turns in rounds; the menu appends, which today republish every
 * page (see bench/README.md), have a phase of their own after them, so the garbage of those runs
 * does not land in the others' samples.
 */
const MIN_ROUNDS = QUICK ? 3 : 11;
const MIN_APPENDS = QUICK ? 3 : 5;
const MAX_ROUNDS = QUICK ? 3 : 31;
const BUDGET_S = Number(process.env.BENCH_SCALE_BUDGET_S ?? 25);

export const WRITES = ["page_write", "frame_write", "frame_create", "menu_append"] as const;
export type Write = (typeof WRITES)[number];

export interface ScaleHooks {
  log(message: string): void;
  record(result: Result): void;
  note(text: string): void;
}

/** The pages the writes use, the same places in the shape at both sizes. */
export interface Pools {
  /** Leaf en pages on baked frames, in no menu (menus use children 1–9), spread over the sections. */
  patch: number[];
  /** Leaf en pages appended to the sitemap menu. */
  append: number[];
}

export function poolsOf(filled: FilledScale): Pools {
  const { shape, ids } = filled;
  const patch = new Set<number>();
  for (let k = 0; patch.size < MAX_ROUNDS + 1; k++) {
    const s = (k * 7) % shape.sections;
    const c = 50 + (k % 10);
    if (!isLive((s * 100 + c) % shape.pageFrames)) patch.add(ids.get(`en:${s}:${c}`)!);
    if (k > 10 * MAX_ROUNDS) break;
  }
  const append = Array.from(
    { length: MAX_ROUNDS + 1 },
    (_, k) => ids.get(`en:${(k * 3) % shape.sections}:${60 + (k % 40)}`)!,
  );
  return { patch: [...patch], append };
}

/** What the last write of each kind rebaked (frames) and republished (pages), for the notes. */
export const lastRebaked = {} as Record<Write, { frames: number; pages: number }>;
const noteRebaked = (w: Write, answer: { rebaked?: { total: number; pages: number[] } }) => {
  lastRebaked[w] = { frames: answer.rebaked?.total ?? 0, pages: answer.rebaked?.pages.length ?? 0 };
};

/** One write of each kind (its `r`-th), checked; answers its wall-clock milliseconds. */
export const writeOnce: Record<Write, (api: Api, filled: FilledScale, pools: Pools, r: number) => Promise<number>> = {
  async page_write(api, _filled, pools, r) {
    const id = pools.patch[r % pools.patch.length];
    const { ms, answer } = await api.timed("PATCH", `${S}/pages/${id}`, { title: `Topic revised ${r}` });
    if (answer.page.title !== `Topic revised ${r}` || !answer.rebaked.pages.includes(id))
      throw new Error(`PATCH page ${id}: ${JSON.stringify(answer).slice(0, 300)}`);
    noteRebaked("page_write", answer);
    return ms;
  },
  async frame_write(api, filled, _pools, r) {
    const k = r % SOLO;
    const { ms, answer } = await api.timed("PUT", `${S}/frames/solo-${k}`, {
      html: pageFrame(100_000 + k, false, r + 1),
    });
    const solo = filled.ids.get(`solo:${k}`)!;
    if (answer.rebaked.pages.length !== 1 || answer.rebaked.pages[0] !== solo)
      throw new Error(
        `PUT solo-${k} republished ${JSON.stringify(answer.rebaked.pages).slice(0, 200)}, expected [${solo}]`,
      );
    noteRebaked("frame_write", answer);
    return ms;
  },
  async frame_create(api, _filled, _pools, r) {
    const slug = `fresh-${r}-${Math.random().toString(36).slice(2, 8)}`;
    const { ms, answer } = await api.timed("POST", `${S}/frames`, { slug, html: pageFrame(200_000 + r, false) });
    if (answer.frame?.slug !== slug) throw new Error(`POST /frames ${slug}: ${JSON.stringify(answer).slice(0, 300)}`);
    noteRebaked("frame_create", answer);
    return ms;
  },
  async menu_append(api, filled, pools, r) {
    const page = pools.append[r % pools.append.length];
    const { ms, answer } = await api.timed("POST", `${S}/menus/${filled.sitemapMenu}/items`, { item: { page } });
    if (answer.item?.page !== page)
      throw new Error(`POST /menus/${filled.sitemapMenu}/items: ${JSON.stringify(answer).slice(0, 300)}`);
    noteRebaked("menu_append", answer);
    return ms;
  },
};

/** Samples of some writes on a running service: one unmeasured warm-up each, then rounds while the budget lasts. */
export async function sample(
  api: Api,
  filled: FilledScale,
  pools: Pools,
  writes: readonly Write[],
  min: number,
  max: number,
  budgetS: number,
): Promise<Record<string, number[]>> {
  const samples: Record<string, number[]> = Object.fromEntries(writes.map((w) => [w, [] as number[]]));
  const t0 = performance.now();
  for (let r = 0; r <= max; r++) {
    for (const w of writes) {
      const ms = await writeOnce[w](api, filled, pools, r);
      if (r > 0) samples[w].push(ms);
    }
    if (r >= min && (performance.now() - t0) / 1000 > budgetS) break;
  }
  return samples;
}

interface Measured {
  samples: Record<Write, number[]>;
  rebaked: Record<Write, { frames: number; pages: number }>;
  medians: Record<Write, number>;
  peakMb: number;
  rssMb: number;
  seconds: number;
}

/** The four writes on a filled site, on a service started for it. */
async function measureWrites(dataDir: string, filled: FilledScale, log: (m: string) => void): Promise<Measured> {
  const service = await startService(dataDir);
  try {
    const api = new Api(service.port);
    const pools = poolsOf(filled);
    const t0 = performance.now();
    const quick = await sample(
      api,
      filled,
      pools,
      ["page_write", "frame_write", "frame_create"],
      MIN_ROUNDS,
      MAX_ROUNDS,
      BUDGET_S,
    );
    const appends = await sample(api, filled, pools, ["menu_append"], MIN_APPENDS, MAX_ROUNDS, BUDGET_S);
    const samples = { ...quick, ...appends } as Record<Write, number[]>;
    const medians = Object.fromEntries(WRITES.map((w) => [w, median(samples[w])])) as Record<Write, number>;
    const seconds = (performance.now() - t0) / 1000;
    log(
      `  scale ${filled.shape.pages}: writes measured in ${seconds.toFixed(1)} s; medians ${WRITES.map((w) => `${w} ${medians[w].toFixed(1)} ms (${samples[w].length})`).join(", ")}`,
    );
    const mem = memoryOf(service.pid);
    return { samples, medians, rebaked: { ...lastRebaked }, peakMb: mem.peakMb, rssMb: mem.rssMb, seconds };
  } finally {
    await service.stop();
  }
}

/** Fills (or, with BENCH_SCALE_FROM, copies) a site of `pages` pages into `dataDir`. */
export async function scaleSite(dataDir: string, pages: number, log: (m: string) => void): Promise<FilledScale> {
  const from = process.env.BENCH_SCALE_FROM;
  if (from && existsSync(join(from, `scale-${pages}`))) {
    cpSync(join(from, `scale-${pages}`), dataDir, { recursive: true });
    const saved = JSON.parse(readFileSync(join(from, `scale-${pages}.json`), "utf8"));
    log(`  scale ${pages}: copied from ${from}`);
    return { ...saved, ids: new Map(Object.entries(saved.ids)), how: `copied from ${from} (filled ${saved.how})` };
  }
  const filled = await fillScale(dataDir, pages, MODE, log);
  const keep = process.env.BENCH_SCALE_KEEP;
  if (keep) {
    mkdirSync(keep, { recursive: true });
    cpSync(dataDir, join(keep, `scale-${pages}`), { recursive: true });
    writeFileSync(
      join(keep, `scale-${pages}.json`),
      JSON.stringify({ ...filled, ids: Object.fromEntries(filled.ids) }),
    );
  }
  return filled;
}

export async function scaleGroup(work: string, hooks: ScaleHooks): Promise<void> {
  const t0 = performance.now();
  const sizes = [SCALE_SMALL, SCALE_LARGE];
  for (const n of sizes) shapeOf(n);
  if (SCALE_SMALL >= SCALE_LARGE)
    throw new Error(`BENCH_SCALE_SMALL (${SCALE_SMALL}) must be below BENCH_SCALE_LARGE (${SCALE_LARGE})`);
  const measured: Measured[] = [];
  const filled: FilledScale[] = [];
  for (const n of sizes) {
    const dir = join(work, `scale-${n}`);
    const f = await scaleSite(dir, n, hooks.log);
    hooks.log(
      `scale site of ${f.totalPages} pages, ${f.shape.frames} frames filled in ${f.seconds.toFixed(1)} s (${f.how})`,
    );
    filled.push(f);
    measured.push(await measureWrites(dir, f, hooks.log));
  }
  const [small, large] = measured;
  for (const w of WRITES) {
    const ratio = large.medians[w] / small.medians[w];
    hooks.record({
      name: `scale_${w}`,
      value: round(large.medians[w], 1),
      unit: "ms",
      baseline: round(small.medians[w], 1),
      ratio: round(ratio, 2),
      target: "<= 1.5",
      pass: ratio <= 1.5,
    });
  }
  const [fs, fl] = filled;
  hooks.record({
    name: "scale_fill_20k",
    value: round(fl.seconds, 1),
    unit: "s",
    baseline: round(fs.seconds, 1),
    ratio: round(fl.seconds / fs.seconds, 2),
    target: "reported",
    pass: true,
  });
  const peak = Math.max(large.peakMb, fl.fillPeakMb);
  hooks.record({
    name: "scale_peak_rss_20k",
    value: round(peak, 1),
    unit: "MB",
    baseline: PEAK_RSS_TARGET_MB,
    ratio: round(peak / PEAK_RSS_TARGET_MB, 3),
    target: `<= ${PEAK_RSS_TARGET_MB} MB (peak RSS)`,
    pass: peak <= PEAK_RSS_TARGET_MB,
  });
  for (const [f, m] of [
    [fs, small],
    [fl, large],
  ] as const) {
    hooks.note(
      `scale ${f.shape.pages}: ${f.totalPages} pages, ${f.shape.frames} frames, 50 menus; filled ${f.how} in ${f.seconds.toFixed(0)} s (${Object.entries(
        f.parts,
      )
        .map(([k, v]) => `${k} ${v.toFixed(1)} s`)
        .join(
          "; ",
        )}); peak RSS of the fill ${f.fillPeakMb.toFixed(0)} MB, of the measured writes ${m.peakMb.toFixed(0)} MB`,
    );
    hooks.note(
      `scale ${f.shape.pages}: ${WRITES.map((w) => `${w} median ${m.medians[w].toFixed(1)} ms of ${m.samples[w].length} (min ${Math.min(...m.samples[w]).toFixed(1)}, max ${Math.max(...m.samples[w]).toFixed(1)}; rebaked ${m.rebaked[w].frames} frames, ${m.rebaked[w].pages} pages)`).join("; ")}; measured in ${m.seconds.toFixed(0)} s`,
    );
  }
  // Other work on the machine moves medians; the fastest of many samples moves less.
  hooks.note(
    `scale ratios of the fastest samples (20k / 2k): ${WRITES.map((w) => `${w} ${(Math.min(...large.samples[w]) / Math.min(...small.samples[w])).toFixed(2)}`).join(", ")}`,
  );
  hooks.note(`scale group: ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}

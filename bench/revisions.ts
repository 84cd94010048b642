// The `revisions` group of `npm run bench` (bench/README.md): write throughput with revisions on, as a
// ratio to the same writes on the service as it was before revisions, and storage growth per
// revision (bench/README.md, "Revisions").
//
// The baseline is a real service process too: the commit before the revisions core
// (BENCH_REVISIONS_BASE, default 5dce37b), checked out with `git worktree add --detach` in a
// temporary folder, this checkout's node_modules linked into it, built there with its own
// scripts/build.mjs and started from its dist/main.js exactly as startService starts this one. The
// worktree is removed afterwards, also when the run fails.
//
// Three services on fresh SQLite data directories: the baseline and the current service filled
// with the same site (the small site, BENCH_REVISIONS_SITE frames of 10 KB and as many pages each
// on its own frame, the written frames and pages), and the current service on a tiny site (the
// small site and the written objects only). Sequential API writes that each change content, in
// batches interleaved between the services (the order rotating): PUT /frames/{slug} with a ~4 KB
// markup that differs each time (each written frame is the frame of one page: the write bakes
// it), and PATCH /pages/{id} changing title and content (a page that renders on request). Storage:
// the database file (after a TRUNCATE checkpoint, with the service stopped) before and after each
// kind's writes.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { filler, frame10k } from "./content.ts";
import { fillSmallSite } from "./small-site.ts";
import { Api, cpuMsOf, median, ROOT, round, startService, type Result, type Service } from "./lib.ts";

const S = "/api/site/1";
const QUICK = process.env.BENCH_QUICK === "1";
const BASE = process.env.BENCH_REVISIONS_BASE ?? "5dce37b";
/** Frames of 10 KB and pages (each on its own frame) of the filled site, besides the small site. */
export const SITE = Number(process.env.BENCH_REVISIONS_SITE ?? (QUICK ? 100 : 300));
/** Written objects of each kind (writes go round them, so none reaches SVC_REVISIONS_KEEP's 100). */
export const WRITTEN = QUICK ? 10 : 50;
const BATCHES = QUICK ? 4 : 20;
const PER_BATCH = QUICK ? 10 : 25;
export const WRITE_TARGET = 0.8;
export const GROWTH_TARGET = 1.5;

export interface RevisionsHooks {
  log(message: string): void;
  record(result: Result): void;
  note(text: string): void;
}

type Side = "base" | "current" | "tiny";

/** Version `n` of written frame `slot`: about 4 KB, different every time. */
export function frameVersion(slot: number, n: number): string {
  let html = `<section class="card rev-${slot}"><h2>Version ${n} of card ${slot}</h2>\n`;
  html += filler(4096 - html.length - 12, n);
  return `${html}</section>\n`;
}

/** Version `n` of written page `slot`: its title and about 1.5 KB of content. */
export function pageVersion(slot: number, n: number): { title: string; content: string } {
  return { title: `Written page ${slot}, version ${n}`, content: `<h2>Version ${n}</h2>\n${filler(1_500, n + 3)}` };
}

/** Runs `task(0 … n-1)` with three calls in flight. */
async function inParallel(n: number, task: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < n) await task(next++);
  };
  await Promise.all(Array.from({ length: 3 }, worker));
}

/** The same site on every service: the small site, the written frames and pages, and (filled) `size` frames and pages. */
export async function fill(api: Api, size: number): Promise<{ pageIds: number[] }> {
  await fillSmallSite(api);
  if (size > 0) {
    await inParallel(size, (i) =>
      api.call("POST", `${S}/frames`, { slug: `block-${i}`, html: frame10k(i), bake: false }),
    );
    await inParallel(size, (i) =>
      api.call("POST", `${S}/pages`, { title: `Page ${i}`, slug: `page-${i}`, frame: `block-${i}` }),
    );
  }
  for (let i = 0; i < WRITTEN; i++) {
    await api.call("POST", `${S}/frames`, { slug: `rev-frame-${i}`, html: frameVersion(i, 0) });
    await api.call("POST", `${S}/pages`, {
      title: `Frame page ${i}`,
      slug: `rev-frame-page-${i}`,
      frame: `rev-frame-${i}`,
    });
  }
  const pageIds: number[] = [];
  for (let i = 0; i < WRITTEN; i++) {
    const answer = await api.call("POST", `${S}/pages`, {
      ...pageVersion(i, 0),
      slug: `rev-page-${i}`,
      frame: "page-live",
    });
    pageIds.push(answer.page.id);
  }
  return { pageIds };
}

/** The database file's bytes (and the pages in use) with the service stopped, after a TRUNCATE checkpoint. */
function storage(dataDir: string): { file: number; used: number; revisionsTable: number | null } {
  const path = join(dataDir, "svc.db");
  const db = new Database(path);
  try {
    db.pragma("wal_checkpoint(TRUNCATE)");
    const pageSize = Number(db.pragma("page_size", { simple: true }));
    const used =
      (Number(db.pragma("page_count", { simple: true })) - Number(db.pragma("freelist_count", { simple: true }))) *
      pageSize;
    let revisionsTable: number | null = null;
    try {
      const row = db
        .prepare(
          "SELECT SUM(pgsize) AS n FROM dbstat WHERE name = 'revisions' OR name LIKE 'sqlite_autoindex_revisions%'",
        )
        .get() as { n: number | null };
      revisionsTable = row.n ?? 0;
    } catch {
      // no dbstat in this SQLite build
    }
    const wal = existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0;
    return { file: statSync(path).size + wal, used, revisionsTable };
  } finally {
    db.close();
  }
}

/** How SQLite answers recordRevision's lookup of an object's last revision. */
function lookupPlan(dataDir: string): string {
  const db = new Database(join(dataDir, "svc.db"), { readonly: true });
  try {
    const rows = db
      .prepare(
        `EXPLAIN QUERY PLAN select "revision", "sha256", "fields_json" from "revisions" where "site_id" = ? and "kind" = ? and "object_id" = ? order by "revision" desc limit ?`,
      )
      .all(1, "frames", "1", 1) as Array<{ detail: string }>;
    return rows.map((row) => row.detail).join("; ");
  } finally {
    db.close();
  }
}

function git(args: string[], cwd = ROOT): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

/** The baseline commit checked out and built in a temporary worktree; `remove` takes it away again. */
export function baselineTree(
  log: (message: string) => void,
  base = BASE,
): { root: string; commit: string; remove(): void } {
  const commit = git(["rev-parse", "--verify", `${base}^{commit}`]);
  const folder = mkdtempSync(join(tmpdir(), "bench-revisions-base-"));
  const root = join(folder, "tree");
  const remove = () => {
    try {
      if (existsSync(root)) git(["worktree", "remove", "--force", root]);
    } catch (error) {
      log(`revisions: git worktree remove ${root}: ${error instanceof Error ? error.message : String(error)}`);
    }
    // (Were the removal to fail, `git worktree prune` clears the entry once the folder is gone.)
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    git(["worktree", "add", "--detach", root, commit]);
    symlinkSync(join(ROOT, "node_modules"), join(root, "node_modules"), "dir");
    if (!existsSync(join(root, "scripts/build.mjs"))) throw new Error(`${base} has no scripts/build.mjs`);
    // What its `npm run build` does, without the type check.
    execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
  } catch (error) {
    remove();
    throw error;
  }
  return { root, commit, remove };
}

/**
 * `batches` batches of `perBatch` rounds; in each round every side makes one write, the side going
 * first rotating, so a burst of other work on the machine hits the sides alike. Answers each side's
 * writes/s per batch (its writes over the time they took) and its process's CPU time a write over
 * all batches (from /proc: what other load on the machine moves least).
 */
async function interleaved(
  sides: Side[],
  running: Partial<Record<Side, Service>>,
  batches: number,
  perBatch: number,
  write: (api: Api, n: number) => Promise<unknown>,
  first: number,
): Promise<{ rates: Record<Side, number[]>; cpuMs: Record<Side, number> }> {
  const rates: Record<Side, number[]> = { base: [], current: [], tiny: [] };
  const apis = Object.fromEntries(sides.map((side) => [side, new Api(running[side]!.port)])) as Record<Side, Api>;
  const cpu0 = Object.fromEntries(sides.map((side) => [side, cpuMsOf(running[side]!.pid)])) as Record<Side, number>;
  let round = 0;
  for (let b = 0; b < batches; b++) {
    const spent: Record<Side, number> = { base: 0, current: 0, tiny: 0 };
    for (let j = 0; j < perBatch; j++, round++) {
      for (let k = 0; k < sides.length; k++) {
        const side = sides[(round + k) % sides.length]!;
        const t0 = performance.now();
        await write(apis[side], first + b * perBatch + j);
        spent[side] += performance.now() - t0;
      }
    }
    for (const side of sides) rates[side].push((perBatch * 1000) / spent[side]);
  }
  const cpuMs = Object.fromEntries(
    sides.map((side) => [side, (cpuMsOf(running[side]!.pid) - cpu0[side]) / (batches * perBatch)]),
  ) as Record<Side, number>;
  return { rates, cpuMs };
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);
const spread = (values: number[]) => `${fmt(Math.min(...values), 2)}–${fmt(Math.max(...values), 2)}`;

export async function revisionsGroup(work: string, hooks: RevisionsHooks): Promise<void> {
  const { log, record, note } = hooks;
  const dirs: Record<Side, string> = {
    base: join(work, "revisions-base"),
    current: join(work, "revisions-current"),
    tiny: join(work, "revisions-tiny"),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  log(`revisions: building ${BASE} in a temporary worktree`);
  const tree = baselineTree(log);
  const running: Partial<Record<Side, Service>> = {};
  const env: Record<Side, Record<string, string>> = {
    base: { SVC_CODE_CACHE_DIR: join(work, "revisions-base-code-cache") },
    current: {},
    tiny: {},
  };
  const start = async (side: Side) =>
    (running[side] = await startService(dirs[side], env[side], [], side === "base" ? { root: tree.root } : {}));
  const stop = async (side: Side) => {
    await running[side]?.stop();
    delete running[side];
  };
  const apisOf = () => ({
    base: new Api(running.base?.port ?? 0),
    current: new Api(running.current?.port ?? 0),
    tiny: new Api(running.tiny?.port ?? 0),
  });
  try {
    await Promise.all((["base", "current", "tiny"] as const).map(start));
    let apis = apisOf();
    const t0 = performance.now();
    log(
      `revisions: filling (${SITE} frames of 10 KB and ${SITE} pages on the base and current services, ${WRITTEN} written frames and pages on each)`,
    );
    const [{ pageIds }] = await Promise.all([fill(apis.base, SITE), fill(apis.current, SITE), fill(apis.tiny, 0)]);
    log(`revisions: filled in ${fmt((performance.now() - t0) / 1000)} s`);

    // Does the page write path record revisions yet? (The history route of pages answers, and the page has revision 1.)
    const pageHistory = await apis.current.call("GET", `${S}/pages/${pageIds[0]}/revisions`, undefined, [200, 404]);
    const pagesRevised = Boolean(pageHistory && typeof pageHistory.total === "number" && pageHistory.total >= 1);
    if (!pagesRevised)
      note(
        `revisions: GET ${S}/pages/{id}/revisions answered ${JSON.stringify(pageHistory).slice(0, 200)}: page writes not measured, frames only`,
      );

    const phases: Array<{ kind: "frames" | "pages"; sides: Side[]; write: (api: Api, n: number) => Promise<unknown> }> =
      [
        {
          kind: "frames",
          sides: ["base", "current", "tiny"],
          write: (api, n) =>
            api.call("PUT", `${S}/frames/rev-frame-${n % WRITTEN}`, { html: frameVersion(n % WRITTEN, n + 1) }),
        },
      ];
    if (pagesRevised)
      phases.push({
        kind: "pages",
        sides: ["base", "current"],
        write: (api, n) => api.call("PATCH", `${S}/pages/${pageIds[n % WRITTEN]}`, pageVersion(n % WRITTEN, n + 1)),
      });

    for (const phase of phases) {
      await Promise.all([stop("base"), stop("current")]);
      const before = { base: storage(dirs.base), current: storage(dirs.current) };
      await Promise.all([start("base"), start("current")]);
      apis = apisOf();
      // One batch each to warm the processes (their writes count in the storage, not in the rates).
      await interleaved(phase.sides, running, 1, PER_BATCH, phase.write, 0);
      log(
        `revisions: ${phase.kind}: ${BATCHES} batches of ${PER_BATCH} writes on each of ${phase.sides.join(", ")}, one write each in turn`,
      );
      const { rates, cpuMs } = await interleaved(phase.sides, running, BATCHES, PER_BATCH, phase.write, PER_BATCH);
      const writes = (BATCHES + 1) * PER_BATCH;

      // Every write left a revision (the written objects' histories), and the revisions' content sizes.
      const ref = (slot: number) => (phase.kind === "frames" ? `frames/rev-frame-${slot}` : `pages/${pageIds[slot]}`);
      let revisions = 0;
      const contentBytes: number[] = [];
      for (let slot = 0; slot < WRITTEN; slot++) {
        const history = await apis.current.call("GET", `${S}/${ref(slot)}/revisions?per_page=100`);
        revisions += history.total - 1;
        for (const r of history.revisions) if (r.revision > 1) contentBytes.push(r.bytes);
      }
      if (revisions !== writes) note(`revisions: ${phase.kind}: ${writes} writes left ${revisions} revisions`);
      await Promise.all([stop("base"), stop("current")]);
      const after = { base: storage(dirs.base), current: storage(dirs.current) };

      const ratios = rates.current.map((c, i) => c / rates.base[i]!);
      const ratio = median(ratios);
      const best = Math.max(...rates.current) / Math.max(...rates.base);
      const name = phase.kind === "frames" ? "revisions_frame_write" : "revisions_page_write";
      record({
        name,
        value: round(median(rates.current), 1),
        unit: "writes/s",
        baseline: round(median(rates.base), 1),
        ratio: round(ratio, 3),
        target: `>= ${WRITE_TARGET}`,
        pass: ratio >= WRITE_TARGET,
      });
      record({
        name: `${name}_cpu`,
        value: round(cpuMs.current, 2),
        unit: "CPU ms/write",
        baseline: round(cpuMs.base, 2),
        ratio: round(cpuMs.base / cpuMs.current, 3),
        target: "reported",
        pass: true,
      });
      note(
        `${name}: ${phase.kind === "frames" ? "PUT /frames/{slug}, ~4 KB markup, one page baked" : "PATCH /pages/{id}, title and ~1.5 KB content, renders on request"}; median of ${BATCHES} batch ratios ${fmt(ratio, 3)} (${spread(ratios)}), best batches ${fmt(Math.max(...rates.current))} against ${fmt(Math.max(...rates.base))} writes/s: ratio ${fmt(best, 3)}; ${fmt(1000 / median(rates.current), 2)} ms a write (baseline ${fmt(1000 / median(rates.base), 2)} ms); the service's CPU ${fmt(cpuMs.current, 2)} ms a write (baseline ${fmt(cpuMs.base, 2)} ms): CPU ratio baseline/current ${fmt(cpuMs.base / cpuMs.current, 3)}`,
      );

      const grown = { base: after.base.file - before.base.file, current: after.current.file - before.current.file };
      const perRevision = (grown.current - grown.base) / writes;
      const usedPerRevision =
        (after.current.used - before.current.used - (after.base.used - before.base.used)) / writes;
      const averageContent = contentBytes.reduce((a, b) => a + b, 0) / Math.max(1, contentBytes.length);
      const storageName = phase.kind === "frames" ? "revisions_storage_frame" : "revisions_storage_page";
      record({
        name: storageName,
        value: round(perRevision, 0),
        unit: "B/revision",
        baseline: round(averageContent, 0),
        ratio: round(perRevision / averageContent, 2),
        target: "reported",
        pass: true,
      });
      const table =
        after.current.revisionsTable !== null && before.current.revisionsTable !== null
          ? `; the revisions table and its index grew ${fmt((after.current.revisionsTable - before.current.revisionsTable) / writes, 0)} B a revision (dbstat)`
          : "";
      note(
        `${storageName}: ${writes} writes; database file +${grown.current} B on the current service, +${grown.base} B on the baseline; pages in use ${fmt(usedPerRevision, 0)} B a revision more; content ${fmt(averageContent, 0)} B a revision (bytes of GET …/revisions)${table}`,
      );

      if (phase.kind === "frames") {
        const growth = rates.tiny.map((t, i) => t / rates.current[i]!);
        const g = median(growth);
        record({
          name: "revisions_frame_write_site_growth",
          value: round(1000 / median(rates.current), 2),
          unit: "ms/write",
          baseline: round(1000 / median(rates.tiny), 2),
          ratio: round(g, 3),
          target: `<= ${GROWTH_TARGET}`,
          pass: g <= GROWTH_TARGET,
        });
        note(
          `revisions_frame_write_site_growth: a frame write on the filled site (${SITE + 5 + WRITTEN} frames, ${SITE + 10 + 2 * WRITTEN} pages) against the tiny site (${5 + WRITTEN} frames, ${10 + 2 * WRITTEN} pages), both current; median of batch ratios ${fmt(g, 3)} (${spread(growth)}), best batches ${fmt(Math.max(...rates.tiny) / Math.max(...rates.current), 3)}, CPU ${fmt(cpuMs.current, 2)} against ${fmt(cpuMs.tiny, 2)} ms a write (${fmt(cpuMs.current / cpuMs.tiny, 3)}); recordRevision's lookup: ${lookupPlan(dirs.current)}`,
        );
      }
    }
    note(
      `revisions: baseline ${tree.commit.slice(0, 7)} (BENCH_REVISIONS_BASE=${BASE}), built in a temporary worktree`,
    );
  } finally {
    await Promise.all((Object.keys(running) as Side[]).map(stop));
    tree.remove();
  }
}

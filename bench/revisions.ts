// The `revisions` group of `npm run bench` (bench/README.md): write throughput with revisions on, as a
// ratio to the same writes on the service as it was before revisions, and storage growth per
// revision (bench/README.md, "Revisions").
//
// The baseline is a real service process too: the commit before the revisions core
// (BENCH_REVISIONS_BASE, default 5dce37b), built in a temporary worktree (bench/baseline-build.ts)
// and started from its dist/main.js exactly as startService starts this one. The worktree is
// removed afterwards, also when the run fails.
//
// Three services on fresh SQLite data directories: the baseline and the current service filled
// with the same site (the small site, BENCH_REVISIONS_SITE frames of 10 KB and as many pages each
// on its own frame, the written frames and pages), and the current service on a tiny site (the
// small site and the written objects only; bench/written-site.ts). Sequential API writes that each
// change content, in batches interleaved between the services (bench/interleaved.ts): PUT /frames/{slug} with a ~4 KB
// markup that differs each time (each written frame is the frame of one page: the write bakes
// it), and PATCH /pages/{id} changing title and content (a page that renders on request). Storage:
// the database file (after a TRUNCATE checkpoint, with the service stopped) before and after each
// kind's writes.
import { existsSync, mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { baselineTree } from "./baseline-build.ts";
import { interleaved } from "./interleaved.ts";
import { Api, median, round, startService, type Result, type Service } from "./lib.ts";
import { fill, frameVersion, pageVersion, WRITTEN } from "./written-site.ts";

const S = "/api/site/1";
const QUICK = process.env.BENCH_QUICK === "1";
export const BASE = process.env.BENCH_REVISIONS_BASE ?? "5dce37b";
/** Frames of 10 KB and pages (each on its own frame) of the filled site, besides the small site. */
export const SITE = Number(process.env.BENCH_REVISIONS_SITE ?? (QUICK ? 100 : 300));
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
  const tree = baselineTree(log, BASE);
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

// The `search` group of `npm run bench` (bench/README.md, "Search"): site search on SQLite at
// 2,000 and 20,000 pages (bench/search-site.ts). On each, through the running service:
//
// - GET /_search for a mix of queries (a word on nearly every page, one on about one page in
//   seven, one on one in two hundred, two words, a three-letter prefix), one request at a time:
//   p50 and p99 over every sample. Target: p99 under 20 ms at 20,000 pages, and p99(20k) /
//   p99(2k) at most 1.5;
// - the bare baseline: the same FTS5 statements (the bounded candidates of
//   src/search/sqlite-candidates.ts, and the page of ten joined to the pages) run in this process
//   through better-sqlite3 on the same database file, no HTTP, no service — what the database
//   alone costs;
// - a move of a subtree (`PATCH /pages/{ref}` slug of a page with 100 and with 1,000
//   descendants), and the share of it the index takes: the same pages re-indexed in a
//   transaction of this process, rolled back (src/search/index-sync.ts reindexPages).
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { openStore } from "../src/store/database.ts";
import { reindexPages } from "../src/search/index-sync.ts";
import { searchWords } from "../src/search/query-words.ts";
import { rankCandidates } from "../src/search/ranking.ts";
import { sqliteCandidates, type RunStatement } from "../src/search/sqlite-candidates.ts";
import { fillSearchSite, SUBTREES, wordOf, type SearchSite } from "./search-site.ts";
import { Api, http, median, round, startService, type Result } from "./lib.ts";

const S = "/api/site/1";
const QUICK = process.env.BENCH_QUICK === "1";
export const SEARCH_SMALL = Number(process.env.BENCH_SEARCH_SMALL ?? 2_000);
export const SEARCH_LARGE = Number(process.env.BENCH_SEARCH_LARGE ?? 20_000);
const ROUNDS = QUICK ? 20 : 100;
const MOVES = QUICK ? 3 : 7;
const P99_TARGET_MS = 20;

/** The query mix: its class and its text. */
const QUERIES: Array<[string, string]> = [
  ["common", wordOf(3)],
  ["medium", wordOf(100)],
  ["rare", wordOf(3_000)],
  ["two words", `${wordOf(40)} ${wordOf(200)}`],
  ["prefix", wordOf(100).slice(0, 3)],
];

export interface SearchHooks {
  log(message: string): void;
  record(result: Result): void;
  note(text: string): void;
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
};

interface Measured {
  site: SearchSite;
  startMs: number;
  service: number[];
  bare: number[];
  byClass: Record<string, { service: number[]; bare: number[]; total: number }>;
  moves: Record<string, number[]>;
  reindex: Record<string, number>;
}

/**
 * The statements the service runs (src/search/sqlite-candidates.ts, then the page of ten joined to
 * the pages), on the same file, without the service.
 */
function bareSearch(file: string): (q: string) => Promise<number> {
  const db = new SQLite(file, { readonly: true });
  const statements = new Map<string, SQLite.Statement>();
  const run: RunStatement = async (text, params) => {
    const statement = statements.get(text) ?? db.prepare(text);
    statements.set(text, statement);
    return statement.all(...params) as Array<Record<string, unknown>>;
  };
  const page = db.prepare(`
    select p.id, p.title, p.lang, p.path, p.date_gmt, s.summary, s.body
    from page_search s join pages p on p.id = s.rowid where s.rowid in (select value from json_each(?))`);
  return async (q) => {
    const t0 = performance.now();
    const ranked = rankCandidates(await sqliteCandidates(run, 1, [""], searchWords(q, "en")));
    page.all(JSON.stringify(ranked.ids.slice(0, 10)));
    return performance.now() - t0;
  };
}

async function measure(dir: string, site: SearchSite, log: (message: string) => void): Promise<Measured> {
  const service = await startService(dir);
  const out: Measured = { site, startMs: service.startMs, service: [], bare: [], byClass: {}, moves: {}, reindex: {} };
  try {
    const bare = bareSearch(join(dir, "svc.db"));
    for (const [cls] of QUERIES) out.byClass[cls] = { service: [], bare: [], total: 0 };
    const ask = async (q: string) => {
      const t0 = performance.now();
      const answer = await http(service.port, "GET", `/_search?q=${encodeURIComponent(q)}`, {
        headers: { host: "localhost" },
      });
      const ms = performance.now() - t0;
      if (answer.status !== 200) throw new Error(`/_search ${q}: ${answer.status}`);
      return { ms, total: JSON.parse(answer.body.toString("utf8")).total as number };
    };
    // Warm-up: each query a few times on both, unmeasured.
    for (let i = 0; i < 5; i++)
      for (const [, q] of QUERIES) {
        await ask(q);
        await bare(q);
      }
    for (let r = 0; r < ROUNDS; r++) {
      for (const [cls, q] of QUERIES) {
        const { ms, total } = await ask(q);
        const bareMs = await bare(q);
        if (total === 0) throw new Error(`/_search ${q} (${cls}) found nothing`);
        out.byClass[cls]!.service.push(ms);
        out.byClass[cls]!.bare.push(bareMs);
        out.byClass[cls]!.total = total;
        out.service.push(ms);
        out.bare.push(bareMs);
      }
    }
    log(`  search ${site.pages}: ${out.service.length} searches, p99 ${quantile(out.service, 0.99).toFixed(2)} ms`);
    const api = new Api(service.port);
    for (const [slug, head] of Object.entries(site.heads)) {
      const samples: number[] = [];
      for (let m = 0; m < MOVES; m++) {
        const { ms } = await api.timed("PATCH", `${S}/pages/${head}`, { slug: m % 2 === 0 ? `${slug}-x` : slug });
        samples.push(ms);
      }
      out.moves[slug] = samples;
    }
  } finally {
    await service.stop();
  }
  const store = await openStore({ dataDir: dir, databaseUrl: null });
  try {
    for (const [slug, head] of Object.entries(site.heads)) {
      const ids = (await store.db.selectFrom("pages").select("id").where("parent_id", "=", head).execute()).map(
        (row) => row.id,
      );
      const samples: number[] = [];
      for (let m = 0; m < MOVES; m++) {
        await store.db
          .transaction()
          .execute(async (trx) => {
            const t0 = performance.now();
            await reindexPages(trx, 1, [head, ...ids]);
            samples.push(performance.now() - t0);
            throw new RolledBack();
          })
          .catch((error) => {
            if (!(error instanceof RolledBack)) throw error;
          });
      }
      out.reindex[slug] = median(samples);
    }
  } finally {
    await store.close();
  }
  return out;
}

class RolledBack extends Error {}

export async function searchGroup(work: string, hooks: SearchHooks): Promise<void> {
  const t0 = performance.now();
  const measured: Measured[] = [];
  for (const n of [SEARCH_SMALL, SEARCH_LARGE]) {
    const dir = join(work, `search-${n}`);
    const site = await fillSearchSite(dir, n);
    hooks.log(`search site of ${n} pages filled in ${site.seconds.toFixed(1)} s`);
    measured.push(await measure(dir, site, hooks.log));
  }
  const [small, large] = measured as [Measured, Measured];
  const p99 = (values: number[]) => quantile(values, 0.99);
  hooks.record({
    name: "search_p99_20k",
    value: round(p99(large.service), 2),
    unit: "ms",
    baseline: P99_TARGET_MS,
    ratio: round(p99(large.service) / P99_TARGET_MS, 2),
    target: `< ${P99_TARGET_MS} ms`,
    pass: p99(large.service) < P99_TARGET_MS,
  });
  const growth = p99(large.service) / p99(small.service);
  hooks.record({
    name: "search_p99_20k_vs_2k",
    value: round(p99(large.service), 2),
    unit: "ms",
    baseline: round(p99(small.service), 2),
    ratio: round(growth, 2),
    target: "<= 1.5",
    pass: growth <= 1.5,
  });
  hooks.record({
    name: "search_p50_20k_vs_bare_fts5",
    value: round(median(large.service), 2),
    unit: "ms",
    baseline: round(median(large.bare), 2),
    ratio: round(median(large.service) / median(large.bare), 2),
    target: "reported",
    pass: true,
  });
  const move = (m: Measured) => median(m.moves["move-1000"]!);
  hooks.record({
    name: "search_move_1000_subtree_20k_vs_2k",
    value: round(move(large), 1),
    unit: "ms",
    baseline: round(move(small), 1),
    ratio: round(move(large) / move(small), 2),
    target: "reported",
    pass: true,
  });
  for (const m of measured) {
    hooks.note(
      `search ${m.site.pages}: start (index catch-up of every page) ${m.startMs.toFixed(0)} ms; ${QUERIES.map(
        ([cls]) => {
          const c = m.byClass[cls]!;
          return `${cls} (${c.total} found) p50 ${median(c.service).toFixed(2)} / p99 ${p99(c.service).toFixed(2)} ms, bare FTS5 p50 ${median(c.bare).toFixed(2)} / p99 ${p99(c.bare).toFixed(2)} ms`;
        },
      ).join("; ")}`,
    );
    hooks.note(
      `search ${m.site.pages}: moves (PATCH slug) ${Object.keys(SUBTREES)
        .map(
          (slug) =>
            `${slug} median ${median(m.moves[slug]!).toFixed(1)} ms, of which re-indexing its ${SUBTREES[slug as keyof typeof SUBTREES] + 1} pages ${m.reindex[slug]!.toFixed(1)} ms`,
        )
        .join("; ")}`,
    );
  }
  hooks.note(`search group: ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}

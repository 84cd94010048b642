// The sites of the `search` group (bench/README.md, "Search"): one shape at two sizes (2,000 and
// 20,000 pages by default). Page texts are drawn from a vocabulary of 5,000 made-up words with
// Zipf-distributed frequencies (a seeded generator, the same at both sizes), so a word's share of
// the pages is the same at both sizes: the top words are on nearly every page, a word of rank 100
// on about one in seven, one of rank 3,000 on one in two hundred.
//
// Filled through the API for the frame and the two section heads the move scenario moves
// (`move-100`, `move-1000`); every other page is inserted through the service's own store (the
// service stopped) as a copy of a page the API wrote, with its id, place and text changed. The
// service's start makes their index entries (src/search/catch-up.ts), as it does for pages that
// existed before the index.
import { openStore } from "../src/store/database.ts";
import type { PageRow } from "../src/store/schema.ts";
import { Api, startService } from "./lib.ts";

const S = "/api/site/1";
const VOCABULARY = 5_000;
const WORDS_PER_PAGE = 150;
/** The subtrees the move scenario moves: their heads' slugs and their descendants. */
export const SUBTREES = { "move-100": 100, "move-1000": 1_000 } as const;

/** A seeded generator (mulberry32): the same texts on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = [
  "ka",
  "lo",
  "mi",
  "ren",
  "tas",
  "vo",
  "pel",
  "dri",
  "sun",
  "gar",
  "fe",
  "nol",
  "bri",
  "xu",
  "ost",
  "wen",
];

/** The word of a rank (1 = the most frequent): made of syllables, unique per rank. */
export function wordOf(rank: number): string {
  let n = rank + 17;
  let word = "";
  while (n > 0) {
    word += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  }
  return word;
}

/** Cumulative Zipf (s = 1) weights over the vocabulary, for drawing a rank. */
const cumulative = (() => {
  const out = new Float64Array(VOCABULARY);
  let sum = 0;
  for (let r = 1; r <= VOCABULARY; r++) out[r - 1] = sum += 1 / r;
  for (let i = 0; i < VOCABULARY; i++) out[i] /= sum;
  return out;
})();

function drawRank(next: () => number): number {
  const x = next();
  let lo = 0;
  let hi = VOCABULARY - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo + 1;
}

/** The title and content of page n (the same at both sizes). */
export function pageText(n: number): { title: string; content: string } {
  const next = random(n + 1);
  const words = (count: number) => Array.from({ length: count }, () => wordOf(drawRank(next)));
  const title = words(4).join(" ");
  const paragraphs: string[] = [];
  for (let i = 0; i < WORDS_PER_PAGE; i += 30) paragraphs.push(`<p>${words(30).join(" ")}.</p>`);
  return { title: `${title[0]!.toUpperCase()}${title.slice(1)} ${n}`, content: paragraphs.join("\n") };
}

export interface SearchSite {
  pages: number;
  /** The ids of the subtrees' heads, by slug. */
  heads: Record<keyof typeof SUBTREES, number>;
  seconds: number;
}

/** Fills a site of `pages` pages in `dataDir` (the service stopped at the end). */
export async function fillSearchSite(dataDir: string, pages: number): Promise<SearchSite> {
  const t0 = performance.now();
  const service = await startService(dataDir);
  const heads = {} as SearchSite["heads"];
  try {
    const api = new Api(service.port);
    await api.call("POST", `${S}/frames`, {
      slug: "plain",
      html: `<main data-op-bind='{"html": "page.content"}'></main>`,
    });
    for (const slug of Object.keys(SUBTREES) as Array<keyof typeof SUBTREES>) {
      const answer = await api.call("POST", `${S}/pages`, { ...pageText(0), slug, frame: "plain", status: "publish" });
      heads[slug] = answer.page.id;
    }
  } finally {
    await service.stop();
  }
  const store = await openStore({ dataDir, databaseUrl: null });
  try {
    const db = store.db;
    const template = await db
      .selectFrom("pages")
      .selectAll()
      .where("id", "=", heads["move-100"])
      .executeTakeFirstOrThrow();
    const { id: _id, ...columns } = template;
    const rows: Array<Omit<PageRow, "id">> = [];
    let n = 1;
    // The subtrees' pages first (children of their heads), then top-level pages to the size asked.
    for (const [slug, count] of Object.entries(SUBTREES)) {
      const head = heads[slug as keyof typeof SUBTREES];
      for (let k = 0; k < count; k++, n++)
        rows.push({
          ...columns,
          ...pageText(n),
          parent_id: head,
          slug: `p-${n}`,
          path: `${slug}/p-${n}`,
          translation_group: null,
        });
    }
    for (; n <= pages - 2; n++)
      rows.push({ ...columns, ...pageText(n), parent_id: 0, slug: `p-${n}`, path: `p-${n}`, translation_group: null });
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += 200)
        await trx
          .insertInto("pages")
          .values(rows.slice(i, i + 200))
          .execute();
    });
  } finally {
    await store.close();
  }
  return { pages, heads, seconds: (performance.now() - t0) / 1000 };
}

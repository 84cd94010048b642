// The site the write-throughput groups fill on every service they compare (the revisions and
// webhooks groups, bench/revisions-profile.ts): the small site, `size` frames of 10 KB and as many
// pages each on its own frame, and the objects the measured writes go round — WRITTEN frames of
// ~4 KB each the frame of one baked page, and WRITTEN pages on the frame that renders on request.
// Each write sends a new version of one of them (frameVersion, pageVersion), so every write
// changes content.
import { filler, frame10k } from "./content.ts";
import { fillSmallSite } from "./small-site.ts";
import type { Api } from "./lib.ts";

const S = "/api/site/1";
const QUICK = process.env.BENCH_QUICK === "1";
/** Written objects of each kind (writes go round them, so none reaches SVC_REVISIONS_KEEP's 100). */
export const WRITTEN = QUICK ? 10 : 50;

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
export async function inParallel(n: number, task: (i: number) => Promise<unknown>): Promise<void> {
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

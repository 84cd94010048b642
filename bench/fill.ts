// Fills the large site of scenarios 7 and 8 (10,000 frames of 10 KB and 2,000 pages, each page
// on a frame of its own, through the HTTP API of a service process started for it), and the
// pages of the list scenario.
import { frame10k } from "./content.ts";
import { Api, startService } from "./lib.ts";

const S = "/api/site/1";
export const LARGE_FRAMES = Number(process.env.BENCH_LARGE_FRAMES ?? 10_000);
export const LARGE_PAGES = Number(process.env.BENCH_LARGE_PAGES ?? 2_000);
/** Pages of the list scenario (api_page_list_100), added to the small site. */
export const LIST_PAGES = Number(process.env.BENCH_LIST_PAGES ?? 2_000);
const IN_FLIGHT = 3;

/** Runs `task(0 … n-1)` with a few calls in flight, so the service never waits for the client. */
async function inParallel(
  n: number,
  every: number,
  what: string,
  log: (message: string) => void,
  task: (i: number) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  let t0 = performance.now();
  const worker = async () => {
    while (next < n) {
      const i = next++;
      await task(i);
      if ((i + 1) % every === 0) {
        log(`  ${i + 1} ${what} (${((performance.now() - t0) / every).toFixed(2)} ms each over the last ${every})`);
        t0 = performance.now();
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

export async function fillLarge(
  dataDir: string,
  log: (message: string) => void,
): Promise<{ frames: number; pages: number; how: string }> {
  const service = await startService(dataDir);
  try {
    const api = new Api(service.port);
    // 10,000 frames are twice a site's default quota (docs/security.md): this site gets room for them.
    await api.call("PATCH", `/api/sites/1/quotas`, { frames: Math.max(LARGE_FRAMES, 5_000) });
    await inParallel(LARGE_FRAMES, 1000, "frames", log, (i) =>
      api.call("POST", `${S}/frames`, { slug: `block-${i}`, html: frame10k(i), bake: false }),
    );
    await inParallel(LARGE_PAGES, 500, "pages", log, (i) =>
      api.call("POST", `${S}/pages`, { title: `Page ${i}`, slug: `page-${i}`, frame: `block-${i}` }),
    );
  } finally {
    await service.stop();
  }
  return { frames: LARGE_FRAMES, pages: LARGE_PAGES, how: "through the HTTP API" };
}

/** `n` pages more on the small site, each on the frame that renders on request (nothing baked). */
export async function fillPageList(api: Api, n: number, log: (message: string) => void): Promise<void> {
  await inParallel(n, 500, "listed pages", log, (i) =>
    api.call("POST", `${S}/pages`, { title: `Listed page ${i}`, slug: `listed-${i}`, frame: "page-live" }),
  );
}

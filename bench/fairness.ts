// The `fairness` group of `npm run bench` (bench/README.md, "Fairness"): what
// one site's load does to another's. Site B's uncached page (a render on request), B's frame
// write and B's first request of an image variant are timed alone, then while site A saturates
// the service: anonymous requests of A's pages that render on request for about 100 ms each (the
// page cache flushed so every request renders), A's frame writes whose trials render as long,
// and first requests of variants of A's large images. Each is the median of several, as a ratio
// to B alone; target ≤ 2 for the page and the write (the variant is reported).
import { Agent } from "node:http";
import sharp from "sharp";
import { ADMIN_TOKEN, Api, http, median, round, sleep, type Result, type Service } from "./lib.ts";

const QUICK = process.env.BENCH_QUICK === "1";
const SAMPLES = QUICK ? 5 : 15;
export const FAIRNESS_TARGET = 2;

export interface FairnessHooks {
  log(message: string): void;
  record(result: Result): void;
  note(text: string): void;
}

/** A frame that renders on request (it prints the page's title) and loops over its site's `data.rows` three deep, printing little. */
function liveFrame(): string {
  const loop = `<!-- svc/repeat {"source": "data.rows", "match": {"n": "0"}} --><i data-op-bind='{"text": "item.n"}'></i><!-- /svc/repeat -->`;
  return `<!DOCTYPE html><html><body><h1 data-op-bind='{"text": "page.title"}'></h1><!-- svc/repeat {"source": "data.rows"} --><!-- svc/repeat {"source": "data.rows"} -->${loop}<!-- /svc/repeat --><!-- /svc/repeat --></body></html>`;
}

/** A noise image of `width` × `height` (a new one for each seed: every upload is a file of its own). */
function noiseJpeg(width: number, height: number, seed: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  let x = seed * 2654435761;
  for (let i = 0; i < pixels.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    pixels[i] = x >>> 24;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

async function upload(service: Service, site: string, name: string, bytes: Buffer, agent: Agent): Promise<string[]> {
  const answer = await http(service.port, "POST", `${site}/media?filename=${name}`, {
    agent,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "image/jpeg" },
    body: bytes,
  });
  if (answer.status !== 201)
    throw new Error(`upload ${name}: ${answer.status} ${answer.body.toString().slice(0, 300)}`);
  return (JSON.parse(answer.body.toString()).media.variants as Array<{ url: string }>).map((v) => v.url);
}

/** A site and the connections its requests take: A's load and B's measurements never wait for each other's sockets. */
interface Site {
  api: Api;
  agent: Agent;
  site: string;
  host: string;
}

/** The three timings of site B: an uncached page, a frame write, a variant's first request. */
async function timeB(
  service: Service,
  b: Site,
  round: number,
): Promise<{ page: number; write: number; variant: number }> {
  await b.api.call("POST", `${b.site}/cache/flush`, { urls: ["/b-page/"] });
  let t0 = performance.now();
  const page = await http(service.port, "GET", "/b-page/", { agent: b.agent, headers: { host: b.host } });
  const pageMs = performance.now() - t0;
  if (page.status !== 200) throw new Error(`B's page: ${page.status}`);
  t0 = performance.now();
  await b.api.call("PUT", `${b.site}/frames/b-card`, {
    html: `<section><h2>Card ${round}</h2><p>${"b".repeat(200)}</p></section>`,
  });
  const writeMs = performance.now() - t0;
  const [variant] = await upload(service, b.site, `b-${round}.jpg`, await noiseJpeg(700, 500, 10_000 + round), b.agent);
  t0 = performance.now();
  const made = await http(service.port, "GET", variant!, { agent: b.agent, headers: { host: b.host } });
  const variantMs = performance.now() - t0;
  if (made.status !== 200) throw new Error(`B's variant ${variant}: ${made.status}`);
  return { page: pageMs, write: writeMs, variant: variantMs };
}

/** Site A's load until `stop` resolves: renders, writes and variants, each from loops of their own. */
function saturate(
  service: Service,
  a: Site & { pages: number; variants: string[] },
  stopped: () => boolean,
): Promise<number> {
  let requests = 0;
  const renders = async (offset: number) => {
    for (let i = offset; !stopped(); i += 6) {
      if (i % a.pages === offset) await a.api.call("POST", `${a.site}/cache/flush`, { all: true });
      await http(service.port, "GET", `/a-${i % a.pages}/`, { agent: a.agent, headers: { host: a.host } });
      requests++;
    }
  };
  const writes = async (offset: number) => {
    for (let i = offset; !stopped(); i += 2) {
      await a.api.call("PUT", `${a.site}/frames/a-live`, {
        html: liveFrame().replace("<body>", `<body><!-- write ${i} -->`),
      });
      requests++;
    }
  };
  const variants = async (offset: number) => {
    for (let i = offset; !stopped() && i < a.variants.length; i += 2) {
      await http(service.port, "GET", a.variants[i]!, { agent: a.agent, headers: { host: a.host } });
      requests++;
    }
  };
  // BENCH_FAIRNESS_LOAD=renders,writes,variants picks which of A's loads run (all by default), to see what each costs B.
  const kinds = new Set((process.env.BENCH_FAIRNESS_LOAD ?? "renders,writes,variants").split(","));
  const loops = [
    ...(kinds.has("renders") ? [0, 1, 2, 3, 4, 5].map(renders) : []),
    ...(kinds.has("writes") ? [0, 1].map(writes) : []),
    ...(kinds.has("variants") ? [0, 1].map(variants) : []),
  ];
  return Promise.all(loops).then(() => requests);
}

export async function fairnessGroup(service: Service, hooks: FairnessHooks): Promise<void> {
  const siteOf = async (name: string, domain: string, sockets: number): Promise<Site> => {
    const agent = new Agent({ keepAlive: true, maxSockets: sockets });
    const api = new Api(service.port, undefined, agent);
    return {
      api,
      agent,
      site: `/api/site/${(await api.call("POST", "/api/sites", { name, domain })).site.id}`,
      host: domain,
    };
  };
  // A's loops each have a connection; B asks one thing at a time.
  const a = { ...(await siteOf("Site A", "a.localhost", 16)), pages: 60, variants: [] as string[] };
  const b = await siteOf("Site B", "b.localhost", 2);
  const api = a.api;

  const rows = Array.from({ length: 100 }, (_, n) => ({ n }));
  await api.call("PUT", `${a.site}/data/rows`, { items: rows });
  await api.call("POST", `${a.site}/frames`, { slug: "a-live", html: liveFrame() });
  for (let i = 0; i < a.pages; i++)
    await api.call("POST", `${a.site}/pages`, { title: `A ${i}`, slug: `a-${i}`, frame: "a-live" });
  hooks.log(`fairness: site A has ${a.pages} pages rendering on request`);
  for (let i = 0; i < (QUICK ? 8 : 30); i++)
    a.variants.push(...(await upload(service, a.site, `a-${i}.jpg`, await noiseJpeg(2000, 1500, i), a.agent)));

  await b.api.call("PUT", `${b.site}/data/rows`, { items: rows.slice(0, 20) });
  await b.api.call("POST", `${b.site}/frames`, { slug: "b-live", html: liveFrame() });
  await b.api.call("POST", `${b.site}/pages`, { title: "B", slug: "b-page", frame: "b-live" });
  await b.api.call("POST", `${b.site}/frames`, { slug: "b-card", html: "<section>card</section>" });
  await b.api.call("POST", `${b.site}/pages`, { title: "B card", slug: "b-card", frame: "b-card" });

  const measure = async (label: string) => {
    const times = { page: [] as number[], write: [] as number[], variant: [] as number[] };
    for (let i = 0; i < SAMPLES; i++) {
      const t = await timeB(service, b, label === "alone" ? i : 1_000 + i);
      times.page.push(t.page);
      times.write.push(t.write);
      times.variant.push(t.variant);
      await sleep(20);
    }
    return { page: median(times.page), write: median(times.write), variant: median(times.variant) };
  };

  const alone = await measure("alone");
  let stop = false;
  const load = saturate(service, a, () => stop);
  await sleep(1_000);
  const loaded = await measure("loaded");
  stop = true;
  const requests = await load;

  const report = (name: string, key: "page" | "write" | "variant", target: boolean) => {
    const ratio = loaded[key] / Math.max(alone[key], 0.1);
    hooks.record({
      name,
      value: round(loaded[key], 1),
      unit: "ms",
      baseline: round(alone[key], 1),
      ratio: round(ratio, 2),
      target: target ? `<= ${FAIRNESS_TARGET}` : "reported",
      pass: !target || ratio <= FAIRNESS_TARGET,
    });
  };
  report("fairness_other_site_uncached_page", "page", true);
  report("fairness_other_site_frame_write", "write", true);
  report("fairness_other_site_variant", "variant", false);
  hooks.note(
    `fairness: site A made ${requests} requests (renders of ~100 ms, frame writes, variants of 2000×1500 images) while B was measured ${SAMPLES} times`,
  );
}

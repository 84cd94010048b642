// The `templating` group of `npm run bench` (bench/README.md, "Templating"): analysis and bake of a
// page frame on a three-level layout chain (page → article → section → base) against the same
// output written flat in one frame, in a process of its own while nothing else of the bench runs.
// Analysis is `compileFrame` of every frame the chain needs (the page frame and its three layouts;
// the engine keeps programs by the markup's sha256, so a write of the page frame alone compiles
// only it: in the notes); bake is `renderFrame` through the engine's own context (`renderContext`
// of src/publish/render-context.ts, the budgets as src/publish/bounded-render.ts sets them), with
// the site's data, a header menu (a bake: menu markers) and strings. Both outputs are checked to be
// the same bytes. Prints one JSON line: {results, notes} (bench/README.md, "Templating").
import { createHash } from "node:crypto";
import { compileFrame, RENDER_BUDGET, renderFrame, type CompiledFrame } from "../src/markup/index.ts";
import { framesByRef, renderContext, type ReachableFrame, type RenderInput } from "../src/publish/render-context.ts";
import { filler } from "./content.ts";
import type { Result } from "./lib.ts";

const bind = (target: string, token: string) => `data-op-bind='{"${target}": "${token}"}'`;
const slot = (name: string) => `<!-- svc/slot {"name": "${name}"} /-->`;
const slotWith = (name: string, fallback: string) =>
  `<!-- svc/slot {"name": "${name}"} -->${fallback}<!-- /svc/slot -->`;
const MAIN = "<!-- svc/slot /-->";
const block = (name: string, body: string) => `<!-- svc/block {"name": "${name}"} -->${body}<!-- /svc/block -->`;
const layoutOf = (name: string) => `<!-- svc/layout {"name": "${name}"} /-->`;

// Each level as a function of what fills its slots: the layout frames pass slot inserts, the flat
// frame the content itself, so both print the same bytes.
const base = (head: string, main: string, scripts: string) => `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title ${bind("text", "site.name")}>Site</title>${head}<link rel="stylesheet" href="/assets/site.css"></head>
<body><header class="site-header"><a class="brand" href="/" ${bind("text", "site.name")}>Site</a>
<nav><!-- svc/menu {"location": "header", "depth": 2, "class": "menu"} /--></nav></header>
${main}
<footer class="site-footer"><p ${bind("text", "site.tagline")}>Tagline</p>
<ul class="links"><!-- svc/repeat {"source": "data.links"} --><li><a data-op-bind='{"href": "item.url", "text": "item.title"}'></a></li><!-- /svc/repeat --></ul>
<p><a href="/imprint/" ${bind("text", "t.footer.imprint")}>Imprint</a> · <a href="/privacy/" ${bind("text", "t.footer.privacy")}>Privacy</a></p>
${filler(1_500, 10)}</footer>
${scripts}</body></html>
`;
const section = (aside: string, main: string) => `<div class="section">
<aside class="section-aside">${aside}</aside>
<div class="section-main">${main}</div>
${filler(1_000, 20)}</div>`;
const article = (main: string) => `<article class="article">
<header><p class="kicker" ${bind("text", "t.article.kicker")}>Kicker</p></header>
${main}
<!-- svc/if {"when": "settings.tagline"} --><p class="tagline" ${bind("text", "settings.tagline")}></p><!-- svc/else /--><p class="tagline">none</p><!-- /svc/if -->
${filler(1_000, 30)}</article>`;

const PAGE_HEAD = `<meta name="description" content="About us"><link rel="canonical" href="/about/">`;
const PAGE_ASIDE = `<ul class="aside-links"><li><a href="/team/">Team</a></li><li><a href="/jobs/">Jobs</a></li></ul>`;
const PAGE_MAIN = `<h1>About us</h1>\n${filler(9_000, 1)}`;
const SCRIPTS = `<script src="/assets/site.js" defer></script>`;

/** The four frames of the chain, by slug (the page frame first), and the same output written flat. */
export function templatingFrames(): { chain: Array<[string, string]>; flat: string } {
  const chain: Array<[string, string]> = [
    ["tpl-page", `${layoutOf("tpl-article")}${block("head", PAGE_HEAD)}${block("aside", PAGE_ASIDE)}${PAGE_MAIN}`],
    ["tpl-article", `${layoutOf("tpl-section")}${article(MAIN)}`],
    ["tpl-section", `${layoutOf("tpl-base")}${section(slotWith("aside", "<p>No links</p>"), MAIN)}`],
    ["tpl-base", base(slot("head"), MAIN, slotWith("scripts", SCRIPTS))],
  ];
  const flat = base(PAGE_HEAD, section(PAGE_ASIDE, article(PAGE_MAIN)), SCRIPTS);
  return { chain, flat };
}

/** What a bake of the site reads: its name, tagline, data set, header menu (two levels) and strings. */
function inputFor(slug: string): RenderInput {
  const menu = Array.from({ length: 6 }, (_, i) => ({
    title: `Section ${i}`,
    url: `http://localhost/section-${i}/`,
    page: 100 + i,
    children: Array.from({ length: 4 }, (_, j) => ({
      title: `Page ${i}.${j}`,
      url: `http://localhost/section-${i}/page-${j}/`,
      page: 1000 + i * 10 + j,
      children: [],
    })),
  }));
  return {
    slug,
    items: [
      ["data.links", Array.from({ length: 8 }, (_, i) => ({ title: `Link ${i}`, url: `/link-${i}/` }))],
      ["menu.header", menu],
    ],
    site: { name: "Bench site", tagline: "Measured, not guessed", url: "http://localhost", lang: "en" },
    settings: {
      name: "Bench site",
      tagline: "Measured, not guessed",
      theme: "default",
      default_lang: "en",
      home_page: null,
      render_model: "v2",
    },
    page: undefined,
    links: [],
    media: [],
    styles: [],
    sidebars: [],
    headings: [],
    current: null,
    strings: [
      ["footer.imprint", "Imprint"],
      ["footer.privacy", "Privacy"],
      ["article.kicker", "From the team"],
    ],
  };
}

const reachable = (slug: string, compiled: CompiledFrame, id: number): ReachableFrame => ({
  id: String(id).padStart(16, "0"),
  slug,
  sha256: createHash("sha256").update(compiled.html).digest("hex"),
  compiled,
});

/** A bake as the engine's bounded render runs it: the engine's context, the render budgets. */
function bake(top: ReachableFrame, frames: ReadonlyMap<string, ReachableFrame>) {
  const now = () => performance.now();
  return renderFrame(top.compiled, renderContext(inputFor(top.slug), frames), {
    slug: top.slug,
    budget: {
      bytes: RENDER_BUDGET.bytes,
      expansions: RENDER_BUDGET.expansions,
      until: now() + RENDER_BUDGET.timeMs,
      now,
    },
  });
}

/** Microseconds per call of `fn`, timed over batches of `batch` calls. */
function perCall(fn: () => void, batch: number): number {
  const t0 = performance.now();
  for (let i = 0; i < batch; i++) fn();
  return ((performance.now() - t0) * 1000) / batch;
}

const medianOf = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/**
 * `samples` interleaved batches of each side (the side going first alternating), so a burst of
 * other work on the machine hits both alike; each side's best batch (the least disturbed: other
 * people's test suites run on this machine) and the ratios of the pairs.
 */
function pair(
  layout: () => void,
  flat: () => void,
  samples: number,
  batch: number,
): { layout: number; flat: number; ratios: number[] } {
  for (let i = 0; i < 3; i++) {
    perCall(layout, batch);
    perCall(flat, batch);
  }
  const times = { layout: [] as number[], flat: [] as number[] };
  const ratios: number[] = [];
  for (let i = 0; i < samples; i++) {
    let l: number;
    let f: number;
    if (i % 2 === 0) {
      l = perCall(layout, batch);
      f = perCall(flat, batch);
    } else {
      f = perCall(flat, batch);
      l = perCall(layout, batch);
    }
    times.layout.push(l);
    times.flat.push(f);
    ratios.push(l / f);
  }
  return { layout: Math.min(...times.layout), flat: Math.min(...times.flat), ratios };
}

export function measureTemplating(): { results: Result[]; notes: string[] } {
  const quick = process.env.BENCH_QUICK === "1";
  const samples = quick ? 5 : 41;
  const { chain, flat } = templatingFrames();

  // The same output, checked once: the chain's bake and the flat frame's bake print the same bytes.
  const compiledChain = chain.map(([slug, html], i) => reachable(slug, compileFrame(html), i + 1));
  const framesOfChain = framesByRef(compiledChain);
  const flatFrame = reachable("tpl-flat", compileFrame(flat), 99);
  const framesOfFlat = framesByRef([flatFrame]);
  const fromChain = bake(compiledChain[0]!, framesOfChain);
  const fromFlat = bake(flatFrame, framesOfFlat);
  if (fromChain.html !== fromFlat.html) throw new Error("the layout chain and the flat frame print different output");
  if (fromChain.frames.join(",") !== "tpl-article,tpl-base,tpl-section")
    throw new Error(`the chain printed ${fromChain.frames.join(",")}`);
  for (const r of [fromChain, fromFlat])
    if (r.warnings.length > 0 || r.unresolved.length > 0)
      throw new Error(`bake: ${JSON.stringify([r.warnings, r.unresolved])}`);
  for (const [, html] of chain)
    if (compileFrame(html).analysis.warnings.length > 0)
      throw new Error(`analysis warnings: ${JSON.stringify(compileFrame(html).analysis.warnings)}`);

  const chainBytes = chain.reduce((n, [, html]) => n + Buffer.byteLength(html), 0);
  const analysis = pair(
    () => {
      for (const [, html] of chain) compileFrame(html);
    },
    () => void compileFrame(flat),
    samples,
    250,
  );
  const pageOnly = pair(
    () => void compileFrame(chain[0]![1]),
    () => void compileFrame(flat),
    quick ? 3 : 9,
    250,
  );
  const bakes = pair(
    () => void bake(compiledChain[0]!, framesOfChain),
    () => void bake(flatFrame, framesOfFlat),
    samples,
    600,
  );

  const result = (name: string, m: { layout: number; flat: number }): Result => ({
    name,
    value: Number(m.layout.toFixed(1)),
    unit: "µs",
    baseline: Number(m.flat.toFixed(1)),
    ratio: Number((m.layout / m.flat).toFixed(2)),
    target: "reported",
    pass: true,
  });
  const spread = (ratios: number[]) =>
    `median ${medianOf(ratios).toFixed(2)}, ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`;
  return {
    results: [result("templating_layout_analysis", analysis), result("templating_layout_bake", bakes)],
    notes: [
      `templating: ${Buffer.byteLength(fromFlat.html)} bytes of output; the chain's four frames ${chainBytes} bytes of markup, the flat frame ${Buffer.byteLength(flat)}; ${fromChain.marks.length} menu items marked per page`,
      `templating_layout_analysis: the page frame and its three layouts compiled; pair ratios ${spread(analysis.ratios)}; the page frame alone ${pageOnly.layout.toFixed(1)} µs (${(pageOnly.layout / pageOnly.flat).toFixed(2)} of flat)`,
      `templating_layout_bake: pair ratios ${spread(bakes.ratios)}`,
    ],
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(measureTemplating()));

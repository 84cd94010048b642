// The sites of the `scale` group (bench/README.md, "Scale"): one shape at two sizes, 2,000 and 20,000
// pages. Both are filled the same way, so the only difference between them is their size:
//
// - languages `en` (default) and `de`;
// - pages: sections of 100 pages (a top-level section page and its 99 children) in `en`, each
//   with its `de` translation (same frame, under the section's translation): P pages, P/200
//   sections. Besides them, 9 measured pages: 8 `solo-page-k` (en, top level, each the only page
//   on frame `solo-k`) and `sitemap` (on frame `scale-sitemap`, which prints menu location
//   `footer_3`);
// - frames: 2,000 at both sizes (BENCH_SCALE_FRAMES; the same at 2,000 pages: only
//   the pages grow). `scale-header` (prints site.name and the `header` menu) and
//   `scale-footer` (site.tagline), embedded by every other frame; `scale-sitemap`; `solo-0…7`;
//   the rest `pf-j`, each page of a section on `pf-(i mod n)` (about ten or one a frame), every
//   tenth `pf` printing the page's title (renders on request), the others baked;
// - 50 menus at both sizes (menus are not what grows): `main-en` in `header` (theme map and
//   `en`), `main-de` in `header` for `de`, `sitemap` in `footer_3`, 47 more in no location; 20
//   items each (10 section pages, each with one child page, plus links).
//
// Filling (see bench/README.md, "How the scale sites are filled"): through the HTTP API, except
// sections 1… of the pages in `bulk` mode, which are inserted through the service's own store
// (`openStore` of src/store/database.ts, the service stopped) as exactly the rows the API wrote
// for section 0 (checked). The warm-up is the API's: the header frame is written with its menu
// once everything exists, which rebakes every frame and writes every page's static copy.
import { filler } from "./content.ts";
import { Api, memoryOf, startService, type Service } from "./lib.ts";
import { openStore } from "../src/store/database.ts";

const S = "/api/site/1";
const IN_FLIGHT = 3;
export const SECTION = 100;
export const MENUS = 50;
export const MENU_ITEMS = 20;
export const SOLO = 8;

const bind = (target: string, token: string) => `data-op-bind='{"${target}": "${token}"}'`;

export const scaleHeader = (withMenu: boolean) =>
  `<header class="site-header"><a class="brand" href="/" ${bind("text", "site.name")}>Site</a>${withMenu ? `<nav><!-- svc/menu {"location": "header", "depth": 2, "class": "menu"} /--></nav>` : ""}</header>\n`;
const SCALE_FOOTER = `<footer class="site-footer"><p ${bind("text", "site.tagline")}>Tagline</p><p>&copy; The authors</p></footer>\n`;

function documentOf(main: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title ${bind("text", "site.name")}>Site</title><link rel="stylesheet" href="/assets/site.css"></head>
<body><!-- svc/frame {"name": "scale-header"} /-->
<main>${main}</main>
<!-- svc/frame {"name": "scale-footer"} /-->
</body></html>
`;
}

/** A page frame: about 2 KB of its own, the header and footer around it; `live` prints the page's title. */
export function pageFrame(j: number, live: boolean, version = 0): string {
  const heading = live ? `<h1 ${bind("text", "page.title")}>Title</h1>` : `<h1>Template ${j}</h1>`;
  return documentOf(`<article class="t${j} v${version}">${heading}${filler(1_800, j + version)}</article>`);
}

export const sitemapFrame = (withMenu: boolean) =>
  documentOf(
    `<article><h1>Sitemap</h1>${withMenu ? `<!-- svc/menu {"location": "footer_3", "depth": 3, "class": "sitemap"} /-->` : ""}</article>`,
  );

/** The size of one site of the shape. */
export interface ScaleShape {
  pages: number;
  frames: number;
  /** Pages per language in sections (pages / 2). */
  perLang: number;
  sections: number;
  /** `pf-j` frames. */
  pageFrames: number;
}

export function shapeOf(pages: number): ScaleShape {
  if (pages % (2 * SECTION) !== 0)
    throw new Error(`scale site: ${pages} pages is not a whole number of ${2 * SECTION}-page sections`);
  const frames = Number(process.env.BENCH_SCALE_FRAMES ?? 2_000);
  return { pages, frames, perLang: pages / 2, sections: pages / (2 * SECTION), pageFrames: frames - 3 - SOLO };
}

/** `en` page i (0-based over the language: section s = i / 100, c = i % 100, c 0 the section page). */
const pfOf = (shape: ScaleShape, i: number) => i % shape.pageFrames;
export const isLive = (j: number) => j % 10 === 5;

interface PlannedPage {
  key: string;
  lang: "en" | "de";
  parentKey: string | null;
  /** The en page of the translation group. */
  originKey: string | null;
  slug: string;
  title: string;
  content: string;
  frame: string;
}

/** The pages of section `s` in the order the API writes them: en section page, en children, de section page, de children. */
function sectionPages(shape: ScaleShape, s: number): PlannedPage[] {
  const out: PlannedPage[] = [];
  for (const lang of ["en", "de"] as const) {
    for (let c = 0; c < SECTION; c++) {
      const i = s * SECTION + c;
      const en = lang === "en";
      const slug = c === 0 ? (en ? `section-${s}` : `abschnitt-${s}`) : en ? `topic-${s}-${c}` : `thema-${s}-${c}`;
      const title = c === 0 ? (en ? `Section ${s}` : `Abschnitt ${s}`) : en ? `Topic ${s}.${c}` : `Thema ${s}.${c}`;
      out.push({
        key: `${lang}:${s}:${c}`,
        lang,
        parentKey: c === 0 ? null : `${lang}:${s}:0`,
        originKey: en ? null : `en:${s}:${c}`,
        slug,
        title,
        content: en
          ? `<p>Page ${i} of the site, section ${s}: a few words of content.</p>`
          : `<p>Seite ${i}, Abschnitt ${s}: ein paar Worte Inhalt.</p>`,
        frame: `pf-${pfOf(shape, i)}`,
      });
    }
  }
  return out;
}

/** Runs `task` over the items with a few calls in flight. */
async function inParallel<T>(items: readonly T[], task: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]);
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

/** Writes one section through the API; answers key → page id. */
async function sectionThroughApi(api: Api, shape: ScaleShape, s: number, ids: Map<string, number>): Promise<void> {
  const pages = sectionPages(shape, s);
  const write = async (p: PlannedPage) => {
    const answer =
      p.lang === "en"
        ? await api.call("POST", `${S}/pages`, {
            title: p.title,
            slug: p.slug,
            content: p.content,
            frame: p.frame,
            ...(p.parentKey ? { parent: ids.get(p.parentKey) } : {}),
          })
        : await api.call("POST", `${S}/pages/language`, {
            page: ids.get(p.originKey!),
            lang: "de",
            title: p.title,
            slug: p.slug,
            content: p.content,
          });
    if (answer.page.path !== pathOf(p))
      throw new Error(`page ${p.key}: path ${answer.page.path}, expected ${pathOf(p)}`);
    ids.set(p.key, answer.page.id);
  };
  for (const lang of ["en", "de"]) {
    const ofLang = pages.filter((p) => p.lang === lang);
    await write(ofLang[0]);
    await inParallel(ofLang.slice(1), write);
  }
}

const pathOf = (p: PlannedPage) =>
  p.parentKey
    ? `/${p.parentKey.startsWith("en") ? "section" : "abschnitt"}-${p.key.split(":")[1]}/${p.slug}`
    : `/${p.slug}`;

/** What the fill did, for the notes and the measurements. */
export interface FilledScale {
  shape: ScaleShape;
  /** Pages in the site (sections and the 9 measured pages). */
  totalPages: number;
  /** key (`en:s:c`, `de:s:c`, `solo:k`, `sitemap`) → page id. */
  ids: Map<string, number>;
  sitemapMenu: number;
  how: string;
  seconds: number;
  /** Pages the warm-up wrote a static copy for, and how long it took. */
  warm: { frames: number; pages: number; seconds: number };
  /** VmHWM (MB) of the service processes of the fill. */
  fillPeakMb: number;
  /** Seconds per part of the fill. */
  parts: Record<string, number>;
}

export type FillMode = "api" | "bulk";

/**
 * Fills a site of the shape in `dataDir`. `bulk`: section 0 and everything but pages through the
 * API, sections 1… through the store. `api`: every page through the API (slow at 20,000 pages:
 * see bench/README.md). Starts and stops service processes of its own; the returned site is
 * warm (every static copy written).
 */
export async function fillScale(
  dataDir: string,
  pages: number,
  mode: FillMode,
  log: (message: string) => void,
): Promise<FilledScale> {
  const shape = shapeOf(pages);
  const t0 = performance.now();
  const parts: Record<string, number> = {};
  let mark = performance.now();
  const part = (name: string) => {
    parts[name] = (performance.now() - mark) / 1000;
    mark = performance.now();
    log(`  scale ${pages}: ${name} in ${parts[name].toFixed(1)} s`);
  };
  const ids = new Map<string, number>();
  let fillPeakMb = 0;

  let service: Service = await startService(dataDir);
  let api = new Api(service.port);
  try {
    await api.call("POST", `${S}/languages`, { code: "en", default: true });
    await api.call("POST", `${S}/languages`, { code: "de" });
    // Frames first, without a bake (their pages are published by the warm-up, or as they are
    // written), and the header and sitemap without their menus: those come last.
    const frames: Array<{ slug: string; html: string }> = [
      { slug: "scale-header", html: scaleHeader(false) },
      { slug: "scale-footer", html: SCALE_FOOTER },
      { slug: "scale-sitemap", html: sitemapFrame(false) },
      ...Array.from({ length: SOLO }, (_, k) => ({ slug: `solo-${k}`, html: pageFrame(100_000 + k, false) })),
      ...Array.from({ length: shape.pageFrames }, (_, j) => ({ slug: `pf-${j}`, html: pageFrame(j, isLive(j)) })),
    ];
    await inParallel(frames, (f) => api.call("POST", `${S}/frames`, { ...f, bake: false }));
    part(`${frames.length} frames (API)`);

    for (let k = 0; k < SOLO; k++) {
      const answer = await api.call("POST", `${S}/pages`, {
        title: `Solo ${k}`,
        slug: `solo-page-${k}`,
        frame: `solo-${k}`,
        content: `<p>Solo page ${k}.</p>`,
      });
      ids.set(`solo:${k}`, answer.page.id);
    }
    ids.set(
      "sitemap",
      (await api.call("POST", `${S}/pages`, { title: "Sitemap", slug: "sitemap", frame: "scale-sitemap" })).page.id,
    );

    const apiSections = mode === "api" ? shape.sections : 1;
    let t = performance.now();
    for (let s = 0; s < apiSections; s++) {
      await sectionThroughApi(api, shape, s, ids);
      if ((s + 1) % 5 === 0 || s === apiSections - 1) {
        log(
          `  scale ${pages}: ${(s + 1) * 2 * SECTION} pages through the API (${((performance.now() - t) / ((s % 5) + 1) / (2 * SECTION)).toFixed(1)} ms each over the last ${((s % 5) + 1) * 2 * SECTION})`,
        );
        t = performance.now();
      }
    }
    part(`${apiSections * 2 * SECTION + SOLO + 1} pages (API)`);

    if (apiSections < shape.sections) {
      fillPeakMb = Math.max(fillPeakMb, memoryOf(service.pid).peakMb);
      await service.stop();
      await bulkSections(dataDir, shape, ids);
      part(`${(shape.sections - apiSections) * 2 * SECTION} pages (bulk, through the store)`);
      service = await startService(dataDir);
      api = new Api(service.port);
      const total = (await api.call("GET", `${S}/pages?per_page=1&status=any`)).total;
      if (total !== shape.pages + SOLO + 1)
        throw new Error(`after the bulk insert GET /pages counts ${total} pages, expected ${shape.pages + SOLO + 1}`);
      await sameAsApi(api, ids, shape);
    }

    // Menus: 50, with their items; no frame prints a menu yet, so nothing is rebaked.
    let sitemapMenu = 0;
    for (let m = 0; m < MENUS; m++) {
      const lang = m === 1 ? "de" : "en";
      const items = menuItems(shape, m, lang, ids);
      const body: Record<string, unknown> = {
        name: m === 0 ? "Main" : m === 1 ? "Haupt" : m === 2 ? "Sitemap" : `Menu ${m}`,
        slug: m === 0 ? "main-en" : m === 1 ? "main-de" : m === 2 ? "sitemap" : `menu-${m}`,
        items,
      };
      if (m === 0) Object.assign(body, { location: "header" });
      if (m === 1) Object.assign(body, { location: "header", lang: "de" });
      if (m === 2) Object.assign(body, { location: "footer_3" });
      const answer = await api.call("POST", `${S}/menus`, body);
      if (answer.menu.items !== MENU_ITEMS) throw new Error(`menu ${m}: ${answer.menu.items} items`);
      if (m === 2) sitemapMenu = answer.menu.id;
    }
    part(`${MENUS} menus (API)`);

    // The warm-up: the sitemap and then the header print their menus. The header is embedded by
    // every other frame, so this rebakes every frame and writes the static copy of every page
    // on a baked frame (in both languages).
    await api.call("PUT", `${S}/frames/scale-sitemap`, { html: sitemapFrame(true) });
    const tw = performance.now();
    const warm = await api.call("PUT", `${S}/frames/scale-header`, { html: scaleHeader(true) });
    const warmSeconds = (performance.now() - tw) / 1000;
    // Every frame that embeds the header: all but the header itself and the footer.
    if (warm.rebaked.total !== shape.frames - 2)
      throw new Error(`warm-up rebaked ${warm.rebaked.total} frames, expected ${shape.frames - 2}`);
    part(`warm-up (PUT scale-header: ${warm.rebaked.total} frames, ${warm.rebaked.pages.length} pages)`);
    fillPeakMb = Math.max(fillPeakMb, memoryOf(service.pid).peakMb);
    return {
      shape,
      totalPages: shape.pages + SOLO + 1,
      ids,
      sitemapMenu,
      how:
        mode === "api"
          ? "every page through the API"
          : "section 0 through the API, the other sections through the store",
      seconds: (performance.now() - t0) / 1000,
      warm: { frames: warm.rebaked.total, pages: warm.rebaked.pages.length, seconds: warmSeconds },
      fillPeakMb,
      parts,
    };
  } finally {
    await service.stop();
  }
}

/** 20 items: 10 section pages (spread over the site), each with one child page, the children alternating with links. */
function menuItems(shape: ScaleShape, m: number, lang: "en" | "de", ids: Map<string, number>): unknown[] {
  const items: unknown[] = [];
  for (let t = 0; t < MENU_ITEMS / 2; t++) {
    const s = (m * 7 + t * 13) % shape.sections;
    const section = ids.get(`${lang}:${s}:0`)!;
    const child =
      t % 2 === 0
        ? { page: ids.get(`${lang}:${s}:${1 + ((m + t) % 9)}`)! }
        : { url: `/links/${m}/${t}/`, title: `Link ${m}.${t}` };
    items.push({ page: section, children: [child] });
  }
  return items;
}

// ---------------------------------------------------------------------------------------------
// The bulk part: sections 1… inserted through the service's own store, as the rows the API wrote
// for section 0 with the section number and ids moved.

type Row = {
  id: number;
  parent_id: number;
  lang: string;
  slug: string;
  path: string;
  title: string;
  status: string;
  content: string;
  fields_json: string;
  frame_id: string | null;
  translation_group: number | null;
};

async function bulkSections(dataDir: string, shape: ScaleShape, ids: Map<string, number>): Promise<void> {
  const store = await openStore({ dataDir, databaseUrl: null });
  try {
    const db = store.db;
    const frameIds = new Map(
      (await db.selectFrom("frames").select(["id", "slug"]).where("site_id", "=", 1).execute()).map((f) => [
        f.slug,
        f.id,
      ]),
    );
    const stored = new Map(
      (await db.selectFrom("pages").selectAll().where("site_id", "=", 1).execute()).map((r) => [r.id, r]),
    );
    // The rows the API wrote for section 0 must be the rows this builds for it.
    const keyOf = new Map([...ids].map(([key, id]) => [id, key]));
    const section0 = sectionPages(shape, 0);
    const built0 = rowsOf(section0, frameIds, (key) => ids.get(key)!);
    for (const row of built0) {
      const api = stored.get(row.id);
      if (!api) throw new Error(`bulk: page ${keyOf.get(row.id)} (${row.id}) is not stored`);
      for (const column of Object.keys(row) as Array<keyof Row>) {
        if (api[column] !== row[column])
          throw new Error(
            `bulk: the API wrote ${column} = ${JSON.stringify(api[column])} for ${keyOf.get(row.id)}, the bulk insert would write ${JSON.stringify(row[column])}`,
          );
      }
    }
    const template = stored.get(ids.get("en:0:1")!)!;
    let next = Math.max(...stored.keys()) + 1;
    const now = template.created_at_gmt;
    await db.transaction().execute(async (trx) => {
      for (let s = 1; s < shape.sections; s++) {
        const planned = sectionPages(shape, s);
        for (const p of planned) ids.set(p.key, next++);
        const rows = rowsOf(planned, frameIds, (key) => ids.get(key)!);
        for (let i = 0; i < rows.length; i += 500) {
          await trx
            .insertInto("pages")
            .values(
              rows.slice(i, i + 500).map((row) => ({ ...row, site_id: 1, created_at_gmt: now, updated_at_gmt: now })),
            )
            .execute();
        }
      }
    });
  } finally {
    await store.close();
  }
}

/** The stored rows of planned pages, as the API writes them (translation group: the en page's id). */
function rowsOf(planned: PlannedPage[], frameIds: Map<string, string>, id: (key: string) => number): Row[] {
  return planned.map((p) => {
    const own = id(p.key);
    const origin = p.originKey ? id(p.originKey) : own;
    return {
      id: own,
      parent_id: p.parentKey ? id(p.parentKey) : 0,
      lang: p.lang,
      slug: p.slug,
      path: pathOf(p),
      title: p.title,
      status: "publish",
      content: p.content,
      fields_json: "{}",
      frame_id: frameIds.get(p.frame)!,
      translation_group: origin,
    };
  });
}

/** A page of the last section read through the API answers like its section-0 twin written through the API. */
async function sameAsApi(api: Api, ids: Map<string, number>, shape: ScaleShape): Promise<void> {
  const last = shape.sections - 1;
  for (const c of [0, 42]) {
    for (const lang of ["en", "de"]) {
      const a = (await api.call("GET", `${S}/pages/${ids.get(`${lang}:0:${c}`)}`)).page;
      const b = (await api.call("GET", `${S}/pages/${ids.get(`${lang}:${last}:${c}`)}`)).page;
      const shapeOfRecord = (r: any) =>
        JSON.stringify({
          keys: Object.keys(r),
          status: r.status,
          lang: r.lang,
          langs: Object.keys(r.translations),
          visible: r.visible,
          fields: r.fields,
          parentIsSection: r.parent === 0 ? 0 : 1,
          frame: r.frame?.slice(0, 3),
        });
      if (shapeOfRecord(a) !== shapeOfRecord(b))
        throw new Error(
          `bulk page ${lang}:${last}:${c} answers ${shapeOfRecord(b)}, the API-written ${lang}:0:${c} ${shapeOfRecord(a)}`,
        );
    }
  }
}

// The publishing engine: the one place that decides what a change affects and brings the public
// site up to date. Writes name their changes (changes.ts); the dependency index turns them into
// frames; baked frames are rendered again; the pages on affected frames, and the pages that print
// a changed page's data, get their static copy rewritten or removed and their cached renders
// flushed. The report is the `rebaked` object of the answers.
import { gmt, type Clock } from "../clock.ts";
import type { RenderResult } from "../markup/index.ts";
import { pageById, type PageRow } from "../pages/queries.ts";
import type { Db } from "../store/database.ts";
import type { Change, Publisher, PublishOptions, Rebaked } from "./changes.ts";
import type { CompiledCache } from "./compiled-cache.ts";
import { ExecutorUnavailable, runBounded, type Executor } from "./executor.ts";
import { bakedOptionName } from "../frames/record.ts";
import type { PageCache } from "./page-cache.ts";
import { nothingRebaked } from "./report.ts";
import { prepareRender, type SourceLoader } from "./render-job.ts";
import { addressOf, langOf, loadSiteState, type SiteState } from "./site-state.ts";
import { createHash } from "node:crypto";
import type { PageRenderer } from "../public/public-site.ts";
import { menusReferencingPage } from "../menus/queries.ts";

export interface EngineDeps {
  db: Db;
  clock: Clock;
  port: number;
  pages: PageCache;
  compiled: CompiledCache;
  executor: Executor;
  timeoutMs: number;
  sources: SourceLoader;
}

type FrameEntry = Rebaked["frames"][number];

/**
 * On SQLite every query of a publish run completes at once, so a run of thousands of frames
 * would never give the event loop back: every other request (public pages included) would wait
 * for the whole run. It lets them in every few frames.
 */
const YIELD_EVERY = 16;
const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function bakeResponse(frameId: string, slug: string, result: RenderResult, sourceBytes: number, lang: string | null, state: SiteState) {
  return {
    baked: true,
    frame_id: frameId,
    bytes: Buffer.byteLength(result.html, "utf8"),
    source_bytes: sourceBytes,
    baked_option: bakedOptionName(frameId),
    renders_on_request: false,
    lang,
    default_lang: state.addressing.langs.defaultLang,
    blocks: result.blocks,
    inserts: result.inserts,
    unknown_inserts: result.unknown_inserts,
    binds: result.binds,
    bind_tags: result.bind_tags,
    repeats: result.repeats,
    frames: result.frames,
    unresolved: result.unresolved,
    warnings: result.warnings,
    slug,
  };
}

/** One publish operation over one site. */
class Run {
  private readonly bakes = new Map<string, RenderResult>();
  /** Frames whose pages have all been republished in this run: their outputs are not kept. */
  private readonly forgotten = new Set<string>();
  private readonly frames: FrameEntry[] = [];
  private readonly republished = new Set<number>();
  private readonly flushedUrls = new Set<string>();
  private readonly cachePages = new Set<number>();
  private readonly published = new Map<string, number[]>();

  constructor(private readonly deps: EngineDeps, private readonly state: SiteState) {}

  private async render(slug: string, lang: string | null, page?: PageRow): Promise<RenderResult> {
    const job = await prepareRender(this.deps.db, this.state, this.deps.compiled, this.deps.sources, slug, { lang, page });
    return runBounded(this.deps.executor, job, this.deps.timeoutMs);
  }

  /**
   * The baked output of a page-independent frame in one language, rendered once per run. It is
   * kept only while pages on the frame may still need it (see `forgetBakes`), so that a full
   * rebake of thousands of frames never holds every output at once.
   */
  private async bakeFor(frameId: string, slug: string, lang: string | null): Promise<RenderResult> {
    const key = `${frameId} ${lang ?? ""}`;
    const known = this.bakes.get(key);
    if (known) return known;
    const result = await this.render(slug, lang);
    if (this.pagesOnFrame(frameId).length > 0 && !this.forgotten.has(frameId)) this.bakes.set(key, result);
    const at = gmt(this.deps.clock());
    const row = { frame_id: frameId, site_id: this.state.site.id, lang: lang ?? "", html: result.html, bytes: Buffer.byteLength(result.html), report_json: JSON.stringify({ unresolved: result.unresolved, warnings: result.warnings }), baked_at_gmt: at };
    await this.deps.db
      .insertInto("frame_bakes")
      .values(row)
      .onConflict((oc) => oc.columns(["frame_id", "lang"]).doUpdateSet({ html: row.html, bytes: row.bytes, report_json: row.report_json, baked_at_gmt: at }))
      .execute();
    return result;
  }

  async rebakeFrame(slug: string, because: string[]): Promise<void> {
    const node = this.state.index.get(slug)!;
    if (this.state.index.rendersOnRequest(slug)) {
      await this.deps.db.deleteFrom("frame_bakes").where("frame_id", "=", node.id).execute();
      this.frames.push({ id: node.id, slug, because, bake: "not_needed", detail: { baked: false, frame_id: node.id, renders_on_request: true, live_reasons: this.state.index.liveReasons(slug) } });
      return;
    }
    const lang = this.state.addressing.langs.defaultLang;
    const result = await this.bakeFor(node.id, slug, lang);
    const source = await this.deps.db.selectFrom("frames").select("bytes").where("id", "=", node.id).executeTakeFirstOrThrow();
    this.frames.push({ id: node.id, slug, because, bake: "baked", detail: bakeResponse(node.id, slug, result, source.bytes, lang, this.state) });
  }

  /** Drops the kept outputs of a frame once every page on it has been republished. */
  forgetBakes(frameId: string): void {
    this.forgotten.add(frameId);
    for (const key of this.bakes.keys()) if (key.startsWith(`${frameId} `)) this.bakes.delete(key);
  }

  /** Brings one page's public output up to date: static copy written or removed, cache flushed. */
  async republishPage(pageId: number): Promise<void> {
    if (this.republished.has(pageId)) return;
    this.republished.add(pageId);
    const siteId = this.state.site.id;
    const page = await pageById(this.deps.db, siteId, pageId);
    const previous = await this.deps.db.selectFrom("static_copies").select(["address", "sha256"]).where("site_id", "=", siteId).where("page_id", "=", pageId).executeTakeFirst();
    if (previous) this.flushedUrls.add(previous.address);
    // The cache is flushed once the static copy is written or removed (below): a reader that
    // comes in between must not load the old copy again and keep it.
    try {
      await this.rewritePage(siteId, pageId, page, previous);
    } finally {
      for (const address of this.deps.pages.flushPages(siteId, [pageId])) this.flushedUrls.add(address);
    }
  }

  private async rewritePage(siteId: number, pageId: number, page: PageRow | undefined, previous: { address: string; sha256: string } | undefined): Promise<void> {
    const node = page?.frame_id ? this.state.index.getById(page.frame_id) : undefined;
    const servable = page && page.status === "publish" && this.state.tree.visible(page.id) && node;
    if (!servable || this.state.index.rendersOnRequest(node.slug)) {
      if (previous) await this.deps.db.deleteFrom("static_copies").where("site_id", "=", siteId).where("page_id", "=", pageId).execute();
      if (servable) {
        this.cachePages.add(pageId);
        this.flushedUrls.add(addressOf(this.state, langOf(this.state, page.lang), page.path));
      }
      return;
    }
    const lang = langOf(this.state, page.lang);
    const result = await this.bakeFor(node.id, node.slug, lang);
    const address = addressOf(this.state, lang, page.path);
    const sha256 = createHash("sha256").update(result.html).digest("hex");
    const row = { site_id: siteId, page_id: pageId, address, frame_id: node.id, html: result.html, bytes: Buffer.byteLength(result.html), sha256, written_at_gmt: gmt(this.deps.clock()) };
    if (!previous || previous.sha256 !== sha256 || previous.address !== address) {
      await this.deps.db
        .insertInto("static_copies")
        .values(row)
        .onConflict((oc) => oc.columns(["site_id", "page_id"]).doUpdateSet({ address, frame_id: node.id, html: row.html, bytes: row.bytes, sha256, written_at_gmt: row.written_at_gmt }))
        .execute();
    }
    this.flushedUrls.add(address);
    const list = this.published.get(node.id) ?? [];
    list.push(pageId);
    this.published.set(node.id, list);
  }

  /** Pages whose output prints a changed page's data: itself, children, parents, descendants, translations. */
  relativesOf(change: Extract<Change, { kind: "page" }>): number[] {
    const { tree, index } = this.state;
    const reads = (pageId: number, test: (source: string) => boolean) => {
      const frameId = this.frameIdOf(pageId);
      const node = frameId ? index.getById(frameId) : undefined;
      return node ? [...index.effectiveSources(node.slug)].some(test) : false;
    };
    const out = new Set<number>([change.pageId]);
    for (const child of tree.children(change.pageId)) if (reads(child.id, (s) => s === "page")) out.add(child.id);
    const current = tree.get(change.pageId)?.parent_id;
    for (const parent of [...(change.parents ?? []), ...(current ? [current] : [])]) {
      if (parent && reads(parent, (s) => s === "pages.children")) out.add(parent);
    }
    for (const descendant of tree.descendants(change.pageId)) if (reads(descendant.id, (s) => s === "breadcrumbs")) out.add(descendant.id);
    const group = tree.get(change.pageId)?.translation_group;
    if (group !== null && group !== undefined) {
      for (const member of tree.all()) if (member.translation_group === group && reads(member.id, (s) => s === "languages")) out.add(member.id);
    }
    return [...out];
  }

  private frameIds = new Map<number, string | null>();
  /** Frame id → ids of the pages on it, ascending. */
  private onFrame = new Map<string, number[]>();
  frameIdOf(pageId: number): string | null {
    return this.frameIds.get(pageId) ?? null;
  }

  async loadFrameIds(): Promise<void> {
    const rows = await this.deps.db.selectFrom("pages").select(["id", "frame_id"]).where("site_id", "=", this.state.site.id).execute();
    for (const row of rows) {
      this.frameIds.set(row.id, row.frame_id);
      if (row.frame_id === null) continue;
      const list = this.onFrame.get(row.frame_id);
      if (list) list.push(row.id);
      else this.onFrame.set(row.frame_id, [row.id]);
    }
    for (const list of this.onFrame.values()) list.sort((a, b) => a - b);
  }

  pagesOnFrame(frameId: string): number[] {
    return [...(this.onFrame.get(frameId) ?? [])];
  }

  report(status: Rebaked["status"], skipped: string[]): Rebaked {
    for (const entry of this.frames) {
      if (entry.bake !== "baked") continue;
      const detail = entry.detail as Record<string, unknown>;
      const published = (this.published.get(entry.id) ?? []).sort((a, b) => a - b);
      detail.published = { published: published.length, pages: published };
      detail.pages = this.pagesOnFrame(entry.id);
    }
    const pages = [...this.republished].sort((a, b) => a - b);
    const cachePages = [...this.cachePages].sort((a, b) => a - b);
    return {
      status,
      total: this.frames.length,
      baked: this.frames.filter((f) => f.bake === "baked").length,
      not_needed: this.frames.filter((f) => f.bake === "not_needed").length,
      frames: this.frames,
      pages,
      cache: {
        status: "ok",
        scope: "pages",
        pages: pages,
        flushed: { urls: { status: "ok", by: "api", urls: [...this.flushedUrls].sort(byCodeUnits), skipped: [] } },
      },
      ...(skipped.length > 0 ? { skipped } : {}),
      ...(status !== "ok" ? { message: "The renderer did not answer; what was saved stays saved. Repeat the call later." } : {}),
    } as Rebaked;
  }
}

export class PublishingEngine implements Publisher, PageRenderer {
  /** Per site, the end of the last publish run queued. */
  private readonly runs = new Map<number, Promise<void>>();

  constructor(private readonly deps: EngineDeps) {}

  /** Renders a page whose frame depends on it (or whose static copy is missing), bounded in time. */
  async renderPage(siteId: number, page: PageRow, lang: string | null): Promise<string | null> {
    const state = await loadSiteState(this.deps.db, siteId, this.deps.port);
    const node = state && page.frame_id ? state.index.getById(page.frame_id) : undefined;
    if (!state || !node) return null;
    const job = await prepareRender(this.deps.db, state, this.deps.compiled, this.deps.sources, node.slug, { lang, page });
    return (await runBounded(this.deps.executor, job, this.deps.timeoutMs)).html;
  }

  /** A page that menus point to changes those menus too (its title, address or validity). */
  private async withMenusShowing(siteId: number, changes: Change[]): Promise<Change[]> {
    const out = [...changes];
    const seen = new Set<number>();
    for (const change of changes) {
      if (change.kind !== "page") continue;
      for (const menuId of await menusReferencingPage(this.deps.db, siteId, change.pageId)) {
        if (!seen.has(menuId)) out.push({ kind: "menu", menuId });
        seen.add(menuId);
      }
    }
    return out;
  }

  /**
   * Publish runs of one site take turns. A run lets other requests in every few frames (see
   * YIELD_EVERY) and reads the site's state once, at its start: a write that lands meanwhile is
   * published by its own run, which starts from the state after that write only once this one
   * is over, so a later run's output always has the last word.
   */
  async changed(siteId: number, changes: Change[], options: PublishOptions = {}): Promise<Rebaked> {
    const before = this.runs.get(siteId);
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    this.runs.set(siteId, mine);
    try {
      await before;
      return await this.publish(siteId, changes, options);
    } finally {
      done();
      if (this.runs.get(siteId) === mine) this.runs.delete(siteId);
    }
  }

  private async publish(siteId: number, changes: Change[], options: PublishOptions): Promise<Rebaked> {
    const state = await loadSiteState(this.deps.db, siteId, this.deps.port);
    if (!state || changes.length === 0) return nothingRebaked();
    const run = new Run(this.deps, state);
    await run.loadFrameIds();
    changes = await this.withMenusShowing(siteId, changes);

    const affected = state.index.affectedBy(changes);
    const slugs = [...affected.keys()].filter((slug) => state.index.get(slug)).sort(byCodeUnits);
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    const processed = slugs.slice(0, limit);
    const skipped = slugs.slice(processed.length);

    const pageIds = new Set<number>();
    for (const change of changes) {
      if (change.kind === "page") for (const id of run.relativesOf(change)) pageIds.add(id);
      // A language change moves every address: every page is republished.
      if (change.kind === "languages" || change.kind === "all") for (const lite of state.tree.all()) pageIds.add(lite.id);
    }
    try {
      let done = 0;
      for (const slug of processed) {
        await run.rebakeFrame(slug, affected.get(slug)!);
        // The pages on the frame are republished at once, while its output is at hand: it need
        // not be kept until the end of the run.
        const frameId = state.index.get(slug)!.id;
        for (const pageId of run.pagesOnFrame(frameId)) {
          pageIds.add(pageId);
          await run.republishPage(pageId);
        }
        run.forgetBakes(frameId);
        if (++done % YIELD_EVERY === 0) await yieldToOthers();
      }
      for (const pageId of [...pageIds].sort((a, b) => a - b)) {
        await run.republishPage(pageId);
        if (++done % YIELD_EVERY === 0) await yieldToOthers();
      }
      return run.report("ok", skipped);
    } catch (error) {
      if (error instanceof ExecutorUnavailable) return run.report("unavailable", skipped);
      throw error;
    }
  }
}


// One publish run over one site: frames rebaked, pages' static copies rewritten or removed, cached
// renders flushed, and the `rebaked` report of it all. The engine (engine.ts) decides what a run
// covers; a run only does it. With `bake: false` (`withdraw`), nothing is rendered: the pages whose
// output changed lose their static copy and cached render and render on request until the next bake.
import type { PublicFront } from "../config.ts";
import { createHash } from "node:crypto";
import { gmt, type Clock } from "../clock.ts";
import { applyMarks, OverBudget, type RenderResult } from "../markup/index.ts";
import type { Db } from "../store/database.ts";
import type { PageRow } from "../store/schema.ts";
import { frameHeads } from "../frames/queries.ts";
import { pageById } from "../pages/queries.ts";
import type { Rebaked } from "../write/change.ts";
import type { Withdrawn } from "./plan.ts";
import { readOnly, type CompiledCache } from "./compiled-cache.ts";
import { inProcessExecutor, type Executor } from "./executor.ts";
import { renderBounded } from "./bounded-render.ts";
import type { RenderPool } from "./render-pool.ts";
import type { PageCache } from "./page-cache.ts";
import { bakedOptionName, byCodeUnits } from "../effects/report.ts";
import { dropBakes, dropCopies, keepBake, keepCopy } from "../output/kept-output.ts";
import { currentOf, prepareRender } from "./render-job.ts";
import type { SiteDirectory } from "./site-directory.ts";
import type { TrialBakes } from "./trial-handoff.ts";
import type { TrialRenders } from "./rehearsal.ts";
import { langOf, type SiteState } from "./site-state.ts";
import { pageAddress } from "../site/addresses.ts";

export interface EngineDeps {
  db: Db;
  clock: Clock;
  front: PublicFront;
  pages: PageCache;
  /** Host → site of the public site; cleared when a site's row changes. */
  directory: SiteDirectory;
  compiled: CompiledCache;
  executor: Executor;
  /** Where renders that outlast a slice of this thread go on (bounded-render.ts). */
  pool: RenderPool;
  timeoutMs: number;
}

/**
 * A trial run (PublishingEngine.check) renders what a write would rebake, inside the write's
 * transaction and before it commits, and writes nothing: no bake, no static copy, no flush. A
 * render that spends a budget then refuses the write (OverBudget).
 */
export type RunMode = "publish" | "trial";

type FrameEntry = Rebaked["frames"][number];

function bakeResponse(
  frameId: string,
  slug: string,
  result: RenderResult,
  sourceBytes: number,
  lang: string | null,
  state: SiteState,
) {
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
export class Run {
  private readonly bakes = new Map<string, RenderResult>();
  /** Frames whose pages have all been republished in this run: their outputs are not kept. */
  private readonly forgotten = new Set<string>();
  private readonly frames: FrameEntry[] = [];
  private readonly republished = new Set<number>();
  private readonly flushedUrls = new Set<string>();
  private readonly published = new Map<string, number[]>();
  /** Frames whose bake spent a budget in this run: their bakes and pages keep their last good output. */
  private readonly overBudget = new Set<string>();
  /** Trial: frames rendering on request already tried with one of their pages. */
  private readonly triedOnRequest = new Set<string>();

  constructor(
    private readonly deps: EngineDeps,
    private readonly state: SiteState,
    private readonly mode: RunMode = "publish",
    /** Bakes of the write's trial, reused instead of rendering again (trial-handoff.ts). */
    private readonly reuse?: ReadonlyMap<string, RenderResult>,
    /** A trial keeps its bakes here for the publish run after the commit. */
    private readonly kept?: TrialBakes,
    /** How a trial's renders are made: by default now; a rehearsal records or checks them (rehearsal.ts). */
    private readonly renders?: TrialRenders,
  ) {
    this.indexPagesOnFrames();
  }

  private async render(slug: string, lang: string | null, page?: PageRow): Promise<RenderResult> {
    const compiled = this.mode === "trial" ? readOnly(this.deps.compiled) : this.deps.compiled;
    const prepared = await prepareRender(this.deps.db, this.deps.clock, this.state, compiled, slug, { lang, page });
    if (this.mode === "publish") return renderBounded(this.deps, prepared);
    // A trial renders here whatever the executor: it checks budgets, it does not publish. It keeps
    // outputs only while the handoff has room for them (trial-handoff.ts); past that it measures.
    const measure = !(page === undefined && this.kept?.hasRoom());
    const now = () => renderBounded({ ...this.deps, executor: inProcessExecutor }, prepared, measure);
    return this.renders ? this.renders.render(prepared, page !== undefined, measure, now) : now();
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
    const result = this.reuse?.get(key) ?? (await this.render(slug, lang));
    this.kept?.keep(key, result);
    if (this.pagesOnFrame(frameId).length > 0 && !this.forgotten.has(frameId)) this.bakes.set(key, result);
    if (this.mode === "trial") return result;
    const at = gmt(this.deps.clock());
    // The frame's own bake marks no page (menus print markers that each page's copy resolves).
    const html = applyMarks(result.html, result.marks, null);
    const row = {
      frame_id: frameId,
      site_id: this.state.site.id,
      lang: lang ?? "",
      html,
      bytes: Buffer.byteLength(html),
      report_json: JSON.stringify({ unresolved: result.unresolved, warnings: result.warnings }),
      baked_at_gmt: at,
    };
    // Past the site's published_bytes the bake is not kept; its pages still get it from this run.
    await keepBake(this.deps.db, row);
    return result;
  }

  async rebakeFrame(slug: string, because: string[]): Promise<void> {
    const node = this.state.index.get(slug)!;
    if (this.mode === "trial") return this.tryFrame(slug);
    if (this.state.index.rendersOnRequest(slug)) {
      await dropBakes(this.deps.db, this.state.site.id, node.id);
      this.frames.push({
        id: node.id,
        slug,
        because,
        bake: "not_needed",
        detail: {
          baked: false,
          frame_id: node.id,
          renders_on_request: true,
          live_reasons: this.state.index.liveReasons(slug),
        },
      });
      return;
    }
    const lang = this.state.addressing.langs.defaultLang;
    let result: RenderResult;
    try {
      result = await this.bakeFor(node.id, slug, lang);
    } catch (error) {
      if (!(error instanceof OverBudget)) throw error;
      // Written before this run (a write checks its bakes first), e.g. by two writes at once:
      // the frame and its pages keep their last good output.
      this.overBudget.add(node.id);
      this.frames.push({
        id: node.id,
        slug,
        because,
        bake: "failed",
        detail: { baked: false, frame_id: node.id, code: "render_too_large", budget: error.budget, chain: error.chain },
      });
      return;
    }
    const [source] = await frameHeads(this.deps.db, [node.id]);
    if (!source) throw new Error(`frame ${slug} vanished while it was baked`);
    this.frames.push({
      id: node.id,
      slug,
      because,
      bake: "baked",
      detail: bakeResponse(node.id, slug, result, source.bytes, lang, this.state),
    });
  }

  /** Drops the kept outputs of a frame once every page on it has been republished. */
  forgetBakes(frameId: string): void {
    this.forgotten.add(frameId);
    for (const key of this.bakes.keys()) if (key.startsWith(`${frameId} `)) this.bakes.delete(key);
  }

  /** Trial: the frame's bake in the default language, or, for a frame rendering on request, one of its pages. */
  private async tryFrame(slug: string): Promise<void> {
    const node = this.state.index.get(slug)!;
    if (!this.state.index.rendersOnRequest(slug)) {
      await this.bakeFor(node.id, slug, this.state.addressing.langs.defaultLang);
      return;
    }
    const [first] = this.pagesOnFrame(node.id);
    if (first !== undefined) await this.tryPage(first);
  }

  /** Trial: the page's output as a publish would make it (a bake, or its render on request), unwritten. */
  private async tryPage(pageId: number): Promise<void> {
    const page = await pageById(this.deps.db, this.state.site.id, pageId);
    const node = page?.frame_id ? this.state.index.getById(page.frame_id) : undefined;
    if (!page || !node || page.status !== "publish" || !this.state.tree.visible(page.id)) return;
    const lang = langOf(this.state, page.lang);
    if (!this.state.index.rendersOnRequest(node.slug)) {
      await this.bakeFor(node.id, node.slug, lang);
    } else if (!this.triedOnRequest.has(`${node.id} ${page.id}`)) {
      this.triedOnRequest.add(`${node.id} ${page.id}`);
      await this.render(node.slug, lang, page);
    }
  }

  /** Brings one page's public output up to date: static copy written or removed, cache flushed. */
  async republishPage(pageId: number): Promise<void> {
    if (this.republished.has(pageId)) return;
    this.republished.add(pageId);
    if (this.mode === "trial") return this.tryPage(pageId);
    const siteId = this.state.site.id;
    const page = await pageById(this.deps.db, siteId, pageId);
    const previous = await this.deps.db
      .selectFrom("static_copies")
      .select(["address", "sha256"])
      .where("site_id", "=", siteId)
      .where("page_id", "=", pageId)
      .executeTakeFirst();
    if (previous) this.flushedUrls.add(previous.address);
    // The cache is flushed once the static copy is written or removed (below): a reader that
    // comes in between must not load the old copy again and keep it.
    try {
      await this.rewritePage(siteId, pageId, page, previous);
    } finally {
      for (const address of this.deps.pages.flushPages(siteId, [pageId])) this.flushedUrls.add(address);
    }
  }

  private async rewritePage(
    siteId: number,
    pageId: number,
    page: PageRow | undefined,
    previous: { address: string; sha256: string } | undefined,
  ): Promise<void> {
    const node = page?.frame_id ? this.state.index.getById(page.frame_id) : undefined;
    const servable = page && page.status === "publish" && this.state.tree.visible(page.id) && node;
    if (!servable || this.state.index.rendersOnRequest(node.slug)) {
      if (previous) await dropCopies(this.deps.db, siteId, [pageId]);
      if (servable) {
        this.flushedUrls.add(pageAddress(this.state.addressing, langOf(this.state, page.lang), page.path));
      }
      return;
    }
    const lang = langOf(this.state, page.lang);
    if (this.overBudget.has(node.id)) return;
    let result: RenderResult;
    try {
      result = await this.bakeFor(node.id, node.slug, lang);
    } catch (error) {
      if (!(error instanceof OverBudget)) throw error;
      this.overBudget.add(node.id);
      return; // the page keeps its last good static copy
    }
    const address = pageAddress(this.state.addressing, lang, page.path);
    // Each page's copy marks its own menu items (markup/current.ts): the bake is shared.
    const html =
      result.marks.length === 0 ? result.html : applyMarks(result.html, result.marks, currentOf(this.state, page));
    const sha256 = createHash("sha256").update(html).digest("hex");
    const row = {
      site_id: siteId,
      page_id: pageId,
      address,
      frame_id: node.id,
      html,
      bytes: Buffer.byteLength(html),
      sha256,
      written_at_gmt: gmt(this.deps.clock()),
    };
    // Past the site's published_bytes the copy is not kept (nor the one it replaces): the page renders on request.
    const kept =
      (previous && previous.sha256 === sha256 && previous.address === address) || (await keepCopy(this.deps.db, row));
    this.flushedUrls.add(address);
    if (!kept) return;
    const list = this.published.get(node.id) ?? [];
    list.push(pageId);
    this.published.set(node.id, list);
  }

  /** Frame id → ids of the pages on it, ascending (complete for the frames the run's scope named). */
  private readonly onFrame = new Map<string, number[]>();
  frameIdOf(pageId: number): string | null {
    return this.state.tree.get(pageId)?.frame_id ?? null;
  }

  private indexPagesOnFrames(): void {
    for (const row of this.state.tree.all()) {
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

  /**
   * `bake: false`: nothing is rendered. The pages on the frames whose output changed (a written
   * frame, unless renamed only, and every frame that embeds a changed one) and the pages the
   * changes name lose their static copy and cached render; the embedders are left for a later
   * bake (`skipped`). What is withdrawn was planned (plan.ts).
   */
  async withdraw(withdrawn: Withdrawn): Promise<Rebaked> {
    const pageIds = new Set<number>(withdrawn.pages);
    for (const slug of withdrawn.frames)
      for (const pageId of this.pagesOnFrame(this.state.index.get(slug)!.id)) pageIds.add(pageId);
    const ids = [...pageIds].sort((a, b) => a - b);
    const siteId = this.state.site.id;
    if (ids.length > 0) {
      const copies = await this.deps.db
        .selectFrom("static_copies")
        .select("address")
        .where("site_id", "=", siteId)
        .where("page_id", "in", ids)
        .execute();
      for (const copy of copies) this.flushedUrls.add(copy.address);
      await dropCopies(this.deps.db, siteId, ids);
      for (const address of this.deps.pages.flushPages(siteId, ids)) this.flushedUrls.add(address);
      for (const id of ids) this.republished.add(id);
    }
    return this.report("ok", withdrawn.embedders, true);
  }

  /** Addresses flushed outside the run's own pages (a flushed site, POST /cache/flush). */
  flushed(addresses: Iterable<string>): void {
    for (const address of addresses) this.flushedUrls.add(address);
  }

  /** The `rebaked` report; `skipped` always present (even empty) when `listSkipped`. */
  report(status: Rebaked["status"], skipped: string[], listSkipped = false): Rebaked {
    for (const entry of this.frames) {
      if (entry.bake !== "baked") continue;
      const detail = entry.detail as Record<string, unknown>;
      const published = (this.published.get(entry.id) ?? []).sort((a, b) => a - b);
      detail.published = { published: published.length, pages: published };
      detail.pages = this.pagesOnFrame(entry.id);
    }
    const pages = [...this.republished].sort((a, b) => a - b);
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
      ...(skipped.length > 0 || listSkipped ? { skipped } : {}),
      ...(status !== "ok"
        ? { message: "The renderer did not answer; what was saved stays saved. Repeat the call later." }
        : {}),
    } as Rebaked;
  }
}

// The publishing engine: the one place that decides what a change affects and brings the public
// site up to date. Writes name their changes (contract.ts); the dependency index turns them into
// frames; baked frames are rendered again; the pages on affected frames, and the pages that print
// a changed page's data, get their static copy rewritten or removed and their cached renders
// flushed (run.ts). A site's own row changing maps hosts anew and flushes its pages; a cache flush
// drops what it names. The report is the `rebaked` object of the answers.
import { fail } from "../errors.ts";
import { OverBudget, type RenderResult } from "../markup/index.ts";
import { isPostgres, type Db } from "../store/database.ts";
import type { PageRow } from "../store/schema.ts";
import type { Change, PreparedPage, PublishOptions, Rebaked, Trial, Written } from "../write/change.ts";
import type { Publisher } from "../write/context.ts";
import { renderBounded } from "./bounded-render.ts";
import { ExecutorUnavailable, inProcessExecutor } from "./executor.ts";
import { byCodeUnits } from "../effects/report.ts";
import { nothingRebaked } from "../write/change.ts";
import { listPageCount, prepareRender, type PreparedRender } from "./render-job.ts";
import { Run, type EngineDeps, type RunMode } from "./run.ts";
import { loadSiteState, type SiteState } from "./site-state.ts";
import { planRun, type Plan } from "./plan.ts";
import { TrialBakes, TrialHandoff } from "./trial-handoff.ts";
import { owe, payOwed, Settlements } from "./outbox.ts";
import { rehearsalOf, writeRehearsed, type TrialRenders } from "./rehearsal.ts";
import { notFoundKey, SITEMAP_PAGE_ID } from "./page-cache.ts";
import { languageState } from "../site/languages.ts";
import {
  flushesOf,
  homeChangeOf,
  homeMoves,
  pagesAffected,
  printedChanges,
  reachesEveryPage,
  withDerived,
} from "../effects/effects.ts";
import { readEffectFacts, readHomeFacts } from "./effect-facts.ts";

export type { EngineDeps } from "./run.ts";

/**
 * On SQLite every query of a publish run completes at once, so a run of thousands of frames
 * would never give the event loop back: every other request (public pages included) would wait
 * for the whole run. It lets them in once it has held the thread this long (a render itself
 * holds it at most SLICE_MS, bounded-render.ts), so no request waits much over 50 ms for it.
 */
const HOLD_MS = 15;

/** Lets other requests in once the run has held the thread HOLD_MS since it last did. */
function turns(): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < HOLD_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    since = performance.now();
  };
}

/**
 * The most frames a write's trial renders: the frames it wrote first, then the others it rebakes
 * in slug order. A write that rebakes more (a header embedded everywhere, the site's tagline) has
 * the rest checked as it publishes: a bake past a budget keeps its last good output and is
 * reported `failed` (run.ts). Trying thousands of frames inside the write's transaction would
 * render each twice and, on a site of 10,000 frames, raise the process's peak memory by about
 * 100 MB (bench memory_10k_frames_2k_pages).
 */
export const TRIAL_FRAMES = 250;

/** How a run reads and what it hands over: a trial reads through the write's transaction. */
interface RunHow {
  db?: Db;
  mode?: RunMode;
  reuse?: ReadonlyMap<string, RenderResult>;
  kept?: TrialBakes;
  renders?: TrialRenders;
}

/** robots.txt of a site, cached like a page (public/). */
export const ROBOTS_ADDRESS = "/robots.txt";

export class PublishingEngine implements Publisher {
  /** Per site, the end of the last publish run queued. */
  private readonly runs = new Map<number, Promise<void>>();
  /** Outbox rows paid by this process's runs, deleted together (outbox.ts). */
  private readonly settlements: Settlements;
  private readonly handoff = new TrialHandoff();
  /** Told when events got their `published` (the stream and the webhooks then look for them). */
  private readonly published = new Set<() => void>();

  constructor(private readonly deps: EngineDeps) {
    this.settlements = new Settlements(deps.db, deps.front, () => this.tellPublished());
  }

  /** Calls `listener` each time this process's runs have filled events' `published`; answers its removal. */
  onPublished(listener: () => void): () => void {
    this.published.add(listener);
    return () => this.published.delete(listener);
  }

  private tellPublished(): void {
    for (const listener of this.published) listener();
  }

  /**
   * Renders a page whose frame depends on it (or whose static copy is missing), bounded in time.
   * `db`: where it reads; a preview (preview/) passes its transaction, rolled back afterwards.
   */
  async renderPage(siteId: number, page: PageRow, lang: string | null, db: Db = this.deps.db): Promise<string | null> {
    const prepared = await this.preparePage(siteId, page, lang, db);
    return prepared && this.renderPrepared(prepared);
  }

  /**
   * The page rendered as the site's 404 page (`not_found_page`, docs/seo.md): noindex, no address
   * of its own in its head, no breadcrumbs. Null when its frame is gone.
   */
  async renderNotFound(siteId: number, page: PageRow, lang: string | null): Promise<string | null> {
    const prepared = await this.preparePage(siteId, page, lang, this.deps.db, true);
    return prepared && this.renderPrepared(prepared);
  }

  /**
   * Page `n` (2 and up) of the page's list (docs/markup.md, "Lists"), rendered as `renderPage`
   * renders the page; null when the page stands on no frame, its frame pages no list, or the list
   * has fewer pages. The list is counted first: an address past its last page reads no more.
   */
  async renderListPage(siteId: number, page: PageRow, lang: string | null, n: number): Promise<string | null> {
    const db = this.deps.db;
    const shown = await this.shownAt(siteId, page, db);
    if (!shown) return null;
    const pages = await listPageCount(db, shown.state, shown.slug, page, lang);
    if (pages === undefined || n > pages) return null;
    const target = { lang, page, listPage: n, listPages: pages };
    return this.renderPrepared(
      await prepareRender(db, this.deps.clock, shown.state, this.deps.compiled, shown.slug, target),
    );
  }

  /** What `renderPage` reads, read through `db`; null when the page stands on no frame. */
  async preparePage(
    siteId: number,
    page: PageRow,
    lang: string | null,
    db: Db = this.deps.db,
    notFound = false,
  ): Promise<PreparedRender | null> {
    const shown = await this.shownAt(siteId, page, db);
    return (
      shown && prepareRender(db, this.deps.clock, shown.state, this.deps.compiled, shown.slug, { lang, page, notFound })
    );
  }

  /** The site as a render of the page reads it, and the page's frame; null when it stands on no frame. */
  private async shownAt(siteId: number, page: PageRow, db: Db): Promise<{ state: SiteState; slug: string } | null> {
    // The page, its parent (parent_title, parent_url) and its translations (language switcher).
    const state = await loadSiteState(db, siteId, this.deps.front, () => ({
      partners: [page.id],
      pages: [page.parent_id],
    }));
    const node = state && page.frame_id ? state.index.getById(page.frame_id) : undefined;
    return state && node ? { state, slug: node.slug } : null;
  }

  /** Renders what `preparePage` read, bounded by the render budgets. */
  async renderPrepared(prepared: PreparedPage): Promise<string> {
    return (await renderBounded(this.deps, prepared as PreparedRender)).html;
  }

  /**
   * Renders what `changes` would rebake, reading through the write's transaction `trx` before it
   * commits, and writes nothing (a trial run, run.ts). Throws render_too_large when a bake (of a
   * written frame, a frame embedding it, or a frame reading what changed) would spend a budget,
   * so the write is rolled back and public pages keep their last good output. A write with
   * `bake: false` renders nothing, so nothing is tried. Trials do not wait for the site's publish
   * runs: they only read, and a run may be waiting for the very connection `trx` holds.
   */
  async check(trx: Db, siteId: number, changes: Change[], options: PublishOptions = {}): Promise<Trial | undefined> {
    if (options.bake === false) return undefined;
    // Inside a write run by `write` on SQLite, the trial is rehearsed: its renders are recorded
    // (step 1) and checked against what was rendered outside the transaction (step 3).
    const rehearsal = rehearsalOf(trx);
    // On SQLite what the trial renders is handed to the write's publish run (trial-handoff.ts),
    // unless renders are made elsewhere (an executor of its own): what is published is its output.
    const kept = isPostgres(trx) || this.deps.executor !== inProcessExecutor ? undefined : new TrialBakes();
    const ticket = this.handoff.ticket(siteId);
    try {
      // At most TRIAL_FRAMES frames, the written ones first (see TRIAL_FRAMES).
      const first = changes.flatMap((change) => (change.kind === "frame" ? [change.slug] : []));
      await this.publish(
        siteId,
        changes,
        { ...options, limit: Math.min(options.limit ?? TRIAL_FRAMES, TRIAL_FRAMES), first },
        { db: trx, mode: "trial", kept, renders: rehearsal },
      );
    } catch (error) {
      if (error instanceof OverBudget) throw fail("render_too_large", { budget: error.budget, chain: error.chain });
      throw error;
    }
    return kept ? this.handoff.hand(siteId, ticket, kept) : undefined;
  }

  /**
   * Runs a write's transaction, `work`, whose trial (`check`) then renders with no transaction
   * open on SQLite (rehearsal.ts): a slow trial never holds the database's one write lock.
   */
  write<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
    return writeRehearsed(db, this.deps, work);
  }

  /** Deletes the outbox rows paid so far now rather than a moment later (outbox.ts `Settlements`). */
  settled(): Promise<void> {
    return this.settlements.flush();
  }

  /** Deletes the outbox rows paid so far, and stops the render worker. */
  async close(): Promise<void> {
    await this.settled();
    await this.deps.pool.close();
  }

  /**
   * Publish runs of one site take turns. A run lets other requests in every few milliseconds
   * (see HOLD_MS) and reads the site's state once, at its start: a write that lands meanwhile is
   * published by its own run, which starts from the state after that write only once this one
   * is over, so a later run's output always has the last word.
   */
  async changed(siteId: number, changes: Change[], options: PublishOptions = {}): Promise<Rebaked> {
    const report = await this.publishInTurn(siteId, changes, options);
    // Paid unless the renderer did not answer: then the sweep (or the next start) tries it again.
    if (options.owed !== undefined && report.status !== "unavailable")
      this.settlements.paid(options.owed, siteId, report);
    return report;
  }

  /** Records, in the write's transaction, what it owes the public site (outbox.ts). */
  owe(
    trx: Db,
    siteId: number,
    changes: readonly Change[],
    options: PublishOptions = {},
    wrote: readonly Written[] = [],
  ): Promise<number> {
    return owe(trx, siteId, changes, options, this.deps.clock(), wrote);
  }

  /**
   * Publishes what committed writes owe and no run has paid (their process died in between):
   * every row, at a start before the service answers; rows older than `olderThanMs`, in a sweep.
   */
  payOwed(olderThanMs?: number): Promise<number> {
    const before = olderThanMs === undefined ? undefined : this.deps.clock() - olderThanMs;
    const paid = payOwed(
      this.deps.db,
      this.deps.front,
      (owed) => this.publishInTurn(owed.siteId, owed.changes, owed.options),
      before,
    );
    return paid.then((count) => {
      if (count > 0) this.tellPublished();
      return count;
    });
  }

  private async publishInTurn(siteId: number, changes: Change[], options: PublishOptions): Promise<Rebaked> {
    const before = this.runs.get(siteId);
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    this.runs.set(siteId, mine);
    try {
      await before;
      const { ticket, bakes } = this.handoff.take(siteId, options.trial);
      try {
        return await this.publish(siteId, changes, options, { reuse: bakes });
      } finally {
        this.handoff.written(siteId, ticket);
      }
    } finally {
      done();
      if (this.runs.get(siteId) === mine) this.runs.delete(siteId);
    }
  }

  /**
   * Changes that need no render (effects.ts `flushesOf`): a site's row (hosts are looked up
   * again, its cached pages go), a home or not-found page named anew, redirects, robots.txt,
   * cache flushes, the sitemap. Answers the cached addresses dropped.
   */
  private async flushes(siteId: number, changes: readonly Change[]): Promise<string[]> {
    const needsLangs = changes.some(
      (change) =>
        change.kind === "settings" && (change.keys?.includes("home_page") || change.keys?.includes("not_found_page")),
    );
    const codes = needsLangs ? (await languageState(this.deps.db, siteId)).codes : [];
    const flushes = flushesOf(changes, codes, { notFound: notFoundKey, robots: ROBOTS_ADDRESS });
    const urls: string[] = [];
    if (flushes.site) {
      this.deps.directory.forgetSite(siteId);
      urls.push(...this.deps.pages.flushSite(siteId));
    }
    if (flushes.all) urls.push(...this.deps.pages.flushSite(siteId));
    if (flushes.addresses.length > 0) {
      // Named whether or not this process held them: the flush reaches every process.
      this.deps.pages.flushAddresses(siteId, flushes.addresses);
      urls.push(...flushes.addresses);
    }
    if (flushes.keys.length > 0) this.deps.pages.flushAddresses(siteId, flushes.keys);
    // The sitemap lists every page that answers, with its address, translations and noindex.
    if (flushes.sitemap) this.deps.pages.flushPages(siteId, [SITEMAP_PAGE_ID]);
    return [...new Set(urls)].sort(byCodeUnits);
  }

  private async publish(
    siteId: number,
    changes: Change[],
    options: PublishOptions,
    how: RunHow = {},
  ): Promise<Rebaked> {
    const { db = this.deps.db, mode = "publish" } = how;
    // A new home page moves addresses and links before anything is flushed (effects.ts `homeMoves`).
    if (homeChangeOf(changes)) changes = [...changes, ...homeMoves(await readHomeFacts(db, siteId, changes))];
    const flushed = mode === "trial" ? [] : await this.flushes(siteId, changes);
    // A site's row matters to renders only when it changed what they print.
    changes = printedChanges(changes);
    if (changes.length === 0) return nothingRebaked(flushed);
    changes = withDerived(
      changes,
      await readEffectFacts(db, siteId, changes, options.bake !== false),
      options.bake !== false,
    );
    if (changes.length === 0) return nothingRebaked(flushed);
    // A language change moves every address, a new domain every absolute one: every page is read
    // and republished. Otherwise the run reads the pages it can reach (plan.ts).
    const everyPage = reachesEveryPage(changes);
    let plan: Plan | undefined;
    const state = await loadSiteState(
      db,
      siteId,
      this.deps.front,
      everyPage
        ? "all"
        : (index) => {
            plan = planRun(index, changes, options);
            return plan.scope;
          },
    );
    if (!state) return nothingRebaked(flushed);
    plan ??= planRun(state.index, changes, options);
    const run = new Run(
      db === this.deps.db ? this.deps : { ...this.deps, db },
      state,
      mode,
      how.reuse,
      how.kept,
      how.renders,
    );
    run.flushed(flushed);
    if (options.bake === false) return run.withdraw(plan.withdrawn!);

    const { affected, processed, skipped } = plan;
    const pageIds = new Set<number>();
    for (const change of changes)
      if (change.kind === "page") for (const id of pagesAffected(state.index, state.tree, change)) pageIds.add(id);
    if (everyPage) for (const lite of state.tree.all()) pageIds.add(lite.id);
    try {
      // Pages that left the public site leave it first: that needs no render, so it happens
      // even when the renderer does not answer.
      for (const change of changes) if (change.kind === "page" && change.gone) await run.republishPage(change.pageId);
      const turn = turns();
      for (const slug of processed) {
        await run.rebakeFrame(slug, affected.get(slug)!);
        await turn();
        // The pages on the frame are republished at once, while its output is at hand: it need
        // not be kept until the end of the run.
        const frameId = state.index.get(slug)!.id;
        for (const pageId of run.pagesOnFrame(frameId)) {
          pageIds.add(pageId);
          await run.republishPage(pageId);
          await turn();
        }
        run.forgetBakes(frameId);
      }
      for (const pageId of [...pageIds].sort((a, b) => a - b)) {
        await run.republishPage(pageId);
        await turn();
      }
      return run.report("ok", skipped);
    } catch (error) {
      if (error instanceof ExecutorUnavailable) return run.report("unavailable", skipped);
      throw error;
    }
  }
}

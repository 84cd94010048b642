// POST /preview (issue 22): the HTML a page would show with unsaved changes — frames' markup,
// stylesheets, the page's own fields — writing nothing and rebaking nothing.
//
// The changes are written inside one database transaction as their writes would write them (and
// checked as they check them); the page is rendered reading through that transaction, as the
// publish engine's trials render a write before it commits (publish/engine.ts `check`); then the
// transaction is rolled back (store/dry-run.ts). No change is announced, so nothing is rebaked,
// no static copy is written and no cached page is flushed: the public site never sees any of it.
// On SQLite the public site's reads meanwhile go to the read-only connection, which sees only
// what is committed (store/sqlite-driver.ts); on PostgreSQL other connections never see an
// uncommitted transaction.
import { fail } from "../errors.ts";
import { frameGraphChanged } from "../frames/graph.ts";
import { OverBudget } from "../markup/index.ts";
import type { ServiceContext } from "../publish/contract.ts";
import { ExecutorUnavailable } from "../publish/executor.ts";
import type { Db } from "../store/database.ts";
import { dryRunnable } from "../store/dry-run.ts";
import { unknownFields, type Warning } from "../warnings.ts";
import { frameInputs, writePreviewFrames } from "./frames.ts";
import { overridePage, pageFieldsInput, pageTarget, type PageTarget } from "./page.ts";
import { inlineNewStyles, servedBundles, styleInputs, writePreviewStyles } from "./styles.ts";

const BODY_KEYS = ["page", "lang", "frames", "styles", "page_fields"];

export interface PreviewAnswer {
  html: string;
  warnings: Warning[];
}

/** The page as the engine renders it for its public address, through `db`; the render's faults as service errors. */
export async function renderThrough(ctx: ServiceContext, db: Db, siteId: number, target: PageTarget): Promise<string> {
  const render = ctx.publisher.renderPage;
  if (!render) throw fail("internal_unavailable", {}, "This service's publisher cannot render pages; nothing can be previewed.");
  let html: string | null;
  try {
    html = await render.call(ctx.publisher, siteId, target.page, target.lang, db);
  } catch (error) {
    if (error instanceof OverBudget) throw fail("render_too_large", { budget: error.budget, chain: error.chain });
    if (error instanceof ExecutorUnavailable) throw fail("internal_unavailable");
    throw error;
  }
  if (html === null) throw fail("page_without_frame", { page: target.page.id });
  return html;
}

export async function previewPage(ctx: ServiceContext, siteId: number, userId: number, body: Record<string, unknown>): Promise<PreviewAnswer> {
  const warnings = unknownFields(body, BODY_KEYS);
  // Shapes first: nothing is opened for a body that cannot be previewed.
  const frames = frameInputs(body.frames);
  const styles = styleInputs(body.styles);
  const fields = pageFieldsInput(body.page_fields);
  const { theme, served } = await servedBundles(ctx.db, siteId);
  const now = ctx.clock();
  let frameIds: string[] | undefined;
  try {
    return await dryRunnable(true, (work) => ctx.db.transaction().execute(work), async (trx) => {
      const target = await pageTarget(trx, siteId, body.page, body.lang);
      const written = await writePreviewFrames(trx, ctx.db, siteId, userId, now, frames);
      frameIds = written.ids;
      await writePreviewStyles(trx, siteId, theme, now, styles);
      const page = await overridePage(trx, siteId, target.page, fields, warnings);
      const html = await renderThrough(ctx, trx, siteId, { page, lang: target.lang });
      return { html: await inlineNewStyles(trx, siteId, theme, served, html), warnings: [...warnings, ...written.warnings] };
    });
  } finally {
    // The frames written and rolled back are read again from what is stored.
    if (frames.length > 0) frameGraphChanged(ctx.db, siteId, frameIds ?? undefined);
  }
}

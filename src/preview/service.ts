// POST /preview (docs/preview.md): the HTML a page would show with unsaved changes — frames' markup,
// stylesheets, data sets, the page's own fields — writing nothing and rebaking nothing.
//
// The changes are written inside one database transaction as their writes would write them (and
// checked as they check them); what the page's render reads is read through that transaction,
// the transaction is rolled back (store/dry-run.ts), and the page is rendered from what was read
// (Publisher.preparePage, renderPrepared), as a write's trial is (publish/rehearsal.ts). No change is announced, so nothing is rebaked,
// no static copy is written and no cached page is flushed: the public site never sees any of it.
// On SQLite the public site's reads meanwhile go to the read-only connection, which sees only
// what is committed (store/sqlite-driver.ts); on PostgreSQL other connections never see an
// uncommitted transaction.
import { fail } from "../errors.ts";
import { frameGraphChanged } from "../frames/graph.ts";
import { OverBudget } from "../markup/index.ts";
import type { Written } from "../write/change.ts";
import type { PageRow } from "../store/schema.ts";
import type { ServiceContext } from "../write/context.ts";
import { ExecutorUnavailable } from "../write/context.ts";
import { rolledBack, type Write } from "../write/pipeline.ts";
import { styleObjectId } from "../styles/revision.ts";
import { unknownFields, type Warning } from "../warnings.ts";
import { dataInputs, writePreviewData } from "./data.ts";
import { frameInputs, writePreviewFrames } from "./frames.ts";
import { gatedPageFields, overridePage, pageTarget, type PageTarget } from "./page.ts";
import { newPageInputs, writeNewPages } from "./new-page.ts";
import { gmt } from "../clock.ts";
import type { SiteRow } from "../site/sites.ts";
import type { MarkupTrust } from "../site/roles.ts";
import { contentGate } from "../pages/authored-html.ts";
import { readContent } from "../pages/content.ts";
import { inlineNewStyles, parsePreviewStyles, servedBundles, styleInputs, writePreviewStyles } from "./styles.ts";

const BODY_KEYS = ["page", "lang", "frames", "styles", "data", "page_fields", "new_page", "new_parents"];

/**
 * The body of POST /preview as its route schema lets it through: `frames` and `styles` objects of
 * text, `page_fields` an object (its fields checked as PATCH /pages checks them, overridePage);
 * `page` and `lang` read by pageTarget, or `new_page` and `new_parents` by newPageInputs.
 */
export type PreviewBody = {
  page?: unknown;
  lang?: unknown;
  frames?: Readonly<Record<string, string>> | null;
  styles?: Readonly<Record<string, string>> | null;
  data?: Readonly<Record<string, unknown>> | null;
  page_fields?: Record<string, unknown> | null;
  /** A page not saved yet: the body of POST /pages (new-page.ts), and its parents not saved either. */
  new_page?: unknown;
  new_parents?: unknown;
};

/** What a preview's writes applied: the page as shown, its language, the stylesheets' new bundles, the warnings. */
interface Applied {
  page: PageRow;
  lang: string | null;
  made: Map<string, string>;
  warnings: Warning[];
}

export interface PreviewAnswer {
  html: string;
  warnings: Warning[];
}

/** The render's faults as service errors. */
async function renderFaults<T>(render: () => Promise<T>): Promise<T> {
  try {
    return await render();
  } catch (error) {
    if (error instanceof OverBudget) throw fail("render_too_large", { budget: error.budget, chain: error.chain });
    if (error instanceof ExecutorUnavailable) throw fail("internal_unavailable");
    throw error;
  }
}

function cannotRender(): never {
  throw fail("internal_unavailable", {}, "This service's publisher cannot render pages; nothing can be previewed.");
}

/**
 * The changes are written and the render read inside one transaction, which is rolled back; the
 * render runs after it (never while the transaction holds SQLite's one write lock),
 * and so do the stylesheets' parses, before it. `markup`: how a write would store the page
 * fields' HTML (an editor's sanitised, pages/authored-html.ts).
 */
export async function previewPage(
  ctx: ServiceContext,
  site: SiteRow,
  userId: number,
  body: PreviewBody,
  markup: MarkupTrust,
): Promise<PreviewAnswer> {
  const siteId = site.id;
  const warnings = unknownFields(body, BODY_KEYS);
  const newPages = newPageInputs(body);
  // Shapes first: nothing is opened for a body that cannot be previewed.
  const frames = frameInputs(body.frames);
  const styles = await parsePreviewStyles(siteId, styleInputs(body.styles));
  const gate = await contentGate(ctx.db, siteId, markup, warnings);
  const fields = gatedPageFields(body.page_fields ?? {}, gate);
  const datasets = await dataInputs(ctx.db, siteId, body.data, gate);
  const content = await readContent(ctx.db, siteId, fields, markup, "page_fields.content");
  const { prepare, render } = { prepare: ctx.publisher.preparePage, render: ctx.publisher.renderPrepared };
  if (!prepare || !render) cannotRender();
  const { theme, served } = await servedBundles(ctx.db, siteId);
  const now = ctx.clock();
  let frameIds: string[] | undefined;
  try {
    // A mode of the write path (write/pipeline.ts `rolledBack`): the writes applied, the render
    // read through their transaction, everything rolled back.
    const write: Write<Applied> = {
      siteId,
      apply: async (trx) => {
        const named = newPages.length > 0 ? null : await pageTarget(trx, siteId, body.page, body.lang);
        // Data before frames: the frames' warnings then know the previewed sets.
        const sets = await writePreviewData(trx, siteId, now, datasets);
        const written = await writePreviewFrames(trx, ctx.db, siteId, userId, now, frames);
        frameIds = written.ids;
        const made = await writePreviewStyles(trx, siteId, theme, now, styles);
        // A page not saved yet is made after the frames, so it may stand on a previewed one.
        const target: PageTarget & { created?: number[] } =
          named ?? (await writeNewPages(ctx, trx, site, gmt(now), newPages, markup, warnings));
        const page = await overridePage(trx, siteId, target.page, fields, content, warnings);
        const wrote = [
          ...written.ids.map((id): Written => ({ kind: "frame", id, action: "updated" })),
          ...sets.map((id): Written => ({ kind: "dataset", id, action: "updated" })),
          ...[...made.keys()].map(
            (name): Written => ({ kind: "style", id: styleObjectId(theme, name), action: "updated" }),
          ),
          ...(target.created ?? []).map((id): Written => ({ kind: "page", id: String(id), action: "created" })),
          { kind: "page", id: String(page.id), action: "updated" } satisfies Written,
        ];
        return { value: { page, lang: target.lang, made, warnings: [...warnings, ...written.warnings] }, wrote };
      },
    };
    const read = await rolledBack(ctx, write, async (trx, { value }) => {
      const prepared = await renderFaults(() => prepare.call(ctx.publisher, siteId, value.page, value.lang, trx));
      if (prepared === null) throw fail("page_without_frame", { page: value.page.id });
      return { prepared, made: value.made, warnings: value.warnings };
    });
    const html = await renderFaults(() => render.call(ctx.publisher, read.prepared));
    return { html: inlineNewStyles(served, read.made, html), warnings: read.warnings };
  } finally {
    // The frames written and rolled back are read again from what is stored.
    if (frames.length > 0) frameGraphChanged(ctx.db, siteId, frameIds ?? undefined);
  }
}

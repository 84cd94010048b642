// POST /frames/{ref}/assign: puts the frame on a page or takes it off, then republishes the
// page. A republish that fails does not undo the assignment (spec, rule 2). It lives with pages
// because it writes the page's frame (the pages feature owns the pages table). Both ways are one
// transaction that records the page's revision (issue 22). `dry_run` (body or ?dry_run=1) answers
// what the assignment would do and changes nothing.
import { gmt } from "../clock.ts";
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import type { SiteRow } from "../site/sites.ts";
import { pageRecords, type PageRecord } from "./record.ts";
import { findPageByRef } from "./refs.ts";
import { revisePages } from "./revision.ts";
import type { Trial } from "../write/change.ts";
import { oweChanges, transactionWithTrial, type ServiceContext } from "../write/context.ts";
import { dryRunnable } from "../store/dry-run.ts";
import type { Db } from "../store/database.ts";
import { siteIndex } from "../frames/graph.ts";
import { flagsOf } from "../frames/input.ts";
import { pagesOnFrames } from "../frames/pages.ts";
import { frameByRef } from "../frames/queries.ts";
import { frameRecord } from "../frames/record.ts";

const MESSAGES: Record<string, string> = {
  static_copy: "The page is served from its static copy.",
  frame_renders_on_request: "The frame depends on the page: the page is rendered on request and has no static copy.",
  no_frame: "The page has no frame: it answers 404 on a v2 site.",
  draft: "The page is a draft: it answers 404 until published.",
  trash: "The page is in the trash: it answers 404.",
  parent_unpublished: "An ancestor of the page is not published: it answers 404.",
  frame_deleted: "The page's frame was deleted: it answers 404.",
  static_copy_missing: "No static copy was written; the page is rendered on request until one is.",
};

/** The fate of the page's static copy (spec, States: published, url, bytes, reason, message, was_*, removed, changed). */
function staticFate(before: PageRecord, after: PageRecord) {
  const reason = after.printed.reason;
  return {
    published: after.static.published,
    url: after.static.url,
    bytes: after.static.bytes,
    reason,
    message: MESSAGES[reason] ?? reason,
    was_published: before.static.published,
    was_url: before.static.url,
    removed: before.static.published && !after.static.published,
    changed: before.static.published !== after.static.published || before.static.url !== after.static.url || before.static.bytes !== after.static.bytes || before.static.written_at_gmt !== after.static.written_at_gmt,
  };
}

export async function assignFrame(ctx: ServiceContext, site: SiteRow, ref: string, body: Record<string, unknown>) {
  const frame = await frameByRef(ctx.db, site.id, ref);
  if (!frame) throw fail("frame_not_found", { ref });
  const page = await findPageByRef(ctx.db, site.id, body.page);
  const clear = body.clear === undefined || body.clear === null ? false : body.clear;
  if (typeof clear !== "boolean") throw fail("invalid_field", { field: "clear", expected: "boolean" }, "clear must be true or false.");
  const flags = flagsOf(body);
  const warnings: Warning[] = [];

  const [before] = await pageRecords(ctx.db, site, ctx.publicPort, [page]);
  // A dry run writes in the transaction and rolls it back: the same checks and refusals
  // (render_too_large included), nothing assigned, nothing republished.
  const transaction = (work: (trx: Db) => Promise<void>) => dryRunnable(flags.dryRun, transactionWithTrial(ctx), work);
  let cleared = false;
  let trial: Trial | undefined;
  let owed: number | undefined;
  if (clear) {
    if (page.frame_id === frame.id) {
      // The page's static copy goes in the publish step (the page left the public site).
      await transaction(async (trx) => {
        await trx.updateTable("pages").set({ frame_id: null }).where("site_id", "=", site.id).where("id", "=", page.id).execute();
        await revisePages(trx, site.id, [page.id], gmt(ctx.clock()));
        owed = await oweChanges(ctx, trx, site.id, [{ kind: "page", pageId: page.id, gone: true }], { bake: flags.bake });
      });
      cleared = true;
    } else {
      warnings.push(warning("frame_not_on_page", `The page does not stand on "${frame.slug}"; nothing was taken off.`, { page: page.id, frame: frame.slug }));
    }
  } else if (page.frame_id !== frame.id) {
    await transaction(async (trx) => {
      await trx.updateTable("pages").set({ frame_id: frame.id }).where("site_id", "=", site.id).where("id", "=", page.id).execute();
      await revisePages(trx, site.id, [page.id], gmt(ctx.clock()));
      // The page's render on its new frame within the render budgets, or it stays where it was
      // (422 render_too_large): a refusal is not a failed republish, nothing is assigned.
      trial = await ctx.publisher.check(trx, site.id, [{ kind: "page", pageId: page.id }], { bake: flags.bake });
      owed = await oweChanges(ctx, trx, site.id, [{ kind: "page", pageId: page.id, gone: false }], { bake: flags.bake });
    });
  }

  let republish: Record<string, unknown>;
  if (flags.dryRun) {
    republish = { status: "skipped", message: "dry_run: nothing was assigned or republished." };
  } else if (!flags.bake) {
    // Nothing is rendered; the page's old static copy and cached render go, so it renders on request.
    const unbaked = await ctx.publisher.changed(site.id, [{ kind: "page", pageId: page.id, gone: cleared }], { bake: false, owed });
    republish = { status: "skipped", message: "bake: false: the page was not republished; it renders on request until the next bake.", cache: unbaked.cache };
  } else {
    try {
      const report = await ctx.publisher.changed(site.id, [{ kind: "page", pageId: page.id, gone: cleared }], { trial, owed });
      republish = { status: report.status, rebaked: report };
    } catch (error) {
      // The assignment is saved either way; the caller learns the republish failed.
      republish = { status: "failed", message: error instanceof Error ? error.message : String(error) };
    }
  }

  const reread = await ctx.db.selectFrom("pages").selectAll().where("id", "=", page.id).executeTakeFirstOrThrow();
  const [after] = await pageRecords(ctx.db, site, ctx.publicPort, [reread]);
  const index = await siteIndex(ctx.db, site.id);
  const pages = (await pagesOnFrames(ctx.db, site.id, [frame.id])).get(frame.id) ?? [];
  return {
    site_id: site.id,
    frame: frameRecord(frame, { resolve: (ref) => index.resolve(ref), frameRefs: index.embeddedSlugs(frame.slug), rendersOnRequest: index.rendersOnRequest(frame.slug), pages }),
    page: { id: after.id, title: after.title, url: after.url },
    meta_key: "_svc_frame",
    cleared,
    static: staticFate(before, after),
    republish,
    ...(flags.dryRun ? { dry_run: true as const, applied: false as const } : {}),
    warnings,
  };
}

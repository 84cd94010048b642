// POST /frames/{ref}/assign: puts the frame on a page or takes it off, then republishes the
// page. A republish that fails does not undo the assignment (docs/frames.md). It lives with pages
// because it writes the page's frame (the pages feature owns the pages table). Both ways are one
// write through the write pipeline, which records the page's revision (revision.ts). `dry_run`
// (body or ?dry_run=1) answers what the assignment would do and changes nothing.
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import type { SiteRow } from "../site/sites.ts";
import { pageRecords, type PageRecord } from "./record.ts";
import { findPageByRef } from "./refs.ts";
import { nothingRebaked, type Written } from "../write/change.ts";
import type { Publisher, ServiceContext } from "../write/context.ts";
import { runWrite } from "../write/pipeline.ts";
import "./revision.ts";
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

/** The fate of the page's static copy: published, url, bytes, reason, message, was_*, removed, changed. */
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
    changed:
      before.static.published !== after.static.published ||
      before.static.url !== after.static.url ||
      before.static.bytes !== after.static.bytes ||
      before.static.written_at_gmt !== after.static.written_at_gmt,
  };
}

/**
 * The publisher, but a republish that throws is kept in `failure` instead: a republish that
 * fails does not undo the assignment, which has committed by then.
 */
function republishKept(publisher: Publisher, failure: { failed?: { error: unknown } }): Publisher {
  const kept: Publisher = {
    check: (trx, siteId, changes, options) => publisher.check(trx, siteId, changes, options),
    changed: async (siteId, changes, options) => {
      try {
        return await publisher.changed(siteId, changes, options);
      } catch (error) {
        failure.failed = { error };
        return nothingRebaked();
      }
    },
  };
  // What runWrite asks besides: the outbox row, and the transaction a trial may render outside of.
  if (publisher.owe)
    kept.owe = (trx, siteId, changes, options, wrote) => publisher.owe!(trx, siteId, changes, options, wrote);
  if (publisher.write) kept.write = (db, work) => publisher.write!(db, work);
  return kept;
}

export async function assignFrame(ctx: ServiceContext, site: SiteRow, ref: string, body: Record<string, unknown>) {
  const frame = await frameByRef(ctx.db, site.id, ref);
  if (!frame) throw fail("frame_not_found", { ref });
  const page = await findPageByRef(ctx.db, site.id, body.page);
  const clear = body.clear === undefined || body.clear === null ? false : body.clear;
  if (typeof clear !== "boolean")
    throw fail("invalid_field", { field: "clear", expected: "boolean" }, "clear must be true or false.");
  const flags = flagsOf(body);
  const warnings: Warning[] = [];

  const [before] = await pageRecords(ctx.db, site, ctx.publicFront, [page]);
  const takeOff = clear && page.frame_id === frame.id;
  const putOn = !clear && page.frame_id !== frame.id;
  if (clear && !takeOff)
    warnings.push(
      warning("frame_not_on_page", `The page does not stand on "${frame.slug}"; nothing was taken off.`, {
        page: page.id,
        frame: frame.slug,
      }),
    );
  const failure: { failed?: { error: unknown } } = {};
  // A dry run writes in the transaction and rolls it back: the same checks and refusals
  // (render_too_large included), nothing assigned, nothing republished. With nothing to assign,
  // the page is republished as it stands.
  const done = await runWrite(
    { ...ctx, publisher: flags.bake ? republishKept(ctx.publisher, failure) : ctx.publisher },
    {
      siteId: site.id,
      dryRun: flags.dryRun,
      // The page's render on its new frame within the render budgets, or it stays where it was
      // (422 render_too_large): a refusal is not a failed republish, nothing is assigned.
      trial: putOn,
      publish: { bake: flags.bake },
      apply: async (trx) => {
        if (takeOff || putOn)
          await trx
            .updateTable("pages")
            .set({ frame_id: putOn ? frame.id : null })
            .where("site_id", "=", site.id)
            .where("id", "=", page.id)
            .execute();
        const wrote: Written[] = takeOff || putOn ? [{ kind: "page", id: String(page.id), action: "updated" }] : [];
        // Taken off, the page left the public site: its static copy goes in the publish step.
        return { value: null, wrote, changes: [{ kind: "page", pageId: page.id, gone: takeOff }] };
      },
    },
  );
  const cleared = takeOff;

  let republish: Record<string, unknown>;
  if (flags.dryRun) {
    republish = { status: "skipped", message: "dry_run: nothing was assigned or republished." };
  } else if (!flags.bake) {
    // Nothing is rendered; the page's old static copy and cached render go, so it renders on request.
    republish = {
      status: "skipped",
      message: "bake: false: the page was not republished; it renders on request until the next bake.",
      cache: done.rebaked.cache,
    };
  } else if (failure.failed) {
    // The assignment is saved either way; the caller learns the republish failed.
    const { error } = failure.failed;
    republish = { status: "failed", message: error instanceof Error ? error.message : String(error) };
  } else {
    republish = { status: done.rebaked.status, rebaked: done.rebaked };
  }

  const reread = await ctx.db.selectFrom("pages").selectAll().where("id", "=", page.id).executeTakeFirstOrThrow();
  const [after] = await pageRecords(ctx.db, site, ctx.publicFront, [reread]);
  const index = await siteIndex(ctx.db, site.id);
  const pages = (await pagesOnFrames(ctx.db, site.id, [frame.id])).get(frame.id) ?? [];
  return {
    site_id: site.id,
    frame: frameRecord(frame, {
      resolve: (ref) => index.resolve(ref),
      frameRefs: index.embeddedSlugs(frame.slug),
      rendersOnRequest: index.rendersOnRequest(frame.slug),
      pages,
    }),
    page: { id: after.id, title: after.title, url: after.url },
    meta_key: "_svc_frame",
    cleared,
    static: staticFate(before, after),
    republish,
    ...(flags.dryRun ? { dry_run: true as const, applied: false as const } : {}),
    warnings,
  };
}

// POST and PUT of a frame: validate, analyse in the site, store byte for byte, then publish.
// PUT may also change the slug, with the rename's consequences (references rewritten).
import { createHash } from "node:crypto";
import { gmt } from "../clock.ts";
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import type { Db } from "../store/database.ts";
import type { Change, Written } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { frameGraphChanged, siteIndex } from "./graph.ts";
import { flagsOf, ignoredInputWarnings, markupFrom, refuseUrl, slugFrom, WRITE_KEYS, slugTaken } from "./input.ts";
import { frameBySlug, frameByRef, newFrameId } from "./queries.ts";
import { frameEtag, frameRecord, type FrameRow } from "./record.ts";
import { reportFor, type FrameReport } from "./report.ts";
import { framePublish, requireAvailable } from "./publish-result.ts";
import { splitSlug } from "./slug.ts";
import { rewriteReferences } from "./rename-refs.ts";
import { runWrite } from "../write/pipeline.ts";
import { pagesOnFrames } from "./pages.ts";
import { checkIfMatch, Overtaken, unlessOvertaken } from "./etag.ts";
import { siteWarnings } from "./site-warnings.ts";
import "./revision.ts";

export interface WriteAnswer {
  body: Record<string, unknown>;
  etag: string | null;
}

function sha256(html: string): string {
  return createHash("sha256").update(html, "utf8").digest("hex");
}

/** The report fields shared by POST, PUT and dry runs. */
function reportFields(report: FrameReport, warnings: Warning[]) {
  const a = report.compiled.analysis;
  return {
    inserts: a.inserts,
    inserts_total: a.inserts_total,
    sources: a.sources,
    frame_refs: report.frameRefs,
    layout: a.layout ? report.resolve(a.layout) : null,
    binds: a.binds,
    renders_on_request: report.rendersOnRequest,
    ...(report.rendersOnRequest ? { live_reasons: report.liveReasons } : {}),
    has_doctype: a.has_doctype,
    has_body: a.has_body,
    lists: a.lists,
    warnings: [
      ...warnings,
      ...a.warnings.map((w) => warning(w.code, w.message, { ...w.details, at: w.at, line: w.line, column: w.column })),
      ...report.frameRefsMissing.map((slug) =>
        warning("frame_ref_missing", `No frame "${slug}" exists yet: its insert prints nothing until one does.`, {
          slug,
        }),
      ),
    ],
    frame_refs_missing: report.frameRefsMissing,
  };
}

/** A frame record as a write stores it (a dry run and a preview too). */
export function draftRow(
  id: string,
  slug: string,
  html: string,
  report: FrameReport,
  at: string,
  userId: number,
  existing?: FrameRow,
): FrameRow {
  const parts = splitSlug(slug);
  return {
    id,
    site_id: existing?.site_id ?? 0,
    slug,
    ...parts,
    html,
    bytes: Buffer.byteLength(html, "utf8"),
    sha256: sha256(html),
    analysis_json: JSON.stringify(report.stored),
    revision: (existing?.revision ?? 0) + 1,
    created_at_gmt: existing?.created_at_gmt ?? at,
    updated_at_gmt: at,
    updated_by: userId,
  };
}

/**
 * Stores a frame's row as a write does: a new frame is inserted at revision 1; an existing one gets
 * the row's slug, markup and analysis if it is still at the revision read (false: another writer
 * got in between). POST, PUT and a preview's and a check's frames (unsaved.ts) write through it.
 */
export async function storeFrame(
  trx: Db,
  row: FrameRow,
  existing?: Pick<FrameRow, "id" | "revision">,
): Promise<boolean> {
  if (!existing) {
    await trx
      .insertInto("frames")
      .values({ ...row, revision: 1 })
      .execute();
    return true;
  }
  const { slug, block, element, modifier, html, bytes, sha256, analysis_json, revision, updated_at_gmt, updated_by } =
    row;
  const updated = await trx
    .updateTable("frames")
    .set({ slug, block, element, modifier, html, bytes, sha256, analysis_json, revision, updated_at_gmt, updated_by })
    .where("id", "=", existing.id)
    .where("revision", "=", existing.revision)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/** A frame written, under its new slug and, when renamed, its old one. */
function frameChanges(existing: FrameRow, slug: string): Change[] {
  const changes: Change[] = [{ kind: "frame", frameId: existing.id, slug }];
  if (slug !== existing.slug) changes.push({ kind: "frame", frameId: existing.id, slug: existing.slug });
  return changes;
}

async function slugOccupant(db: Db, siteId: number, slug: string, exceptId?: string): Promise<FrameRow | undefined> {
  const row = await frameBySlug(db, siteId, slug);
  return row && row.id !== exceptId ? row : undefined;
}

/** A frame brought back from the trash (history/frames.ts): its id, and what else the restore writes in its transaction. */
export interface Recreation {
  id: string;
  /** Runs in the creating transaction after the insert; answers what else it wrote and changed. */
  within: (trx: Db) => Promise<{ wrote: Written[]; changes: Change[] }>;
}

export async function createFrame(
  ctx: ServiceContext,
  siteId: number,
  userId: number,
  body: Record<string, unknown>,
  recreation?: Recreation,
): Promise<WriteAnswer> {
  refuseUrl(body);
  const slug = slugFrom(body.slug);
  const html = markupFrom(body);
  const flags = flagsOf(body);
  const warnings = ignoredInputWarnings(body, WRITE_KEYS);

  const occupant = await slugOccupant(ctx.db, siteId, slug);
  if (occupant) throw slugTaken(occupant.id, occupant.slug);
  const id = recreation?.id ?? newFrameId();
  const index = await siteIndex(ctx.db, siteId);
  const report = reportFor(html, id, slug, index);
  warnings.push(...(await siteWarnings(ctx.db, siteId, html, report, index)));
  const at = gmt(ctx.clock());
  const row = { ...draftRow(id, slug, html, report, at, userId), site_id: siteId };

  const fields = reportFields(report, warnings);
  // A dry run writes and tries the same, then rolls back: it meets the refusal the write would.
  const done = await runWrite(ctx, {
    siteId,
    dryRun: flags.dryRun,
    // Its bake (and what embeds it) within the render budgets, or nothing is written.
    trial: true,
    publish: { bake: flags.bake },
    taken: async () => slugTaken((await slugOccupant(ctx.db, siteId, slug))?.id ?? null, slug),
    apply: async (trx) => {
      await storeFrame(trx, row);
      const further = recreation ? await recreation.within(trx) : { wrote: [], changes: [] };
      frameGraphChanged(ctx.db, siteId, [id]);
      return {
        value: null,
        wrote: [{ kind: "frame", id, action: recreation ? "restored" : "created" }, ...further.wrote],
        changes: [{ kind: "frame", frameId: id, slug }, ...further.changes],
        room: { frames: 1, stored_bytes: row.bytes },
      };
    },
  }).finally(() => frameGraphChanged(ctx.db, siteId, [id]));
  if (flags.dryRun) {
    return {
      body: {
        applied: false,
        updated: false,
        dry_run: true,
        site_id: siteId,
        frame: frameRecord(row, {
          resolve: report.resolve,
          frameRefs: report.frameRefs,
          rendersOnRequest: report.rendersOnRequest,
        }),
        ...fields,
      },
      etag: null,
    };
  }
  const publish = framePublish(done.rebaked, flags.bake, slug);
  requireAvailable(publish.rebaked, { frame: { id, slug } });
  const frame = frameRecord(
    { ...row, revision: 1 },
    { resolve: report.resolve, frameRefs: report.frameRefs, rendersOnRequest: report.rendersOnRequest },
  );
  return {
    body: {
      applied: true,
      updated: false,
      site_id: siteId,
      frame,
      ...fields,
      bake: publish.bake,
      rebaked: publish.rebaked,
    },
    etag: frameEtag({ revision: 1, sha256: row.sha256 }),
  };
}

export function replaceFrame(
  ctx: ServiceContext,
  siteId: number,
  userId: number,
  ref: string,
  body: Record<string, unknown>,
  ifMatch: string | undefined,
): Promise<WriteAnswer> {
  return unlessOvertaken(ifMatch, () => replaceFrameOnce(ctx, siteId, userId, ref, body, ifMatch));
}

async function replaceFrameOnce(
  ctx: ServiceContext,
  siteId: number,
  userId: number,
  ref: string,
  body: Record<string, unknown>,
  ifMatch: string | undefined,
): Promise<WriteAnswer> {
  const existing = await frameByRef(ctx.db, siteId, ref);
  if (!existing) throw fail("frame_not_found", { ref });
  refuseUrl(body);
  const slug = body.slug === undefined || body.slug === null ? existing.slug : slugFrom(body.slug);
  const html = markupFrom(body);
  const flags = flagsOf(body);
  const warnings = ignoredInputWarnings(body, WRITE_KEYS);
  checkIfMatch(ifMatch, existing);

  if (slug !== existing.slug) {
    const occupant = await slugOccupant(ctx.db, siteId, slug, existing.id);
    if (occupant) throw slugTaken(occupant.id, occupant.slug);
  }
  const index = await siteIndex(ctx.db, siteId);
  const report = reportFor(html, existing.id, slug, index, existing.slug);
  warnings.push(...(await siteWarnings(ctx.db, siteId, html, report, index)));
  const at = gmt(ctx.clock());
  const row = { ...draftRow(existing.id, slug, html, report, at, userId, existing), site_id: siteId };
  const fields = reportFields(report, warnings);
  // A dry run writes and tries the same, then rolls back: it meets the refusal the write would,
  // and its `renamed` lists the rewrites the write would make.
  const done = await runWrite(ctx, {
    siteId,
    dryRun: flags.dryRun,
    trial: true,
    publish: { bake: flags.bake },
    taken: async () => slugTaken((await slugOccupant(ctx.db, siteId, slug, existing.id))?.id ?? null, slug),
    apply: async (trx) => {
      // Another writer got in between the read and this write: refuse rather than overwrite.
      if (!(await storeFrame(trx, row, existing))) throw new Overtaken(existing.sha256, "write");
      const rewritten =
        slug !== existing.slug ? await rewriteReferences(trx, siteId, existing, slug, at, userId) : null;
      const renamed = rewritten?.report ?? null;
      // Named before the trial, which reads the frame graph through this transaction.
      frameGraphChanged(ctx.db, siteId, slug === existing.slug ? [existing.id] : undefined);
      // The frame, and each frame whose references the rename rewrote.
      const wrote: Written[] = [
        { kind: "frame", id: existing.id, action: slug === existing.slug ? "updated" : "renamed" },
        ...(renamed?.details ?? []).map((d): Written => ({ kind: "frame", id: d.id, action: "updated" })),
      ];
      return {
        value: renamed,
        wrote,
        changes: frameChanges(existing, slug),
        room: { stored_bytes: row.bytes - existing.bytes + (rewritten?.grown ?? 0) },
      };
    },
  }).finally(() => {
    // A rename also rewrote references in other frames: the whole site is read again.
    frameGraphChanged(ctx.db, siteId, slug === existing.slug ? [existing.id] : undefined);
  });
  const renamed = done.value;
  if (flags.dryRun) {
    return {
      body: {
        applied: false,
        updated: true,
        dry_run: true,
        site_id: siteId,
        frame: frameRecord(row, {
          resolve: report.resolve,
          frameRefs: report.frameRefs,
          rendersOnRequest: report.rendersOnRequest,
        }),
        ...fields,
        ...(renamed ? { renamed } : {}),
      },
      etag: null,
    };
  }

  const publish = framePublish(done.rebaked, flags.bake, slug);
  requireAvailable(publish.rebaked, { frame: { id: existing.id, slug } });
  const pages = (await pagesOnFrames(ctx.db, siteId, [existing.id])).get(existing.id) ?? [];
  const frame = frameRecord(row, {
    resolve: report.resolve,
    frameRefs: report.frameRefs,
    rendersOnRequest: report.rendersOnRequest,
    pages,
  });
  return {
    body: {
      applied: true,
      updated: true,
      site_id: siteId,
      frame,
      ...fields,
      ...(renamed ? { renamed } : {}),
      bake: publish.bake,
      rebaked: publish.rebaked,
    },
    etag: frameEtag(row),
  };
}

// PATCH /media/{ref} (alt, title, slug) and DELETE /media/{ref} (refused while frames show the
// file, unless forced). Each announces a media change naming every slug the file answered to, so
// frames reading it by its old or new name are rebaked.
import { gmt } from "../clock.ts";
import { fail } from "../errors.ts";
import { unknownFields, type Warning } from "../warnings.ts";
import type { ServiceContext } from "../write/context.ts";
import { runWrite } from "../write/pipeline.ts";
import type { SiteRow } from "../site/sites.ts";
import { languageState } from "../site/languages.ts";
import { nothingRebaked } from "../write/change.ts";
import { releaseBlob } from "./blob-claims.ts";
import { releaseVariants } from "./variant-charges.ts";
import type { MediaFiles } from "./intake.ts";
import { mediaSlugFrom } from "./names.ts";
import { findMedia, requireMedia } from "./queries.ts";
import { recordOf, recordOfRow } from "./record.ts";
import { applyTexts, parseTexts, searchTextOf, textChangesFrom } from "./texts.ts";
import { mediaChange, writtenRow, type MediaWriteAnswer } from "./upload-service.ts";
import { usedByOf } from "./used-by.ts";

const PATCH_FIELDS = ["alt", "title", "slug"] as const;

/** What a dry run adds to a delete's answer: nothing was written. */
type DryRun = { dry_run?: true; applied?: false };

/** The body of PATCH /media/{ref} as its route schema lets it through (`slug` a string). */
export type PatchMediaBody = {
  alt?: unknown;
  title?: unknown;
  slug?: string;
};

/** PATCH /media/{ref} `{alt?, title?, slug?}`. */
export async function patchMedia(
  ctx: ServiceContext,
  site: SiteRow,
  userId: number,
  ref: string,
  body: PatchMediaBody,
): Promise<MediaWriteAnswer> {
  const warnings: Warning[] = unknownFields(body, PATCH_FIELDS);
  const before = await requireMedia(ctx.db, site.id, ref);
  if (!PATCH_FIELDS.some((field) => body[field] !== undefined)) {
    throw fail("nothing_to_update", { allowed: PATCH_FIELDS }, "Name at least one of alt, title and slug.");
  }
  const state = await languageState(ctx.db, site.id);
  const altChange = body.alt === undefined ? undefined : textChangesFrom(body.alt, "alt", state);
  const titleChange = body.title === undefined ? undefined : textChangesFrom(body.title, "title", state);
  const newSlug = body.slug === undefined ? undefined : mediaSlugFrom(body.slug);
  const now = gmt(ctx.clock());
  const done = await runWrite(ctx, {
    siteId: site.id,
    // A longer alt or a slug that frames were waiting for prints more: within the budgets, or not at all.
    trial: true,
    // Media writes of a site run one at a time (the pipeline takes the site's quota row first): a
    // slug checked free stays free.
    apply: async (trx) => {
      const old = await requireMedia(trx, site.id, String(before.id));
      const slug = newSlug ?? old.slug;
      if (slug !== old.slug) {
        const holder = await findMedia(trx, site.id, slug);
        if (holder)
          throw fail(
            "slug_taken",
            { field: "slug", slug, id: holder.id },
            `Another media file of this site has the slug "${slug}".`,
          );
      }
      const alt = applyTexts(parseTexts(old.alt_json), altChange);
      const title = applyTexts(parseTexts(old.title_json), titleChange);
      const row = await trx
        .updateTable("media")
        .set({
          slug,
          alt_json: JSON.stringify(alt),
          title_json: JSON.stringify(title),
          search_text: searchTextOf(old.filename, alt, title),
          updated_at_gmt: now,
          updated_by: userId,
        })
        .where("id", "=", old.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return writtenRow({ row, old }, slug === old.slug ? "updated" : "renamed", undefined, [old.slug]);
    },
  });
  return { media: await recordOfRow(ctx.db, site.id, done.value.row), rebaked: done.rebaked, warnings };
}

/** A yes-or-no query parameter (`?force`, `?keep_metadata`): 1/true or 0/false (absent: false); anything else is 400 invalid_parameter. */
export function flagFrom(parameter: string, value: unknown): boolean {
  if (value === undefined || value === "0" || value === "false") return false;
  if (value === "1" || value === "true" || value === "") return true;
  throw fail(
    "invalid_parameter",
    { parameter, value, allowed: ["1", "true", "0", "false"] },
    `${parameter} must be 1 or true (or 0, false).`,
  );
}

/** `?force` of a delete. */
export function forceFrom(value: unknown): boolean {
  return flagFrom("force", value);
}

/**
 * DELETE /media/{ref}: 409 media_in_use (with used_by) while frames show it, unless `force`;
 * the answer is the file as it was, with the frames that showed it. Its blob goes after the
 * commit if no other row names it. `dryRun` (`?dry_run=1`): the same refusals and answer, with
 * `dry_run: true, applied: false`; the delete is rolled back, nothing announced, the blob kept.
 */
export async function deleteMedia(
  ctx: ServiceContext,
  files: MediaFiles,
  site: SiteRow,
  ref: string,
  force: boolean,
  options: { dryRun?: boolean } = {},
): Promise<Omit<MediaWriteAnswer, "warnings"> & DryRun> {
  const found = await requireMedia(ctx.db, site.id, ref);
  const usedBy = (await usedByOf(ctx.db, site.id, [found])).get(found.id)!;
  if (usedBy.frames.length > 0 && !force) {
    throw fail(
      "media_in_use",
      { ref, used_by: usedBy },
      `Frames show this file (${usedBy.frames.map((f) => f.slug).join(", ")}); pass ?force=1 to delete it anyway.`,
    );
  }
  const dryRun = options.dryRun === true;
  const done = await runWrite(ctx, {
    siteId: site.id,
    dryRun,
    apply: async (trx) => {
      // Its variants' charges first: the row's delete takes them with it.
      await releaseVariants(trx, site.id, found.id);
      const gone = await trx
        .deleteFrom("media")
        .where("site_id", "=", site.id)
        .where("id", "=", found.id)
        .returningAll()
        .executeTakeFirst();
      if (!gone) throw fail("media_not_found", { ref }, `No media file "${ref}" on this site.`);
      return {
        value: gone,
        wrote: [{ kind: "media", id: String(gone.id), action: "deleted" }],
        changes: [mediaChange(gone)],
        room: { media_bytes: -Number(gone.bytes) },
      };
    },
  });
  const row = done.value;
  if (dryRun) return { media: recordOf(row, usedBy), rebaked: nothingRebaked(), dry_run: true, applied: false };
  await releaseBlob(ctx.db, files.blobs, row.sha256);
  return { media: recordOf(row, usedBy), rebaked: done.rebaked };
}

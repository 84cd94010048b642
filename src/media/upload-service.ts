// POST /media (a new file) and PUT /media/{ref} (new bytes for a file: same id and slug, new url).
// The bytes are checked and streamed into the blob store first (intake.ts); the row is then
// written through the write pipeline (write/pipeline.ts), in one transaction that takes the site's
// quota row, keeps the blob from a concurrent release (blob-claims.ts), counts the bytes against
// media_bytes and tries what the change would rebake within the render budgets. A refusal at any
// step leaves no row, and the blob goes again unless another row names it.
import { gmt } from "../clock.ts";
import { warning, type Warning } from "../warnings.ts";
import type { Change, Rebaked } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { runWrite, type Applied } from "../write/pipeline.ts";
import type { SiteRow } from "../site/sites.ts";
import { languageState } from "../site/languages.ts";
import type { UsageDelta } from "../quotas/usage.ts";
import { firstFreeSlug } from "../pages/slug.ts";
import { claimBlob, releaseBlob } from "./blob-claims.ts";
import { releaseVariants } from "./variant-charges.ts";
import { storeUpload, type MediaFiles, type StoredFile } from "./intake.ts";
import { filenameFrom, slugFromFilename } from "./names.ts";
import { requireMedia, slugsLike, type MediaRow } from "./queries.ts";
import { recordOfRow, type MediaRecord } from "./record.ts";
import { applyTexts, parseTexts, searchTextOf, textChangesFrom, type Texts } from "./texts.ts";
import type { UploadBody } from "./upload-body.ts";

export interface MediaWriteAnswer {
  media: MediaRecord;
  rebaked: Rebaked;
  warnings: Warning[];
}

/** What a write of a file announces: frames reading it by any of its names are affected. */
export function mediaChange(row: Pick<MediaRow, "id" | "slug">, formerSlugs: readonly string[] = []): Change {
  return { kind: "media", mediaId: Number(row.id), refs: [...new Set([String(row.id), row.slug, ...formerSlugs])] };
}

function ignoredWarnings(body: UploadBody): Warning[] {
  return body
    .ignored()
    .map((name) =>
      warning(
        "unknown_field",
        `Part "${name}" is not known here and was ignored (an upload takes one file part named file, and alt and title).`,
        { field: name },
      ),
    );
}

/** The alt and title an upload's fields set, over `row`'s when it replaces one. */
async function textsOf(ctx: ServiceContext, siteId: number, body: UploadBody, row?: MediaRow) {
  const fields = await body.fields();
  const state = await languageState(ctx.db, siteId);
  const change = (value: string | undefined, field: string) =>
    value === undefined ? undefined : textChangesFrom(value, field, state);
  return {
    alt: applyTexts(row ? parseTexts(row.alt_json) : {}, change(fields.alt, "alt")),
    title: applyTexts(row ? parseTexts(row.title_json) : {}, change(fields.title, "title")),
  };
}

/** The columns an upload writes, new file or new bytes: the file's facts, name and texts, who and when. */
function uploadColumns(
  filename: string,
  stored: StoredFile,
  texts: { alt: Texts; title: Texts },
  now: string,
  userId: number,
) {
  const { sha256, bytes, mime, kind, width, height } = stored;
  const { alt, title } = texts;
  return {
    filename,
    sha256,
    bytes,
    mime,
    kind,
    width,
    height,
    alt_json: JSON.stringify(alt),
    title_json: JSON.stringify(title),
    search_text: searchTextOf(filename, alt, title),
    updated_at_gmt: now,
    updated_by: userId,
  };
}

/**
 * Runs `record` (the row's write) once the bytes are stored; on any refusal after the store,
 * releases the blob before the refusal is answered.
 */
async function recordStored<T>(
  ctx: ServiceContext,
  files: MediaFiles,
  stored: StoredFile,
  record: () => Promise<T>,
): Promise<T> {
  try {
    return await record();
  } catch (error) {
    await releaseBlob(ctx.db, files.blobs, stored.sha256);
    throw error;
  }
}

/** What a write of a file's row answers through the pipeline: the row, and the row it replaced. */
export interface MediaRowWrite {
  row: MediaRow;
  old?: MediaRow;
}

/** A file's row written, as the pipeline takes it: the file written, its change, the room it takes. */
export function writtenRow(
  done: MediaRowWrite,
  action: "created" | "updated" | "renamed",
  room: UsageDelta | undefined,
  formerSlugs: readonly string[] = [],
): Applied<MediaRowWrite> {
  return {
    value: done,
    wrote: [{ kind: "media", id: String(done.row.id), action }],
    changes: [mediaChange(done.row, formerSlugs)],
    room,
  };
}

/** POST /media: stores a file and its row; answers it with what the publish step rebaked. */
export async function createMedia(
  ctx: ServiceContext,
  files: MediaFiles,
  site: SiteRow,
  userId: number,
  body: UploadBody,
): Promise<MediaWriteAnswer> {
  // The name is checked before a byte is read: a raw upload without one is refused at once.
  const filename = filenameFrom(body.source.filename);
  const stored = await storeUpload(files, body.source);
  const done = await recordStored(ctx, files, stored, async () => {
    const texts = await textsOf(ctx, site.id, body);
    const now = gmt(ctx.clock());
    return runWrite(ctx, {
      siteId: site.id,
      // Frames that named this slug while it was missing print it now: within the budgets, or not at all.
      trial: true,
      // The pipeline takes the site's quota row first: every media write of a site then runs one
      // at a time, so two uploads of one name never take the same slug.
      apply: async (trx) => {
        await claimBlob(trx, files.blobs, stored);
        const base = slugFromFilename(filename);
        const slug = firstFreeSlug(base, await slugsLike(trx, site.id, base));
        const row = await trx
          .insertInto("media")
          .values({
            site_id: site.id,
            slug,
            created_at_gmt: now,
            ...uploadColumns(filename, stored, texts, now, userId),
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return writtenRow({ row }, "created", { media_bytes: stored.bytes });
      },
    });
  });
  const { row } = done.value;
  return { media: await recordOfRow(ctx.db, site.id, row), rebaked: done.rebaked, warnings: ignoredWarnings(body) };
}

/** PUT /media/{ref}: new bytes (and name, alt, title when given) for a file; its id and slug stay. */
export async function replaceMedia(
  ctx: ServiceContext,
  files: MediaFiles,
  site: SiteRow,
  userId: number,
  ref: string,
  body: UploadBody,
): Promise<MediaWriteAnswer> {
  const before = await requireMedia(ctx.db, site.id, ref);
  const filename = body.source.filename === null ? before.filename : filenameFrom(body.source.filename);
  const stored = await storeUpload(files, body.source);
  const done = await recordStored(ctx, files, stored, async () => {
    const texts = await textsOf(ctx, site.id, body, before);
    const now = gmt(ctx.clock());
    return runWrite(ctx, {
      siteId: site.id,
      trial: true,
      apply: async (trx) => {
        // Read again under the site's row (the pipeline took it first): a delete may have come first.
        const old = await requireMedia(trx, site.id, String(before.id));
        await claimBlob(trx, files.blobs, stored);
        // Other bytes: the old bytes' variants are not this file's any more.
        if (old.sha256 !== stored.sha256) await releaseVariants(trx, site.id, old.id);
        const row = await trx
          .updateTable("media")
          .set(uploadColumns(filename, stored, texts, now, userId))
          .where("id", "=", old.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        return writtenRow({ row, old }, "updated", { media_bytes: stored.bytes - Number(old.bytes) });
      },
    });
  });
  const { row, old } = done.value;
  if (old!.sha256 !== row.sha256) await releaseBlob(ctx.db, files.blobs, old!.sha256);
  return { media: await recordOfRow(ctx.db, site.id, row), rebaked: done.rebaked, warnings: ignoredWarnings(body) };
}

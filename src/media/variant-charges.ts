// What a site's variants weigh against its `media_bytes` (docs/media.md,
// "Counted"). Variants are derived, so they never cost a write its room: a variant is kept only
// if its bytes fit (`takeRoom`), charged to the site whose request made it as a row of
// `media_variants` (the file's row and the width), and freed when the file goes or its bytes are
// replaced. A variant already stored (made for another file sharing the blob) is served without a
// charge: the site that made it pays.
import { holdRoom, requireRoom, takeRoom } from "../quotas/usage.ts";
import type { Db } from "../store/database.ts";
import type { VariantJob, VariantKeeper } from "./variants.ts";

/**
 * Charges made variants to their site, each in a transaction of its own: true when the variant
 * may be kept (charged now, or already charged by another process that made it too); false when
 * it does not fit the site's media_bytes, or its file is gone or has other bytes now.
 */
export function variantKeeper(db: Db): VariantKeeper {
  return (job: VariantJob, bytes: number) =>
    db.transaction().execute(async (trx) => {
      const { siteId, mediaId, sha256, width } = job;
      // Before the reads: the site's media writes wait, so the file cannot go meanwhile.
      await holdRoom(trx, siteId);
      const file = await trx
        .selectFrom("media")
        .select("id")
        .where("id", "=", mediaId)
        .where("site_id", "=", siteId)
        .where("sha256", "=", sha256)
        .executeTakeFirst();
      if (file === undefined) return false;
      const charged = await trx
        .selectFrom("media_variants")
        .select("bytes")
        .where("media_id", "=", mediaId)
        .where("width", "=", width)
        .executeTakeFirst();
      if (charged !== undefined) return true;
      if (!(await takeRoom(trx, siteId, { media_bytes: bytes }))) return false;
      await trx.insertInto("media_variants").values({ media_id: mediaId, site_id: siteId, width, bytes }).execute();
      return true;
    });
}

/**
 * In the transaction of a write that deletes a file or replaces its bytes, after `holdRoom`: frees
 * what its variants were charged, and forgets them (their blob's variants are another file's now,
 * or go with the blob).
 */
export async function releaseVariants(trx: Db, siteId: number, mediaId: number): Promise<void> {
  const gone = await trx.deleteFrom("media_variants").where("media_id", "=", mediaId).returning("bytes").execute();
  const bytes = gone.reduce((sum, row) => sum + Number(row.bytes), 0);
  await requireRoom(trx, siteId, { media_bytes: -bytes });
}

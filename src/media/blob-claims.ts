// Who may remove a blob, and when (docs/media.md, "Records"). Rows of any site may name one blob
// (the same bytes uploaded twice share it); a blob goes once no row names it. The race to rule out:
// an upload of the same bytes stores them (the rename puts the blob back, or leaves it in place)
// while a delete of the last row naming them removes the blob, and the upload then records a row
// naming nothing. So both sides take the blob's lock in a transaction:
// - a release (after a delete or a replacement committed, or after a refused upload) counts the
//   rows naming the blob and removes it only when there are none, holding the lock;
// - an upload, in the transaction that writes its row, takes the lock and checks the blob is
//   there before writing. It is, unless a release removed it between the store's rename and the
//   lock: then nothing is written and the upload is refused (409 upload_conflict: send it again).
// Once the upload commits, every later release sees its row. The lock is PostgreSQL's advisory
// transaction lock on the key; SQLite runs one transaction at a time, which is the lock.
import { sql } from "kysely";
import { fail } from "../errors.ts";
import type { BlobStore } from "../blobs/blob-store.ts";
import { isPostgres, type Db } from "../store/database.ts";
import { blobIsNamed } from "./queries.ts";

async function lockBlob(trx: Db, sha256: string): Promise<void> {
  if (!isPostgres(trx)) return;
  // The first 64 bits of the key, as PostgreSQL's signed bigint.
  const key = BigInt.asIntN(64, BigInt(`0x${sha256.slice(0, 16)}`));
  await sql`select pg_advisory_xact_lock(${key.toString()}::bigint)`.execute(trx);
}

/** In the transaction that writes a row naming the blob, before it writes: the blob stays until the row commits. */
export async function claimBlob(trx: Db, blobs: BlobStore, blob: { sha256: string; bytes: number }): Promise<void> {
  await lockBlob(trx, blob.sha256);
  if ((await blobs.size(blob.sha256)) !== blob.bytes) {
    throw fail("upload_conflict", { sha256: blob.sha256 });
  }
}

/**
 * Removes the blob (and its derived files) if no row of any site names it; after the commit of
 * the write that stopped naming it. A failure leaves an unnamed blob, which costs disk only and
 * is stored again whole by the next upload of the same bytes: the write it follows stands.
 */
export async function releaseBlob(db: Db, blobs: BlobStore, sha256: string): Promise<void> {
  try {
    await db.transaction().execute(async (trx) => {
      await lockBlob(trx, sha256);
      if (!(await blobIsNamed(trx, sha256))) await blobs.delete(sha256);
    });
  } catch {
    // See above: nothing is lost; the write's answer is not turned into a failure.
  }
}

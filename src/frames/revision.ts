// A frame's state as its revisions keep it (docs/revisions.md): the markup is the content (diffed as
// text); the slug and the markup's hash are the fields a revision's summary names (`["html"]`,
// `["slug"]`). History follows the frame by its id, through renames.
import { createHash } from "node:crypto";
import { recordRevision, type Snapshot } from "../revisions/revisions.ts";
import type { Db } from "../store/database.ts";
import { revisedBy } from "../write/pipeline.ts";

export function frameSnapshot(row: { slug: string; html: string }): Snapshot {
  return {
    content: row.html,
    fields: { slug: row.slug, html: createHash("sha256").update(row.html, "utf8").digest("hex") },
  };
}

/** Records a revision of each of these frames whose state changed (inside the writing transaction). */
export async function reviseFrames(trx: Db, siteId: number, ids: Iterable<string>, now: string): Promise<void> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return;
  const rows = await trx
    .selectFrom("frames")
    .select(["id", "slug", "html"])
    .where("site_id", "=", siteId)
    .where("id", "in", wanted)
    .execute();
  for (const row of rows.sort((a, b) => (a.id < b.id ? -1 : 1)))
    await recordRevision(trx, siteId, "frames", row.id, frameSnapshot(row), now);
}

revisedBy("frame", reviseFrames);

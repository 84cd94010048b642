// Renaming a frame rewrites the svc/frame and svc/partial references to its old slug in every
// other frame of the site (spec, PATCH rule 1), inside the caller's transaction. Every byte
// outside the rewritten references stays as it was.
import { createHash } from "node:crypto";
import { compileFrame, rewriteFrameRefs } from "../markup/index.ts";
import type { Db } from "../store/database.ts";
import { nodeOfRow } from "./graph.ts";
import { storedAnalysis, type FrameRow } from "./record.ts";
import { storedAnalysisOf } from "./report.ts";
import { DependencyIndex } from "../publish/dependency-index.ts";

export interface Renamed {
  from: string;
  to: string;
  frames_updated: string[];
  details: Array<{ id: string; slug: string; replaced: number }>;
}

export async function rewriteReferences(trx: Db, siteId: number, frame: Pick<FrameRow, "id" | "slug">, newSlug: string, at: string, userId: number): Promise<Renamed> {
  const oldSlug = frame.slug;
  const matchesOld = (value: string) => value.trim().toLowerCase() === oldSlug;
  const rows = await trx.selectFrom("frames").select(["id", "slug", "analysis_json"]).where("site_id", "=", siteId).execute();
  // The index as it stands after the rename, for turning ids into slugs in rewritten frames.
  const index = new DependencyIndex(rows.map((row) => (row.id === frame.id ? { ...nodeOfRow(row), slug: newSlug } : nodeOfRow(row))));
  const referrers = rows.filter((row) => row.id !== frame.id && storedAnalysis(row).ref_values.some(matchesOld)).map((row) => row.id);

  const details: Renamed["details"] = [];
  for (const id of referrers) {
    const row = await trx.selectFrom("frames").select(["id", "slug", "html", "revision"]).where("id", "=", id).executeTakeFirstOrThrow();
    const rewritten = rewriteFrameRefs(row.html, matchesOld, newSlug);
    if (rewritten.replaced === 0) continue;
    const stored = storedAnalysisOf(compileFrame(rewritten.html), (value) => index.resolve(value));
    await trx
      .updateTable("frames")
      .set({
        html: rewritten.html,
        bytes: Buffer.byteLength(rewritten.html, "utf8"),
        sha256: createHash("sha256").update(rewritten.html, "utf8").digest("hex"),
        analysis_json: JSON.stringify(stored),
        revision: row.revision + 1,
        updated_at_gmt: at,
        updated_by: userId,
      })
      .where("id", "=", row.id)
      .execute();
    details.push({ id: row.id, slug: row.slug, replaced: rewritten.replaced });
  }
  details.sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  return { from: oldSlug, to: newSlug, frames_updated: details.map((d) => d.slug), details };
}

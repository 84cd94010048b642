// Renaming a frame rewrites the svc/frame and svc/partial references to its old slug in every
// other frame of the site (docs/frames.md, "Writes"), inside the caller's transaction. Every byte
// outside the rewritten references stays as it was. References by id are left alone: ids do
// not change.
import { createHash } from "node:crypto";
import { compileFrame, rewriteFrameRefs } from "../markup/index.ts";
import type { Db } from "../store/database.ts";
import { nodeOfRow } from "./graph.ts";
import { storedAnalysis, type FrameRow } from "./record.ts";
import { storedAnalysisOf } from "./report.ts";
import { DependencyIndex } from "../effects/dependency-index.ts";
import { utf8Bytes } from "../quotas/bytes.ts";

export interface Renamed {
  from: string;
  to: string;
  frames_updated: string[];
  details: Array<{ id: string; slug: string; replaced: number }>;
}

export interface Rewrite {
  id: string;
  slug: string;
  revision: number;
  /** The markup with its references rewritten. */
  html: string;
  /** Bytes of the markup before. */
  bytes: number;
  replaced: number;
}

const bySlug = (a: { slug: string }, b: { slug: string }) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);

/**
 * The rewrites a rename implies, computed without writing: every other frame with a reference
 * key (name or an alias) whose value is the old slug, its new markup and the count of values
 * replaced.
 */
export async function planRewrites(
  db: Db,
  siteId: number,
  frame: Pick<FrameRow, "id" | "slug">,
  newSlug: string,
): Promise<Rewrite[]> {
  const oldSlug = frame.slug;
  const matchesOld = (value: string) => value.trim().toLowerCase() === oldSlug;
  const rows = await db
    .selectFrom("frames")
    .select(["id", "slug", "analysis_json"])
    .where("site_id", "=", siteId)
    .where("id", "!=", frame.id)
    .execute();
  const referrers = rows.filter((row) =>
    storedAnalysis(row).analysis.frame_refs.some((ins) => ins.keys.some(([, value]) => matchesOld(value))),
  );
  const out: Rewrite[] = [];
  for (const { id } of referrers) {
    const row = await db
      .selectFrom("frames")
      .select(["id", "slug", "html", "bytes", "revision"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    const rewritten = rewriteFrameRefs(row.html, matchesOld, newSlug);
    if (rewritten.replaced === 0) continue;
    out.push({
      id: row.id,
      slug: row.slug,
      revision: row.revision,
      html: rewritten.html,
      bytes: row.bytes,
      replaced: rewritten.replaced,
    });
  }
  return out.sort(bySlug);
}

export function renamedReport(
  from: string,
  to: string,
  rewrites: readonly Pick<Rewrite, "id" | "slug" | "replaced">[],
): Renamed {
  const details = rewrites.map(({ id, slug, replaced }) => ({ id, slug, replaced })).sort(bySlug);
  return { from, to, frames_updated: details.map((d) => d.slug), details };
}

/** The rename's report, and how many bytes the rewrites added to the frames holding them (stored_bytes). */
export interface Rewritten {
  report: Renamed;
  grown: number;
}

/** Rewrites the references to `frame`'s old slug in the other frames of the site; run inside the rename's transaction. */
export async function rewriteReferences(
  trx: Db,
  siteId: number,
  frame: Pick<FrameRow, "id" | "slug">,
  newSlug: string,
  at: string,
  userId: number,
): Promise<Rewritten> {
  const oldSlug = frame.slug;
  const rewrites = await planRewrites(trx, siteId, frame, newSlug);
  if (rewrites.length === 0) return { report: renamedReport(oldSlug, newSlug, []), grown: 0 };
  // A longer slug makes the referring frames longer: that counts against stored_bytes.
  const grown = rewrites.reduce((sum, rewrite) => sum + utf8Bytes(rewrite.html) - rewrite.bytes, 0);
  const rows = await trx
    .selectFrom("frames")
    .select(["id", "slug", "analysis_json"])
    .where("site_id", "=", siteId)
    .execute();
  // The index as it stands after the rename, for turning ids into slugs in rewritten frames.
  const index = new DependencyIndex(
    rows.map((row) => (row.id === frame.id ? { ...nodeOfRow(row), slug: newSlug } : nodeOfRow(row))),
  );

  for (const rewrite of rewrites) {
    const stored = storedAnalysisOf(compileFrame(rewrite.html), (value) => index.resolve(value));
    await trx
      .updateTable("frames")
      .set({
        html: rewrite.html,
        bytes: Buffer.byteLength(rewrite.html, "utf8"),
        sha256: createHash("sha256").update(rewrite.html, "utf8").digest("hex"),
        analysis_json: JSON.stringify(stored),
        revision: rewrite.revision + 1,
        updated_at_gmt: at,
        updated_by: userId,
      })
      .where("id", "=", rewrite.id)
      .execute();
  }
  return { report: renamedReport(oldSlug, newSlug, rewrites), grown };
}

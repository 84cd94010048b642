// The site's frames as dependency-index nodes, read from their stored analysis (no markup).
import type { Db } from "../store/database.ts";
import { DependencyIndex, type FrameNode } from "../publish/dependency-index.ts";
import { storedAnalysis } from "./record.ts";
import { frameGraphRows } from "./queries.ts";

export function nodeOfRow(row: { id: string; slug: string; analysis_json: string }): FrameNode {
  const stored = storedAnalysis(row);
  return { id: row.id, slug: row.slug, sources: stored.analysis.sources, refs: stored.ref_values, liveReasons: stored.analysis.live_reasons };
}

export async function siteFrameNodes(db: Db, siteId: number): Promise<FrameNode[]> {
  return (await frameGraphRows(db, siteId)).map(nodeOfRow);
}

export async function siteIndex(db: Db, siteId: number): Promise<DependencyIndex> {
  return new DependencyIndex(await siteFrameNodes(db, siteId));
}

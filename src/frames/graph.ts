// The site's frames as dependency-index nodes, read from their stored analysis (no markup).
//
// Reading them all means reading every frame row of the site, and on SQLite `analysis_json` is
// stored after the markup, so each row's markup pages are read too: at 10,000 frames of 10 KB
// that is tens of milliseconds, and every frame write, publish run and frame read needs the
// graph. So on SQLite (one service process) the nodes are kept per site:
// - every service that writes frames calls `frameGraphChanged` once its write is over, naming
//   the frames it wrote when it knows them; the next read re-reads only those rows (or all of
//   them when the write did not say);
// - each read checks, in one query over the index only, that no other connection committed
//   anything (`pragma data_version`) and that the site has as many frames as kept (a write that
//   bypassed the services, a deleted and re-created site); otherwise it reads everything again.
// Inside a transaction, on PostgreSQL (several processes share the database), and on SQLite
// while another write's transaction is open (reads then go to the read-only connection), the
// nodes are read afresh on every call.
import { sql, SqliteAdapter } from "kysely";
import type { Db } from "../store/database.ts";
import { DependencyIndex, type FrameNode } from "../effects/dependency-index.ts";
import { storedAnalysis } from "./record.ts";
import { frameGraphRows } from "./queries.ts";
import { siteIdValue } from "../store/by-id.ts";
import { readsAside } from "../store/sqlite-driver.ts";

export function nodeOfRow(row: { id: string; slug: string; analysis_json: string }): FrameNode {
  const stored = storedAnalysis(row);
  return {
    id: row.id,
    slug: row.slug,
    sources: stored.analysis.sources,
    refs: stored.ref_values,
    liveReasons: stored.analysis.live_reasons,
    lists: stored.analysis.lists ?? [],
  };
}

interface Kept {
  dataVersion: number;
  byId: ReadonlyMap<string, FrameNode>;
  nodes: readonly FrameNode[];
  index: DependencyIndex | null;
}

interface SiteGraph {
  /** Ticks after each frame write of this process that touched the site. */
  generation: number;
  /** Frames written since `kept` was read; `all` when a write did not say which. */
  dirty: Set<string> | "all";
  kept: Kept | null;
}

/**
 * Kept per database, by its adapter: a transaction shares its database's adapter, so a read
 * inside one (a write's render trial) finds the kept nodes too. It uses them as they are, with
 * the rows named dirty read again through the transaction, and keeps nothing it read there: what
 * a transaction sees is not committed. A frame write names its frames dirty before its trial.
 */
const caches = new WeakMap<object, Map<number, SiteGraph>>();
/** Rows re-read one by one at most; beyond, the whole site is read again. */
const MAX_DIRTY = 200;

function sitesOf(db: Db): Map<number, SiteGraph> | null {
  const adapter = db.getExecutor().adapter;
  if (!(adapter instanceof SqliteAdapter)) return null;
  let sites = caches.get(adapter);
  if (!sites) {
    sites = new Map();
    caches.set(adapter, sites);
  }
  return sites;
}

/**
 * Every service that writes frames of a site calls this once the write is over (committed or
 * not), with the ids of the frames it inserted, changed or deleted, or without them to have the
 * whole site read again.
 */
export function frameGraphChanged(db: Db, siteId: number, frameIds?: readonly string[]): void {
  const graph = caches.get(db.getExecutor().adapter)?.get(siteId);
  if (!graph) return;
  graph.generation++;
  if (frameIds === undefined || graph.dirty === "all") graph.dirty = "all";
  else for (const id of frameIds) graph.dirty.add(id);
  if (graph.dirty !== "all" && graph.dirty.size > MAX_DIRTY) graph.dirty = "all";
}

async function stamp(db: Db, siteId: number): Promise<{ count: number; dataVersion: number }> {
  const { rows } = await sql<{
    n: number;
    v: number;
  }>`select count(*) as n, (select data_version from pragma_data_version) as v from frames where site_id = ${siteId}`.execute(
    db,
  );
  return { count: Number(rows[0].n), dataVersion: Number(rows[0].v) };
}

function keptOf(dataVersion: number, byId: Map<string, FrameNode>): Kept {
  return { dataVersion, byId, nodes: Object.freeze([...byId.values()]), index: null };
}

async function readAll(db: Db, siteId: number, dataVersion: number): Promise<Kept> {
  const byId = new Map<string, FrameNode>();
  for (const row of await frameGraphRows(db, siteId)) byId.set(row.id, nodeOfRow(row));
  return keptOf(dataVersion, byId);
}

/** The kept nodes with the rows of `ids` read again (added, replaced or, when gone, removed). */
async function reread(db: Db, siteId: number, kept: Kept, ids: readonly string[], dataVersion: number): Promise<Kept> {
  const byId = new Map(kept.byId);
  for (const id of ids) byId.delete(id);
  const rows = await db
    .selectFrom("frames")
    .select(["id", "slug", "analysis_json"])
    .where(siteIdValue, "=", siteId)
    .where("id", "in", [...ids])
    .execute();
  for (const row of rows) byId.set(row.id, nodeOfRow(row));
  return keptOf(dataVersion, byId);
}

async function current(db: Db, sites: Map<number, SiteGraph>, siteId: number): Promise<Kept> {
  let graph = sites.get(siteId);
  if (!graph) {
    graph = { generation: 0, dirty: "all", kept: null };
    sites.set(siteId, graph);
  }
  const generation = graph.generation;
  const dirty = graph.dirty === "all" ? "all" : [...graph.dirty];
  const now = await stamp(db, siteId);
  const kept = graph.kept;
  let next: Kept;
  if (kept && dirty !== "all" && kept.dataVersion === now.dataVersion) {
    if (dirty.length === 0 && kept.byId.size === now.count) return kept;
    next =
      dirty.length === 0
        ? await readAll(db, siteId, now.dataVersion)
        : await reread(db, siteId, kept, dirty, now.dataVersion);
    if (next.byId.size !== now.count) next = await readAll(db, siteId, now.dataVersion);
  } else {
    next = await readAll(db, siteId, now.dataVersion);
  }
  // Kept only when no write of this process ended while the rows were read (otherwise the next
  // call reads what that write named, still listed as dirty, again), and never from a transaction.
  if (graph.generation === generation && !db.isTransaction) {
    graph.kept = next;
    graph.dirty = new Set();
  }
  return next;
}

/**
 * The kept graphs of `db`'s sites, or null where nothing is kept: on PostgreSQL, and on SQLite
 * while a write's transaction is open and this read, from outside it, goes to the read-only
 * connection, whose `data_version` says nothing of the writing one's (store/sqlite-driver.ts).
 */
function keptSitesOf(db: Db): Map<number, SiteGraph> | null {
  return readsAside(db) ? null : sitesOf(db);
}

export async function siteFrameNodes(db: Db, siteId: number): Promise<readonly FrameNode[]> {
  const sites = keptSitesOf(db);
  if (!sites) return (await frameGraphRows(db, siteId)).map(nodeOfRow);
  return (await current(db, sites, siteId)).nodes;
}

/** The site's dependency index. Shared while the site's frames stay as they are: read it, never change it. */
export async function siteIndex(db: Db, siteId: number): Promise<DependencyIndex> {
  const sites = keptSitesOf(db);
  if (!sites) return new DependencyIndex((await frameGraphRows(db, siteId)).map(nodeOfRow));
  const kept = await current(db, sites, siteId);
  kept.index ??= new DependencyIndex(kept.nodes);
  return kept.index;
}

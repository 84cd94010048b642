// Which pages a visitor can find (docs/search.md): published (a `future` page is not yet), every
// ancestor published (the page answers publicly), standing on a frame (a frameless page has no
// public address), and not `noindex` (a page kept out of search engines is kept out of this one).
import type { Db } from "../store/database.ts";
import type { PageRow } from "../store/schema.ts";

/** Rows read per query (bound parameters stay well under both databases' limits). */
const CHUNK = 500;

function noindex(seoJson: string): boolean {
  try {
    return (JSON.parse(seoJson) as { noindex?: unknown } | null)?.noindex === true;
  } catch {
    return false;
  }
}

async function inChunks<T>(ids: readonly number[], read: (chunk: number[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let at = 0; at < ids.length; at += CHUNK) out.push(...(await read(ids.slice(at, at + CHUNK))));
  return out;
}

/** Whether every ancestor of each page is published, read a generation at a time. */
async function ancestorsPublished(trx: Db, siteId: number, rows: readonly PageRow[]): Promise<Set<number>> {
  const parents = new Map<number, { parent_id: number; status: string }>();
  let wanted = [...new Set(rows.map((row) => row.parent_id).filter((id) => id !== 0))];
  while (wanted.length > 0) {
    const found = await inChunks(wanted, (chunk) =>
      trx
        .selectFrom("pages")
        .select(["id", "parent_id", "status"])
        .where("site_id", "=", siteId)
        .where("id", "in", chunk)
        .execute(),
    );
    for (const row of found) parents.set(row.id, row);
    // Only published parents' own parents matter: one unpublished ancestor hides the page.
    const next = found.filter((row) => row.status === "publish" && row.parent_id !== 0);
    wanted = [...new Set(next.map((row) => row.parent_id))].filter((id) => !parents.has(id));
  }
  const out = new Set<number>();
  for (const row of rows) {
    let id = row.parent_id;
    let seen = 0;
    while (id !== 0 && seen++ < 1000) {
      const parent = parents.get(id);
      if (parent?.status !== "publish") break;
      id = parent.parent_id;
    }
    if (id === 0) out.add(row.id);
  }
  return out;
}

/** The rows of those of `ids` a visitor can find; the others are not found (or no longer exist). */
export async function findablePages(trx: Db, siteId: number, ids: readonly number[]): Promise<PageRow[]> {
  const rows = await inChunks([...new Set(ids)], (chunk) =>
    trx
      .selectFrom("pages")
      .selectAll()
      .where("site_id", "=", siteId)
      .where("id", "in", chunk)
      .where("status", "=", "publish")
      .where("frame_id", "is not", null)
      .execute(),
  );
  const candidates = rows.filter((row) => !noindex(row.seo_json));
  const visible = await ancestorsPublished(trx, siteId, candidates);
  return candidates.filter((row) => visible.has(row.id));
}

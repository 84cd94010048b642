// A stylesheet's state as its revisions keep it (docs/revisions.md "Stylesheets"): kept
// under `theme:name` (e.g. `default:main`; theme and stylesheet names hold no `:` or `/`, so the
// id stands in a path as it is). A stylesheet is never renamed nor moved to another theme, so its
// id never changes. The content is the CSS as uploaded (diffed as text); the name, the theme and
// the CSS's SHA-256 are the fields a revision's summary names (`["css"]`).
import { createHash } from "node:crypto";
import { recordRevision, type Snapshot } from "../revisions/revisions.ts";
import { toTrash } from "../revisions/trash.ts";
import type { Db } from "../store/database.ts";
import { revisedBy } from "../write/pipeline.ts";

export function styleObjectId(theme: string, name: string): string {
  return `${theme}:${name}`;
}

/** The theme and name an object id stands for. */
export function styleOfObjectId(id: string): { theme: string; name: string } {
  const at = id.indexOf(":");
  return { theme: id.slice(0, at), name: id.slice(at + 1) };
}

export function styleSnapshot(theme: string, name: string, css: string): Snapshot {
  return { content: css, fields: { name, theme, css: createHash("sha256").update(css, "utf8").digest("hex") } };
}

/** Records the stylesheet as stored now as its next revision, unless unchanged (inside the writing transaction). */
export async function reviseStyle(trx: Db, siteId: number, theme: string, name: string, now: string): Promise<void> {
  const row = await trx
    .selectFrom("styles")
    .select("css")
    .where("site_id", "=", siteId)
    .where("theme", "=", theme)
    .where("name", "=", name)
    .executeTakeFirst();
  if (row)
    await recordRevision(trx, siteId, "styles", styleObjectId(theme, name), styleSnapshot(theme, name, row.css), now);
}

/** The write pipeline's reviser of stylesheets: each object id written (`theme:name`) gets its revision. */
async function reviseStyles(trx: Db, siteId: number, ids: readonly string[], now: string): Promise<void> {
  for (const id of new Set(ids)) {
    const { theme, name } = styleOfObjectId(id);
    await reviseStyle(trx, siteId, theme, name, now);
  }
}

revisedBy("style", reviseStyles);

/**
 * Before the stylesheet is deleted (inside the deleting transaction): its CSS kept as its last
 * revision (one older than revisions gets its first here), then its trash entry (slug: its name).
 */
export async function trashStyle(trx: Db, siteId: number, theme: string, name: string, now: string): Promise<void> {
  await reviseStyle(trx, siteId, theme, name, now);
  await toTrash(trx, siteId, "styles", styleObjectId(theme, name), name, now);
}

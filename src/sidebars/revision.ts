// A sidebar's state as its revisions keep it (docs/revisions.md): one object per
// sidebar, kept by its name through all its languages. The content is its JSON, pretty-printed
// one field per line with sorted keys: `name`; `root` and `items`, the default language's tree
// (the root page of a generated tree, else null; the items as stored: ids, page ids, labels given
// or null, links, sections with `open`; both null when the default language has no tree); and
// `trees`, the trees of the other languages that have their own, by language code. The same
// fields decide the summary (`["items"]`, `["root"]`, `["trees"]`).
import { prettyJson, recordRevision, type Snapshot } from "../revisions/revisions.ts";
import type { Db } from "../store/database.ts";
import { revisedBy } from "../write/pipeline.ts";
import { flattenStored, storedItems, type StoredItem, type TreeRow } from "./tree.ts";

export interface KeptTree {
  root: number | null;
  items: StoredItem[];
}

export interface SidebarState {
  name: string;
  root: number | null;
  /** null: the default language has no tree. */
  items: StoredItem[] | null;
  trees: Record<string, KeptTree>;
}

export function sidebarSnapshot(
  name: string,
  rows: readonly Pick<TreeRow, "lang" | "root_id" | "items_json">[],
): Snapshot {
  const base = rows.find((row) => row.lang === "");
  const trees: Record<string, KeptTree> = {};
  for (const row of rows) if (row.lang !== "") trees[row.lang] = { root: row.root_id, items: storedItems(row) };
  const fields: SidebarState = { name, root: base?.root_id ?? null, items: base ? storedItems(base) : null, trees };
  return { content: prettyJson(fields), fields: fields as unknown as Record<string, unknown> };
}

/** The current state of a sidebar (undefined: no such sidebar). */
export async function currentSidebarSnapshot(db: Db, siteId: number, name: string): Promise<Snapshot | undefined> {
  const sidebar = await db
    .selectFrom("sidebars")
    .select("name")
    .where("site_id", "=", siteId)
    .where("name", "=", name)
    .executeTakeFirst();
  if (!sidebar) return undefined;
  const rows = await db
    .selectFrom("sidebar_trees")
    .select(["lang", "root_id", "items_json"])
    .where("site_id", "=", siteId)
    .where("name", "=", name)
    .orderBy("lang")
    .execute();
  return sidebarSnapshot(name, rows);
}

/** Records a revision of each of these sidebars whose state changed (inside the writing transaction). */
export async function reviseSidebars(trx: Db, siteId: number, names: Iterable<string>, now: string): Promise<void> {
  for (const name of [...new Set(names)].sort()) {
    const snapshot = await currentSidebarSnapshot(trx, siteId, name);
    if (snapshot) await recordRevision(trx, siteId, "sidebars", name, snapshot, now);
  }
}

// The write pipeline names a written sidebar by its name.
revisedBy("sidebar", reviseSidebars);

function itemsFrom(value: unknown): StoredItem[] {
  return Array.isArray(value)
    ? (value.filter((item) => item !== null && typeof item === "object") as StoredItem[])
    : [];
}

function rootFrom(value: unknown): number | null {
  return Number.isSafeInteger(value) ? (value as number) : null;
}

/** A stored revision's fields read back as a sidebar state. */
export function sidebarStateOf(name: string, fields: Record<string, unknown>): SidebarState {
  const trees: Record<string, KeptTree> = {};
  const raw =
    fields.trees !== null && typeof fields.trees === "object" ? (fields.trees as Record<string, unknown>) : {};
  for (const [lang, tree] of Object.entries(raw)) {
    if (lang === "" || tree === null || typeof tree !== "object") continue;
    const kept = tree as Record<string, unknown>;
    trees[lang] = { root: rootFrom(kept.root), items: itemsFrom(kept.items) };
  }
  return {
    name,
    root: rootFrom(fields.root),
    items: fields.items === null || fields.items === undefined ? null : itemsFrom(fields.items),
    trees,
  };
}

/** Every item id of a state (a restore gives them back to their items). */
export function idsOf(state: SidebarState): Set<number> {
  const all = [...(state.items ?? []), ...Object.values(state.trees).flatMap((tree) => tree.items)];
  return new Set(
    flattenStored(all)
      .map((item) => item.id)
      .filter((id) => Number.isSafeInteger(id) && id > 0),
  );
}

/** A stored item as an input item of a PUT (the tree a revision kept, written again). */
export function inputOf(items: readonly StoredItem[]): unknown[] {
  return items.map((item) => {
    if (item.kind === "page") return { id: item.id, page: item.page, label: item.label };
    if (item.kind === "link") return { id: item.id, url: item.url, label: item.label };
    return { id: item.id, label: item.label, open: item.open === true, items: inputOf(item.items ?? []) };
  });
}

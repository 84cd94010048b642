// What every sidebar write shares, PUT and restore: a language's tree read from input and
// checked (prepareTree), and any number of prepared trees stored in the caller's transaction
// (storeTrees), so that PUT /sidebars/{name} writes one language's tree and a restore writes a
// whole sidebar, every language at once.
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import type { ServiceContext } from "../write/context.ts";
import { candidateOf } from "../pages/refs.ts";
import { invalidEntry, pageFacts, resolveOne, resolvePageRef, type InvalidItem } from "../menus/resolve.ts";
import type { LanguageState } from "../site/languages.ts";
import type { Db } from "../store/database.ts";
import { flattenIn, treeFrom, type ItemIn } from "./input.ts";
import { flattenStored, storedItems, type StoredItem, type TreeRow } from "./tree.ts";

export async function treesOf(db: Db, siteId: number, name: string): Promise<TreeRow[]> {
  return db
    .selectFrom("sidebar_trees")
    .selectAll()
    .where("site_id", "=", siteId)
    .where("name", "=", name)
    .orderBy("lang")
    .execute();
}

/** Page references resolved to ids (in the tree's language first): 409 sidebar_items_unresolved with `errors`. */
async function resolvedPages(
  db: Db,
  siteId: number,
  items: readonly ItemIn[],
  lang: string | null,
  state: LanguageState,
): Promise<Map<ItemIn, number>> {
  const out = new Map<ItemIn, number>();
  const errors: Array<Record<string, unknown>> = [];
  for (const item of flattenIn(items)) {
    if (item.kind !== "page") continue;
    const found = await resolvePageRef(db, siteId, item.page, lang, state);
    if ("found" in found) out.set(item, found.found.id);
    else if ("candidates" in found)
      errors.push({
        at: item.at,
        page: item.page,
        error: "ambiguous_page",
        message: "Several pages match; use the id or the full path.",
        candidates: found.candidates.map(candidateOf),
      });
    else
      errors.push({
        at: item.at,
        page: item.page,
        error: "page_not_found",
        message: "No page has this id, slug or path.",
      });
  }
  if (errors.length > 0)
    throw fail("sidebar_items_unresolved", { errors: errors.slice(0, 50), total_errors: errors.length });
  return out;
}

/** One language's tree, read and checked, ready to store. */
export interface PreparedTree {
  /** The key it is stored under ('' for the default language). */
  key: string;
  rootId: number | null;
  input: ItemIn[];
  pages: Map<ItemIn, number>;
  /** Items of pages that are not public now. */
  invalid: InvalidItem[];
  /** Coordinates of the items left out (the invalid ones, with allow_invalid). */
  skip: Set<string>;
}

export interface PrepareOptions {
  allowInvalid: boolean;
  /**
   * A tree as a revision kept it (restores): pages and the root are page ids, stored as they
   * were (an item of a page not public now is kept, valid false; labels as written).
   */
  exact?: boolean;
}

/**
 * A tree from `{items}` or `{root}`. Items of unpublished pages refuse the write (409
 * sidebar_items_invalid) unless `allowInvalid`, which leaves them out and lists them.
 */
export async function prepareTree(
  ctx: Pick<ServiceContext, "db">,
  siteId: number,
  source: { items?: unknown; root?: number | string | null },
  key: string,
  lang: string | null,
  state: LanguageState,
  options: PrepareOptions,
): Promise<PreparedTree> {
  const { root } = source;
  const tree: PreparedTree = { key, rootId: null, input: [], pages: new Map(), invalid: [], skip: new Set() };
  if (root !== undefined && root !== null) {
    tree.rootId =
      options.exact && typeof root === "number" ? root : await resolveOne(ctx.db, siteId, root, lang, state);
    return tree;
  }
  tree.input = treeFrom(source.items);
  if (options.exact) {
    for (const item of flattenIn(tree.input))
      if (item.kind === "page" && typeof item.page === "number") tree.pages.set(item, item.page);
  } else {
    tree.pages = await resolvedPages(ctx.db, siteId, tree.input, lang, state);
  }
  const facts = await pageFacts(ctx.db, siteId, tree.pages.values());
  for (const [item, id] of tree.pages)
    if (!facts.get(id)!.valid) tree.invalid.push(invalidEntry(item.at, facts.get(id)!));
  if (options.exact) return tree;
  if (tree.invalid.length > 0 && !options.allowInvalid) throw fail("sidebar_items_invalid", { invalid: tree.invalid });
  tree.skip = new Set(tree.invalid.map((entry) => entry.at));
  // A label equal to the page's title is no label of its own: it follows the title.
  for (const [item, id] of tree.pages)
    if (item.kind === "page" && item.label === facts.get(id)?.page?.title) item.label = null;
  return tree;
}

/**
 * Stores prepared trees of a sidebar (made when new), inside the caller's transaction; answers
 * whether the sidebar was new. An item named by an id the sidebar holds keeps it, as does one
 * named by an id in `reuse` (a restore: ids this sidebar issued once); any other item gets the
 * next id, and ids are never issued twice.
 */
export async function storeTrees(
  trx: Db,
  siteId: number,
  name: string,
  trees: readonly PreparedTree[],
  now: string,
  warnings: Warning[],
  reuse: ReadonlySet<number> = new Set(),
): Promise<boolean> {
  const existing = await trx
    .selectFrom("sidebars")
    .select("next_item_id")
    .where("site_id", "=", siteId)
    .where("name", "=", name)
    .executeTakeFirst();
  if (!existing)
    await trx
      .insertInto("sidebars")
      .values({ site_id: siteId, name, next_item_id: 1, created_at_gmt: now, updated_at_gmt: now })
      .execute();
  const known = new Set(
    existing
      ? (await treesOf(trx, siteId, name)).flatMap((row) => flattenStored(storedItems(row)).map((item) => item.id))
      : [],
  );
  for (const id of reuse) known.add(id);
  let next = existing?.next_item_id ?? 1;
  for (const id of reuse) next = Math.max(next, id + 1);
  for (const tree of trees) {
    const store = (list: readonly ItemIn[]): StoredItem[] =>
      list.flatMap((item): StoredItem[] => {
        if (tree.skip.has(item.at)) return [];
        if (item.id !== null && !known.has(item.id))
          warnings.push(
            warning("item_id_ignored", `Item ${item.id} is no item of this sidebar; the item got a new id.`, {
              at: item.at,
              id: item.id,
            }),
          );
        const id = item.id !== null && known.has(item.id) ? item.id : next++;
        known.add(id);
        if (item.kind === "page") return [{ id, kind: "page", page: tree.pages.get(item)!, label: item.label }];
        if (item.kind === "link") return [{ id, kind: "link", url: item.url, label: item.label }];
        return [{ id, kind: "section", label: item.label, open: item.open, items: store(item.items) }];
      });
    const itemsJson = JSON.stringify(store(tree.input));
    const rootId = tree.rootId;
    await trx
      .insertInto("sidebar_trees")
      .values({ site_id: siteId, name, lang: tree.key, root_id: rootId, items_json: itemsJson, updated_at_gmt: now })
      .onConflict((oc) =>
        oc
          .columns(["site_id", "name", "lang"])
          .doUpdateSet({ root_id: rootId, items_json: itemsJson, updated_at_gmt: now }),
      )
      .execute();
  }
  await trx
    .updateTable("sidebars")
    .set({ next_item_id: next, updated_at_gmt: now })
    .where("site_id", "=", siteId)
    .where("name", "=", name)
    .execute();
  return !existing;
}

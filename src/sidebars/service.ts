// Documentation sidebars (issue 20, docs/sidebars.md): GET /sidebars, GET/PUT/DELETE
// /sidebars/{name}. A sidebar is named; each language may have a tree of its own (a tree written
// without `lang` is the default language's); a tree is written by hand (`items`) or generated from
// the pages under a root page (`root`). Item ids are unique in the sidebar and never reused: a
// PUT naming an item by `id` keeps it. Writes announce a `sidebar` change to the publish step.
import { gmt } from "../clock.ts";
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import type { Rebaked, ServiceContext } from "../publish/contract.ts";
import { candidateOf } from "../pages/refs.ts";
import { invalidEntry, pageFacts, resolveOne, resolvePageRef, type InvalidItem } from "../menus/resolve.ts";
import { siteAddressing, type SiteAddressing } from "../site/addresses.ts";
import { checkLangIn, languageState } from "../site/languages.ts";
import type { SiteRow } from "../site/sites.ts";
import type { Db } from "../store/database.ts";
import { flattenIn, sidebarNameFrom, treeFrom, type ItemIn } from "./input.ts";
import { answeredItems, countItems, flattenStored, storedItems, treeKey, type SidebarItem, type StoredItem, type TreeRow } from "./tree.ts";

export interface SidebarAnswer {
  name: string;
  /** The root page of a generated tree, null for one written by hand. */
  root: number | null;
  lang: string | null;
  items: SidebarItem[];
}

async function treesOf(db: Db, siteId: number, name: string): Promise<TreeRow[]> {
  return db.selectFrom("sidebar_trees").selectAll().where("site_id", "=", siteId).where("name", "=", name).orderBy("lang").execute();
}

/** The language codes with a tree of their own ('' stands for the default language), in the site's order. */
function languagesOf(rows: readonly TreeRow[], addressing: SiteAddressing): string[] {
  const codes = new Set(rows.map((row) => (row.lang === "" ? addressing.langs.defaultLang : row.lang)).filter((code): code is string => code !== null));
  return [...addressing.langs.codes.filter((code) => codes.has(code)), ...[...codes].filter((code) => !addressing.langs.codes.includes(code))];
}

/** The tree a language reads: its own, else the default language's. */
function treeFor(rows: readonly TreeRow[], key: string): TreeRow | undefined {
  return rows.find((row) => row.lang === key) ?? rows.find((row) => row.lang === "");
}

export async function listSidebars(ctx: Pick<ServiceContext, "db" | "publicPort">, site: SiteRow) {
  const addressing = await siteAddressing(ctx.db, site, ctx.publicPort);
  const rows = await ctx.db.selectFrom("sidebar_trees").selectAll().where("site_id", "=", site.id).orderBy("name").orderBy("lang").execute();
  const names = (await ctx.db.selectFrom("sidebars").select("name").where("site_id", "=", site.id).orderBy("name").execute()).map((row) => row.name);
  const out = [];
  for (const name of names) {
    const trees = rows.filter((row) => row.name === name);
    const base = trees.find((row) => row.lang === "");
    const items = base ? await answeredItems(ctx.db, site.id, addressing, base, addressing.langs.defaultLang) : [];
    out.push({ name, root: base?.root_id ?? null, languages: languagesOf(trees, addressing), items: countItems(items) });
  }
  return out;
}

export async function readSidebar(ctx: Pick<ServiceContext, "db" | "publicPort">, site: SiteRow, rawName: string, query: { lang?: unknown }): Promise<SidebarAnswer> {
  const name = sidebarNameFrom(rawName);
  const state = await languageState(ctx.db, site.id);
  const lang = checkLangIn(state, query.lang) ?? state.defaultLang;
  const addressing = await siteAddressing(ctx.db, site, ctx.publicPort);
  const tree = treeFor(await treesOf(ctx.db, site.id, name), treeKey(addressing, lang));
  if (!tree) throw fail("sidebar_not_found", { name });
  return { name, root: tree.root_id, lang, items: await answeredItems(ctx.db, site.id, addressing, tree, lang) };
}

/** Page references resolved to ids (in the tree's language first): 409 sidebar_items_unresolved with `errors`. */
async function resolvedPages(db: Db, site: SiteRow, items: readonly ItemIn[], lang: string | null): Promise<Map<ItemIn, number>> {
  const state = await languageState(db, site.id);
  const out = new Map<ItemIn, number>();
  const errors: Array<Record<string, unknown>> = [];
  for (const item of flattenIn(items)) {
    if (item.kind !== "page") continue;
    const found = await resolvePageRef(db, site.id, item.page, lang, state);
    if ("found" in found) out.set(item, found.found.id);
    else if ("candidates" in found) errors.push({ at: item.at, page: item.page, error: "ambiguous_page", message: "Several pages match; use the id or the full path.", candidates: found.candidates.map(candidateOf) });
    else errors.push({ at: item.at, page: item.page, error: "page_not_found", message: "No page has this id, slug or path." });
  }
  if (errors.length > 0) throw fail("sidebar_items_unresolved", { errors: errors.slice(0, 50), total_errors: errors.length });
  return out;
}

export interface SidebarWriteAnswer {
  sidebar: SidebarAnswer;
  created: boolean;
  invalid: InvalidItem[];
  rebaked: Rebaked;
  warnings: Warning[];
}

/**
 * PUT /sidebars/{name} `{items, lang?}` or `{root, lang?}`: replaces that language's tree (the
 * default language's without `lang`). Items of unpublished pages refuse the write (409
 * sidebar_items_invalid) unless `allowInvalid`, which leaves them out and lists them.
 */
export async function putSidebar(ctx: ServiceContext, site: SiteRow, rawName: string, body: Record<string, unknown>, options: { allowInvalid: boolean }): Promise<SidebarWriteAnswer> {
  const name = sidebarNameFrom(rawName);
  const warnings: Warning[] = [];
  for (const key of Object.keys(body)) {
    if (!["items", "root", "lang"].includes(key)) warnings.push(warning("unknown_field", `Field "${key}" is not known here and was ignored.`, { field: key }));
  }
  const hasItems = body.items !== undefined && body.items !== null;
  const hasRoot = body.root !== undefined && body.root !== null;
  if (hasItems === hasRoot) throw fail("sidebar_tree_required", { fields: ["items", "root"] });
  const state = await languageState(ctx.db, site.id);
  const lang = checkLangIn(state, body.lang) ?? state.defaultLang;
  const addressing = await siteAddressing(ctx.db, site, ctx.publicPort);
  const key = treeKey(addressing, lang);

  let rootId: number | null = null;
  let input: ItemIn[] = [];
  let pages = new Map<ItemIn, number>();
  const invalid: InvalidItem[] = [];
  if (hasRoot) {
    if (typeof body.root !== "number" && typeof body.root !== "string") throw fail("invalid_field", { field: "root", expected: "a page id, slug or path" }, "root must be a page id, a slug or a path.");
    rootId = await resolveOne(ctx.db, site.id, body.root, lang, state);
  } else {
    input = treeFrom(body.items);
    pages = await resolvedPages(ctx.db, site, input, lang);
    const facts = await pageFacts(ctx.db, site.id, pages.values());
    for (const [item, id] of pages) if (!facts.get(id)!.valid) invalid.push(invalidEntry(item.at, facts.get(id)!));
    if (invalid.length > 0 && !options.allowInvalid) throw fail("sidebar_items_invalid", { invalid });
    // A label equal to the page's title is no label of its own: it follows the title.
    for (const [item, id] of pages) if (item.kind === "page" && item.label === facts.get(id)?.page?.title) item.label = null;
  }

  const now = gmt(ctx.clock());
  const created = await ctx.db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom("sidebars").select("next_item_id").where("site_id", "=", site.id).where("name", "=", name).executeTakeFirst();
    if (!existing) await trx.insertInto("sidebars").values({ site_id: site.id, name, next_item_id: 1, created_at_gmt: now, updated_at_gmt: now }).execute();
    const known = new Set(existing ? (await treesOf(trx, site.id, name)).flatMap((row) => flattenStored(storedItems(row)).map((item) => item.id)) : []);
    let next = existing?.next_item_id ?? 1;
    const skip = new Set(invalid.map((entry) => entry.at));
    const store = (list: readonly ItemIn[]): StoredItem[] =>
      list.flatMap((item): StoredItem[] => {
        if (skip.has(item.at)) return [];
        if (item.id !== null && !known.has(item.id)) warnings.push(warning("item_id_ignored", `Item ${item.id} is no item of this sidebar; the item got a new id.`, { at: item.at, id: item.id }));
        const id = item.id !== null && known.has(item.id) ? item.id : next++;
        known.add(id);
        if (item.kind === "page") return [{ id, kind: "page", page: pages.get(item)!, label: item.label }];
        if (item.kind === "link") return [{ id, kind: "link", url: item.url, label: item.label }];
        return [{ id, kind: "section", label: item.label, open: item.open, items: store(item.items) }];
      });
    const itemsJson = JSON.stringify(store(input));
    await trx.updateTable("sidebars").set({ next_item_id: next, updated_at_gmt: now }).where("site_id", "=", site.id).where("name", "=", name).execute();
    await trx.insertInto("sidebar_trees").values({ site_id: site.id, name, lang: key, root_id: rootId, items_json: itemsJson, updated_at_gmt: now })
      .onConflict((oc) => oc.columns(["site_id", "name", "lang"]).doUpdateSet({ root_id: rootId, items_json: itemsJson, updated_at_gmt: now }))
      .execute();
    return !existing;
  });
  const rebaked = await ctx.publisher.changed(site.id, [{ kind: "sidebar", name }]);
  return { sidebar: await readSidebar(ctx, site, name, { lang: lang ?? undefined }), created, invalid, rebaked, warnings };
}

/** DELETE /sidebars/{name}: every language's tree; frames printing it print nothing for it. */
export async function deleteSidebar(ctx: ServiceContext, site: SiteRow, rawName: string): Promise<{ deleted: { name: string }; rebaked: Rebaked }> {
  const name = sidebarNameFrom(rawName);
  const gone = await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom("sidebar_trees").where("site_id", "=", site.id).where("name", "=", name).execute();
    return trx.deleteFrom("sidebars").where("site_id", "=", site.id).where("name", "=", name).executeTakeFirst();
  });
  if (Number(gone.numDeletedRows) === 0) throw fail("sidebar_not_found", { name });
  return { deleted: { name }, rebaked: await ctx.publisher.changed(site.id, [{ kind: "sidebar", name }]) };
}

// Documentation sidebars (docs/sidebars.md): GET /sidebars, GET/PUT/DELETE
// /sidebars/{name}. A sidebar is named; each language may have a tree of its own (a tree written
// without `lang` is the default language's); a tree is written by hand (`items`) or generated from
// the pages under a root page (`root`). Item ids are unique in the sidebar and never reused: a
// PUT naming an item by `id` keeps it. Writes run through the write pipeline and announce a
// `sidebar` change.
import { gmt } from "../clock.ts";
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import type { Rebaked } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { runWrite } from "../write/pipeline.ts";
import type { InvalidItem } from "../menus/resolve.ts";
import { leaveTrash, toTrash } from "../revisions/trash.ts";
import type { SiteAddressing } from "../site/addresses.ts";
import { linkAddressing } from "../pages/home.ts";
import { checkLangIn, languageState } from "../site/languages.ts";
import type { SiteRow } from "../site/sites.ts";
import { sidebarNameFrom } from "./input.ts";
import { reviseSidebars } from "./revision.ts";
import { answeredItems, countItems, treeKey, type SidebarItem, type TreeRow } from "./tree.ts";
import { prepareTree, storeTrees, treesOf } from "./write.ts";

export interface SidebarAnswer {
  name: string;
  /** The root page of a generated tree, null for one written by hand. */
  root: number | null;
  lang: string | null;
  items: SidebarItem[];
}

/** The language codes with a tree of their own ('' stands for the default language), in the site's order. */
function languagesOf(rows: readonly TreeRow[], addressing: SiteAddressing): string[] {
  const codes = new Set(
    rows
      .map((row) => (row.lang === "" ? addressing.langs.defaultLang : row.lang))
      .filter((code): code is string => code !== null),
  );
  return [
    ...addressing.langs.codes.filter((code) => codes.has(code)),
    ...[...codes].filter((code) => !addressing.langs.codes.includes(code)),
  ];
}

/** The tree a language reads: its own, else the default language's. */
function treeFor(rows: readonly TreeRow[], key: string): TreeRow | undefined {
  return rows.find((row) => row.lang === key) ?? rows.find((row) => row.lang === "");
}

export async function listSidebars(ctx: Pick<ServiceContext, "db" | "publicFront">, site: SiteRow) {
  const addressing = await linkAddressing(ctx.db, site, ctx.publicFront);
  const rows = await ctx.db
    .selectFrom("sidebar_trees")
    .selectAll()
    .where("site_id", "=", site.id)
    .orderBy("name")
    .orderBy("lang")
    .execute();
  const names = (
    await ctx.db.selectFrom("sidebars").select("name").where("site_id", "=", site.id).orderBy("name").execute()
  ).map((row) => row.name);
  const out = [];
  for (const name of names) {
    const trees = rows.filter((row) => row.name === name);
    const base = trees.find((row) => row.lang === "");
    const items = base ? await answeredItems(ctx.db, site.id, addressing, base, addressing.langs.defaultLang) : [];
    out.push({
      name,
      root: base?.root_id ?? null,
      languages: languagesOf(trees, addressing),
      items: countItems(items),
    });
  }
  return out;
}

export async function readSidebar(
  ctx: Pick<ServiceContext, "db" | "publicFront">,
  site: SiteRow,
  rawName: string,
  query: { lang?: unknown },
): Promise<SidebarAnswer> {
  const name = sidebarNameFrom(rawName);
  const state = await languageState(ctx.db, site.id);
  const lang = checkLangIn(state, query.lang) ?? state.defaultLang;
  const addressing = await linkAddressing(ctx.db, site, ctx.publicFront);
  const tree = treeFor(await treesOf(ctx.db, site.id, name), treeKey(addressing, lang));
  if (!tree) throw fail("sidebar_not_found", { name });
  return { name, root: tree.root_id, lang, items: await answeredItems(ctx.db, site.id, addressing, tree, lang) };
}

export interface SidebarWriteAnswer {
  sidebar: SidebarAnswer;
  created: boolean;
  invalid: InvalidItem[];
  rebaked: Rebaked;
  warnings: Warning[];
}

/** The body of PUT /sidebars/{name} as its route schema lets it through (`items` read by treeFrom). */
export type PutSidebarBody = { items?: unknown; root?: number | string | null; lang?: string | null };

/**
 * PUT /sidebars/{name} `{items, lang?}` or `{root, lang?}`: replaces that language's tree (the
 * default language's without `lang`). Items of unpublished pages refuse the write (409
 * sidebar_items_invalid) unless `allowInvalid`, which leaves them out and lists them.
 */
export async function putSidebar(
  ctx: ServiceContext,
  site: SiteRow,
  rawName: string,
  body: PutSidebarBody,
  options: { allowInvalid: boolean },
): Promise<SidebarWriteAnswer> {
  const name = sidebarNameFrom(rawName);
  const warnings: Warning[] = [];
  for (const key of Object.keys(body)) {
    if (!["items", "root", "lang"].includes(key))
      warnings.push(warning("unknown_field", `Field "${key}" is not known here and was ignored.`, { field: key }));
  }
  const hasItems = body.items !== undefined && body.items !== null;
  const hasRoot = body.root !== undefined && body.root !== null;
  if (hasItems === hasRoot) throw fail("sidebar_tree_required", { fields: ["items", "root"] });
  const state = await languageState(ctx.db, site.id);
  const lang = checkLangIn(state, body.lang) ?? state.defaultLang;
  const addressing = await linkAddressing(ctx.db, site, ctx.publicFront);
  const key = treeKey(addressing, lang);

  const tree = await prepareTree(ctx, site.id, body, key, lang, state, options);
  const now = gmt(ctx.clock());
  const { value, rebaked } = await runWrite(ctx, {
    siteId: site.id,
    apply: async (trx) => {
      const stored: Warning[] = [];
      const made = await storeTrees(trx, site.id, name, [tree], now, stored);
      // A sidebar made again under the name of a deleted one continues its history.
      if (made) await leaveTrash(trx, site.id, "sidebars", name);
      return {
        value: { made, stored },
        wrote: [{ kind: "sidebar", id: name, action: made ? "created" : "updated" }],
        changes: [{ kind: "sidebar", name }],
      };
    },
  });
  warnings.push(...value.stored);
  return {
    sidebar: await readSidebar(ctx, site, name, { lang: lang ?? undefined }),
    created: value.made,
    invalid: tree.invalid,
    rebaked,
    warnings,
  };
}

/**
 * DELETE /sidebars/{name}: every language's tree; frames printing it print nothing for it. Its
 * last state is kept as a revision and it goes to the trash. With `dryRun` the same answer and
 * nothing written or rebaked.
 */
export async function deleteSidebar(
  ctx: ServiceContext,
  site: SiteRow,
  rawName: string,
  dryRun = false,
): Promise<{ deleted: { name: string }; rebaked: Rebaked; dry_run?: true; applied?: false }> {
  const name = sidebarNameFrom(rawName);
  const { rebaked } = await runWrite(ctx, {
    siteId: site.id,
    dryRun,
    apply: async (trx) => {
      const now = gmt(ctx.clock());
      // Its last state kept (a sidebar older than revisions gets its first here), then the trash entry.
      await reviseSidebars(trx, site.id, [name], now);
      await trx.deleteFrom("sidebar_trees").where("site_id", "=", site.id).where("name", "=", name).execute();
      const gone = await trx
        .deleteFrom("sidebars")
        .where("site_id", "=", site.id)
        .where("name", "=", name)
        .executeTakeFirst();
      if (Number(gone.numDeletedRows) === 0) throw fail("sidebar_not_found", { name });
      await toTrash(trx, site.id, "sidebars", name, name, now);
      return {
        value: null,
        wrote: [{ kind: "sidebar", id: name, action: "deleted" }],
        changes: [{ kind: "sidebar", name }],
      };
    },
  });
  if (dryRun) return { deleted: { name }, rebaked, dry_run: true, applied: false };
  return { deleted: { name }, rebaked };
}

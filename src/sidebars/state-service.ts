// Writing a whole sidebar as a revision kept it (docs/revisions.md): every language's
// tree at once, in one transaction, through the trees PUT /sidebars/{name} stores (write.ts), so
// a restore is checked, revised and published as any sidebar write. Item ids come back with their
// items; items of pages not public now are written as they were (valid false), with a warning;
// languages the revision has no tree for lose theirs.
import { gmt } from "../clock.ts";
import { fail } from "../errors.ts";
import { warning, type Warning } from "../warnings.ts";
import type { ServiceContext } from "../write/context.ts";
import { runWrite } from "../write/pipeline.ts";
import { linkAddressing } from "../pages/home.ts";
import { languageState } from "../site/languages.ts";
import type { SiteRow } from "../site/sites.ts";
import type { Db } from "../store/database.ts";
import { idsOf, inputOf, type SidebarState } from "./revision.ts";
import { readSidebar } from "./service.ts";
import { prepareTree, storeTrees, type PreparedTree } from "./write.ts";

export interface StateWrite {
  /** true: the sidebar is made again (deleted before); its name taken is 409 slug_taken. */
  create: boolean;
  /** Runs in the write's transaction (the trash entry leaves there). */
  within?: (trx: Db) => Promise<void>;
}

function nameTaken(name: string) {
  return fail(
    "slug_taken",
    { field: "name", id: name, name },
    `A sidebar "${name}" was made again meanwhile; delete or rename it, then restore.`,
  );
}

async function exists(db: Db, siteId: number, name: string): Promise<boolean> {
  return (
    (await db
      .selectFrom("sidebars")
      .select("name")
      .where("site_id", "=", siteId)
      .where("name", "=", name)
      .executeTakeFirst()) !== undefined
  );
}

/** Writes a sidebar's state (every language's tree) as its next write; answers as a PUT does, with `trees`. */
export async function writeSidebarState(ctx: ServiceContext, site: SiteRow, state: SidebarState, options: StateWrite) {
  const { name } = state;
  const there = await exists(ctx.db, site.id, name);
  if (options.create && there) throw nameTaken(name);
  if (!options.create && !there) throw fail("sidebar_not_found", { name });
  const languages = await languageState(ctx.db, site.id);
  const addressing = await linkAddressing(ctx.db, site, ctx.publicFront);
  const sources: Array<{ key: string; lang: string | null; root: number | null; items: unknown[] }> = [];
  if (state.root !== null || state.items !== null)
    sources.push({ key: "", lang: addressing.langs.defaultLang, root: state.root, items: inputOf(state.items ?? []) });
  for (const [lang, tree] of Object.entries(state.trees).sort(([a], [b]) => a.localeCompare(b)))
    sources.push({ key: lang, lang, root: tree.root, items: inputOf(tree.items) });

  const trees: PreparedTree[] = [];
  for (const source of sources) {
    const body = source.root !== null ? { root: source.root } : { items: source.items };
    trees.push(
      await prepareTree(ctx, site.id, body, source.key, source.lang, languages, { allowInvalid: true, exact: true }),
    );
  }
  const warnings: Warning[] = [];
  const invalid = trees.flatMap((tree) =>
    tree.invalid.map((entry) => ({ ...entry, lang: tree.key === "" ? null : tree.key })),
  );
  if (invalid.length > 0)
    warnings.push(
      warning(
        "invalid_items_kept",
        `${invalid.length} item(s) point to pages that are not public now; they were written as they were and answer valid: false.`,
        { invalid },
      ),
    );

  const now = gmt(ctx.clock());
  const { value: stored, rebaked } = await runWrite(ctx, {
    siteId: site.id,
    taken: options.create ? async () => nameTaken(name) : undefined,
    apply: async (trx) => {
      if (options.create && (await exists(trx, site.id, name))) throw nameTaken(name);
      const stored: Warning[] = [];
      await storeTrees(trx, site.id, name, trees, now, stored, idsOf(state));
      const keys = trees.map((tree) => tree.key);
      let gone = trx.deleteFrom("sidebar_trees").where("site_id", "=", site.id).where("name", "=", name);
      if (keys.length > 0) gone = gone.where("lang", "not in", keys);
      await gone.execute();
      await options.within?.(trx);
      return {
        value: stored,
        // Made again from the trash it is restored; a revision's state written back is an update (docs/events.md).
        wrote: [{ kind: "sidebar", id: name, action: options.create ? "restored" : "updated" }],
        changes: [{ kind: "sidebar", name }],
      };
    },
  });
  warnings.push(...stored);
  const sidebar = state.items !== null || state.root !== null ? await readSidebar(ctx, site, name, {}) : null;
  // The sidebar as the default language reads it (null when only other languages have a tree).
  return { body: { site_id: site.id, sidebar, rebaked, warnings } };
}

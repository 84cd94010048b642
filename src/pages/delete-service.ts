// DELETE /pages/{ref} (docs/content-model.md, docs/revisions.md): to the trash (status `trash`:
// the page keeps its slug and stays readable by id), or with ?force=true deleted for good, its
// children moving up to its parent (a taken slug there gets -2). A page deleted for good keeps
// its history and goes to the site's trash (GET /trash) with where its children went, so that
// POST /trash/pages/{id}/restore brings it back with them (undelete.ts). Both answer the menu
// items left pointing nowhere; `?dry_run=1` answers the same and writes nothing.
import { gmt } from "../clock.ts";
import { warning, type Warning } from "../warnings.ts";
import type { SiteRow } from "../site/sites.ts";
import type { Rebaked, Written } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { nothingRebaked } from "../write/change.ts";
import { checkLangIn, languageState } from "../site/languages.ts";
import { siteAddressing } from "../site/addresses.ts";
import { PAGE_TEXTS, pageBytes } from "../quotas/bytes.ts";
import { toTrash } from "../revisions/trash.ts";
import { childPath } from "./paths.ts";
import { pageChangesBetween } from "../effects/page-changes.ts";
import { menuItemsPointingAt, type OrphanedItem } from "./menu-orphans.ts";
import { recordAddressChanges } from "./moves.ts";
import { offlineBetween } from "./offline.ts";
import { movePaths, parentPathOf } from "./placement.ts";
import { findPages, slugsUnder } from "./queries.ts";
import { WriteRegion } from "./region.ts";
import { pageRecords, type PageRecord } from "./record.ts";
import { findPageByRef } from "./refs.ts";
import { revisePages } from "./revision.ts";
import { trashVerb, writeAndAnnounce, type WriteOptions } from "./page-write.ts";
import { firstFreeSlug } from "./slug.ts";
import { runPageWrite } from "./write-race.ts";

export interface DeleteAnswer {
  page: PageRecord;
  deleted: boolean;
  trashed: boolean;
  /** The pages deleted for good (force), none for a move to the trash. */
  removed: number[];
  reparented?: number[];
  menu_items_orphaned: OrphanedItem[];
  rebaked: Rebaked;
  warnings: Warning[];
  dry_run?: boolean;
  applied?: boolean;
}

/** A child a delete moved up: its slug before and the one it got under the new parent. */
export interface MovedChild {
  id: number;
  slug: string;
  moved_slug: string;
}

export async function deletePage(
  ctx: ServiceContext,
  site: SiteRow,
  ref: string,
  options: { force: boolean; lang?: unknown } & WriteOptions,
): Promise<DeleteAnswer> {
  const state = await languageState(ctx.db, site.id);
  const refLang = checkLangIn(state, options.lang);
  const page = await findPageByRef(ctx.db, site.id, ref, { ...(refLang !== null ? { lang: refLang } : {}) });
  const [before] = await pageRecords(ctx.db, site, ctx.publicFront, [page]);
  const warnings: Warning[] = [];
  const now = gmt(ctx.clock());
  const dry = options.dryRun ? { dry_run: true, applied: false } : {};

  if (!options.force) {
    if (page.status === "trash") {
      warnings.push(
        warning("already_trashed", "The page was already in the trash; DELETE with ?force=true deletes it for good.", {
          id: page.id,
        }),
      );
      return {
        page: before,
        deleted: false,
        trashed: true,
        removed: [],
        menu_items_orphaned: [],
        rebaked: nothingRebaked(),
        warnings,
      };
    }
    const orphaned = await menuItemsPointingAt(ctx.db, site.id, page);
    // A status change like any write: revised (status "trash") in writeAndAnnounce.
    const answer = await writeAndAnnounce(
      ctx,
      site,
      warnings,
      async (trx, _now, region) => {
        await region.enter(page);
        const row = await trx
          .updateTable("pages")
          .set({ status: "trash", updated_at_gmt: now })
          .where("site_id", "=", site.id)
          .where("id", "=", page.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        return { written: { row, created: false, verb: trashVerb(page.status, row.status) } };
      },
      options,
    );
    if (options.dryRun)
      return {
        page: before,
        deleted: false,
        trashed: false,
        removed: [],
        menu_items_orphaned: orphaned,
        ...dry,
        rebaked: answer.rebaked,
        warnings: answer.warnings,
      };
    return {
      page: answer.page,
      deleted: false,
      trashed: true,
      removed: [],
      menu_items_orphaned: orphaned,
      rebaked: answer.rebaked,
      warnings: answer.warnings.filter((w) => w.code !== "parent_unpublished"),
    };
  }

  const addressing = await siteAddressing(ctx.db, site, ctx.publicFront);
  const done = await runPageWrite(ctx, {
    siteId: site.id,
    dryRun: options.dryRun === true,
    apply: async (trx) => {
      // The region the delete changes (the page, its descendants, their partners, with ancestors),
      // read before and after: not every page of the site (pages/region.ts).
      const region = new WriteRegion(trx, site.id);
      await region.enter(page);
      const orphaned = await menuItemsPointingAt(trx, site.id, page);
      // Its state kept (a page older than revisions gets its first here) before the row goes.
      await revisePages(trx, site.id, [page.id], now);
      const parentPath = parentPathOf(page);
      const children = await findPages(trx, site.id, { parentId: page.id });
      const gone = await trx
        .deleteFrom("pages")
        .where("site_id", "=", site.id)
        .where("id", "=", page.id)
        .returning(PAGE_TEXTS)
        .executeTakeFirst();
      const moved: MovedChild[] = [];
      const slugWarnings: Warning[] = [];
      for (const child of children) {
        const slug = firstFreeSlug(child.slug, await slugsUnder(trx, site.id, page.parent_id, child.lang, child.id));
        const path = childPath(parentPath, slug);
        await trx
          .updateTable("pages")
          .set({ parent_id: page.parent_id, slug, path, updated_at_gmt: now })
          .where("site_id", "=", site.id)
          .where("id", "=", child.id)
          .execute();
        if (path !== child.path) await movePaths(trx, site.id, child.id, child.path, path);
        if (slug !== child.slug)
          slugWarnings.push(
            warning("slug_changed", `Child page ${child.id} moved up and got the slug "${slug}".`, {
              id: child.id,
              from: child.slug,
              to: slug,
            }),
          );
        moved.push({ id: child.id, slug: child.slug, moved_slug: slug });
      }
      await toTrash(trx, site.id, "pages", String(page.id), page.slug, now, {
        parent: page.parent_id,
        children: moved,
      });
      const {
        before: beforeTree,
        after: afterTree,
        subjects,
      } = await region.trees(
        moved.map((child) => child.id),
        [],
      );
      const redirects = await recordAddressChanges(
        trx,
        site.id,
        now,
        { before: beforeTree, after: afterTree, within: subjects },
        addressing,
      );
      // The children moved up (new parent, maybe a new slug): one revision each.
      const wrote: Written[] = [
        { kind: "page", id: String(page.id), action: "deleted" },
        ...moved.map((child): Written => ({ kind: "page", id: String(child.id), action: "updated" })),
        ...redirects.wrote,
      ];
      return {
        value: {
          offline: offlineBetween(addressing, beforeTree, afterTree, "the page was deleted", subjects),
          moved,
          orphaned,
          slugWarnings,
        },
        wrote,
        changes: [...pageChangesBetween(beforeTree, afterTree, [page.id], subjects), ...redirects.changes],
        // Frees its place and bytes.
        room: gone ? { pages: -1, stored_bytes: -pageBytes(gone) } : undefined,
      };
    },
  });
  const { value } = done;
  warnings.push(...value.slugWarnings, ...value.offline);
  const reparented = value.moved.map((child) => child.id);
  const answer = {
    page: before,
    removed: [page.id],
    ...(reparented.length > 0 ? { reparented } : {}),
    menu_items_orphaned: value.orphaned,
    trashed: false,
  };
  if (options.dryRun) return { ...answer, deleted: false, ...dry, rebaked: nothingRebaked(), warnings };
  return { ...answer, deleted: true, rebaked: done.rebaked, warnings };
}

// Everything about a site that one publish operation reads more than once, loaded once:
// the site, its settings and languages (site/), the part of its page tree the step needs and its
// frames' dependency index (read through the pages' and frames' own modules).
import type { PublicFront } from "../config.ts";
import type { Db } from "../store/database.ts";
import { siteAddressing, type SiteAddressing } from "../site/addresses.ts";
import { homePageOf, settingsOf, type SettingsRow } from "../site/settings.ts";
import { siteById, type SiteRow } from "../site/sites.ts";
import type { PageScope, PageTreeView } from "../effects/page-tree.ts";
import { siteIndex } from "../frames/graph.ts";
import { homePaths } from "../pages/home.ts";
import { pageTreeOf } from "../pages/tree.ts";
import type { DependencyIndex } from "../effects/dependency-index.ts";

export interface SiteState {
  site: SiteRow;
  front: PublicFront;
  addressing: SiteAddressing;
  settings: SettingsRow;
  tree: PageTreeView;
  index: DependencyIndex;
}

/**
 * The site's state for a publish step. `pages` says which pages it reads (the pages a render or
 * a run needs, with their ancestors): a function of the frames' index, or every page.
 */
export async function loadSiteState(
  db: Db,
  siteId: number,
  front: PublicFront,
  pages: "all" | ((index: DependencyIndex) => PageScope),
): Promise<SiteState | null> {
  const site = await siteById(db, siteId);
  if (!site) return null;
  const [plain, settings, index] = await Promise.all([
    siteAddressing(db, site, front),
    settingsOf(db, siteId),
    siteIndex(db, siteId),
  ]);
  // Links to the home page and its translations print `/` and `/<lang>/` (pages/home.ts).
  const [tree, homes] = await Promise.all([
    pageTreeOf(db, siteId, pages === "all" ? undefined : pages(index)),
    homePaths(db, siteId, homePageOf(settings), plain.langs),
  ]);
  const addressing = { ...plain, homes };
  return { site, front, addressing, settings, tree, index };
}

/** The language a page is shown in: its own, else the site's default (null while there is none). */
export function langOf(state: SiteState, pageLang: string | null | undefined): string | null {
  return pageLang ? pageLang : state.addressing.langs.defaultLang;
}

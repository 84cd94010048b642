// Everything about a site that one publish operation reads more than once, loaded once:
// the site, its settings and languages, its page tree and its frames' dependency index.
import type { SiteRow } from "../site/sites.ts";
import { siteById } from "../site/sites.ts";
import { siteAddressing, type SiteAddressing } from "../site/addresses.ts";
import { liteRowsOf } from "../pages/queries.ts";
import { PageTree } from "../pages/tree.ts";
import { settingsOf, type SettingsRow } from "../site/settings.ts";
import { langPathPrefix } from "../site/languages.ts";
import type { Db } from "../store/database.ts";
import { siteIndex } from "../frames/graph.ts";
import type { DependencyIndex } from "./dependency-index.ts";

export interface SiteState {
  site: SiteRow;
  port: number;
  addressing: SiteAddressing;
  settings: SettingsRow;
  tree: PageTree;
  index: DependencyIndex;
}

export async function loadSiteState(db: Db, siteId: number, port: number): Promise<SiteState | null> {
  const site = await siteById(db, siteId);
  if (!site) return null;
  const [addressing, settings, lite, index] = await Promise.all([siteAddressing(db, site, port), settingsOf(db, siteId), liteRowsOf(db, siteId), siteIndex(db, siteId)]);
  return { site, port, addressing, settings, tree: new PageTree(lite), index };
}

/** The language a page is shown in: its own, else the site's default (null while there is none). */
export function langOf(state: SiteState, pageLang: string | null | undefined): string | null {
  return pageLang ? pageLang : state.addressing.langs.defaultLang;
}

/** The public path of a page: language prefix, its path, trailing slash. */
export function addressOf(state: SiteState, lang: string | null, path: string): string {
  return `${langPathPrefix(state.addressing.langs, lang)}${path}/`;
}

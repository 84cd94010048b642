// The few facts read of a site to derive what a write's changes bring with them (effects.ts
// `withDerived`), each read only when a change asks for it, so a write costs what it changes.
import type { Db } from "../store/database.ts";
import { settingsOf } from "../site/settings.ts";
import type { Change } from "../write/change.ts";
import { menusShowingPage } from "../menus/queries.ts";
import { seoUsesMedia } from "../seo/site-seo.ts";
import { sidebarsShowing } from "../sidebars/tree.ts";
import { stylesUsingMedia } from "../styles/queries.ts";
import {
  homeChangeOf,
  mediaRefsOf,
  ownPageChanges,
  pagesAndParentsOf,
  type EffectFacts,
  type HomeFacts,
} from "../effects/effects.ts";
import { pagesReferring } from "../pages/content.ts";
import { homeFamily } from "../pages/home.ts";
import { ownAddresses } from "../pages/moves.ts";

/** The families of the home pages a `home_page` change moved between, and their own addresses (none without one). */
export async function readHomeFacts(db: Db, siteId: number, changes: readonly Change[]): Promise<HomeFacts> {
  const homes = homeChangeOf(changes);
  if (!homes) return { pages: [], addresses: [] };
  const families = [
    ...(await homeFamily(db, siteId, homes.before)),
    ...(homes.after === null ? [] : await homeFamily(db, siteId, homes.after)),
  ];
  return { pages: families.map((row) => row.id), addresses: await ownAddresses(db, siteId, families) };
}

export async function readEffectFacts(
  db: Db,
  siteId: number,
  changes: readonly Change[],
  bake: boolean,
): Promise<EffectFacts> {
  const refs = mediaRefsOf(changes);
  // The theme matters to style changes and to the stylesheets pointing to a media file.
  const theme =
    refs.length > 0 || changes.some((change) => change.kind === "style") ? (await settingsOf(db, siteId)).theme : "";
  const seoUses = refs.length > 0 && (await seoUsesMedia(db, siteId, refs));
  const stylesUsing = refs.length > 0 ? await stylesUsingMedia(db, siteId, theme, refs) : [];
  const menusShowing = new Map<number, Array<{ menuId: number; locations: string[] }>>();
  const pages = bake ? pagesAndParentsOf(changes) : [];
  if (bake) {
    for (const change of changes) {
      if (change.kind === "page" && !menusShowing.has(change.pageId))
        menusShowing.set(change.pageId, await menusShowingPage(db, siteId, change.pageId));
    }
  }
  const sidebars = pages.length > 0 ? await sidebarsShowing(db, siteId, pages) : [];
  const referring = await pagesReferring(db, siteId, ownPageChanges(changes), refs);
  return {
    theme,
    menusShowing,
    sidebarsShowing: sidebars,
    stylesUsingMedia: stylesUsing,
    seoUsesMedia: seoUses,
    pagesReferring: referring,
  };
}

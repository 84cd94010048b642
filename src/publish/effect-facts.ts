// The few facts read of a site to derive what a write's changes bring with them (effects.ts
// `withDerived`), each read only when a change asks for it, so a write costs what it changes.
import type { Db } from "../store/database.ts";
import { settingsOf } from "../site/settings.ts";
import type { Change } from "../write/change.ts";
import type { PublishSources } from "./contract.ts";
import { mediaRefsOf, pagesAndParentsOf, type EffectFacts } from "./effects.ts";

export async function readEffectFacts(db: Db, sources: PublishSources, siteId: number, changes: readonly Change[], bake: boolean): Promise<EffectFacts> {
  const refs = mediaRefsOf(changes);
  // The theme matters to style changes and to the stylesheets pointing to a media file.
  const theme = refs.length > 0 || changes.some((change) => change.kind === "style") ? (await settingsOf(db, siteId)).theme : "";
  const seoUsesMedia = refs.length > 0 && (await sources.seo.usesMedia(db, siteId, refs));
  const stylesUsingMedia = refs.length > 0 ? await sources.styles.usingMedia(db, siteId, theme, refs) : [];
  const menusShowing = new Map<number, Array<{ menuId: number; locations: string[] }>>();
  const pages = bake ? pagesAndParentsOf(changes) : [];
  if (bake) {
    for (const change of changes) {
      if (change.kind === "page" && !menusShowing.has(change.pageId)) menusShowing.set(change.pageId, await sources.menus.showingPage(db, siteId, change.pageId));
    }
  }
  const sidebarsShowing = pages.length > 0 ? await sources.sidebars.showing(db, siteId, pages) : [];
  return { theme, menusShowing, sidebarsShowing, stylesUsingMedia, seoUsesMedia };
}

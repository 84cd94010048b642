// The home page as links see it. The page the `home_page` setting names answers at `/`, and each
// of its translations at `/<lang>/`; their own paths answer 301 there (pages/at-address.ts). So
// that a menu, a sidebar or a page token linking to them does not send every visitor through that
// redirect, the addressing that links are made with carries their paths (`homes`), and
// site/addresses.ts `linkUrl` prints `/` and `/<lang>/` for them (docs/publishing.md, docs/seo.md).
import type { PublicFront } from "../config.ts";
import { siteAddressing, type SchemedDomain, type SiteAddressing } from "../site/addresses.ts";
import type { LanguageState } from "../site/languages.ts";
import { homePageOf, settingsOf } from "../site/settings.ts";
import type { Db } from "../store/database.ts";
import { groupMembers, type PageLite } from "./queries.ts";
import { lookupPage } from "./refs.ts";

/** The page a `home_page` reference names and its translations (the page first); [] when it names none. */
export async function homeFamily(
  db: Db,
  siteId: number,
  ref: number | string | null,
  langs?: LanguageState,
): Promise<Array<Pick<PageLite, "id" | "lang" | "path" | "status">>> {
  if (ref === null) return [];
  const found = await lookupPage(db, siteId, ref, {}, langs);
  if (!("found" in found)) return [];
  const page = found.found;
  if (page.translation_group === null) return [page];
  return [page, ...(await groupMembers(db, siteId, [page.translation_group])).filter((row) => row.id !== page.id)];
}

/** The paths of the home page and its translations by language ('' for a page without one). */
export async function homePaths(
  db: Db,
  siteId: number,
  ref: number | string | null,
  langs?: LanguageState,
): Promise<Map<string, string>> {
  const homes = new Map<string, string>();
  // The page named first: its language is its own even if a trashed translation shares it.
  for (const row of await homeFamily(db, siteId, ref, langs))
    if (row.status !== "trash" && !homes.has(row.lang)) homes.set(row.lang, row.path);
  return homes;
}

/** `addressing` with the home page's paths (`homes`), for making links. */
export async function withHomes(db: Db, siteId: number, addressing: SiteAddressing): Promise<SiteAddressing> {
  const settings = await settingsOf(db, siteId);
  return { ...addressing, homes: await homePaths(db, siteId, homePageOf(settings), addressing.langs) };
}

/** The site's addressing for making links: with the home page's paths (`homes`). */
export async function linkAddressing(
  db: Db,
  site: SchemedDomain & { id: number },
  front: PublicFront,
): Promise<SiteAddressing> {
  return withHomes(db, site.id, await siteAddressing(db, site, front));
}

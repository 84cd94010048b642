// Which page a site shows for an address that shows none (docs/seo.md, "A site's own 404 page"):
// the page the `not_found_page` setting names, in the language of the address's prefix (its
// translation in that language, else itself), standing on a frame and not in the trash. A draft is
// fine: a 404 page is often kept out of menus and sitemaps that way.
import { lookupPage } from "../pages/refs.ts";
import type { PageRow } from "../pages/queries.ts";
import { languageState } from "../site/languages.ts";
import { notFoundPageOf, settingsOf } from "../site/settings.ts";
import type { Db } from "../store/database.ts";

export async function notFoundTarget(
  db: Db,
  siteId: number,
  address: string,
): Promise<{ page: PageRow; lang: string | null } | null> {
  const ref = notFoundPageOf(await settingsOf(db, siteId));
  if (ref === null) return null;
  const langs = await languageState(db, siteId);
  const first = address.split("/")[1] ?? "";
  const lang = langs.active && langs.codes.includes(first) && first !== langs.defaultLang ? first : langs.defaultLang;
  const found = await lookupPage(db, siteId, ref, {}, langs);
  if (!("found" in found)) return null;
  let page = found.found;
  if (lang !== null && page.lang !== lang && page.translation_group !== null) {
    const translation = await db
      .selectFrom("pages")
      .selectAll()
      .where("site_id", "=", siteId)
      .where("translation_group", "=", page.translation_group)
      .where("lang", "=", lang)
      .where("status", "!=", "trash")
      .executeTakeFirst();
    if (translation) page = translation;
  }
  if (page.status === "trash" || page.frame_id === null) return null;
  return { page, lang: page.lang === "" ? langs.defaultLang : page.lang };
}

// Which page a public address names (docs/publishing.md, "Public pages"): default-language pages
// at `/<path>/`, others at `/<lang>/<path>/`, `/` (and `/<lang>/`) is the page named by the
// `home_page` setting (its translation in that language). Only a published page whose ancestors
// are all published, and which stands on an existing frame, is output; everything else is 404.
import { lookupPage } from "./refs.ts";
import { ancestorsOf, findPages, type PageRow } from "./queries.ts";
import { languageState, type LanguageState } from "../site/languages.ts";
import { homePageOf, settingsOf } from "../site/settings.ts";
import type { Db } from "../store/database.ts";

export type Resolution =
  | { page: PageRow; lang: string | null; langs: LanguageState }
  /** The home page (or a translation of it) asked for at its own path: it answers at `home` only. */
  | { home: string; page: PageRow }
  | { notFound: string };

/**
 * The segments of a canonical address (public-site.ts answers only those here): matched as they
 * are written, never decoded again, so `/a%2Fb/` is no spelling of `/a/b/` (docs/security.md).
 */
function segmentsOf(address: string): string[] {
  return address.split("/").filter((s) => s !== "");
}

/** The page the `home_page` setting names, if it names one. */
async function homeNamed(db: Db, siteId: number, langs: LanguageState): Promise<PageRow | undefined> {
  const ref = homePageOf(await settingsOf(db, siteId));
  if (ref === null) return undefined;
  const found = await lookupPage(db, siteId, ref, {}, langs);
  return "found" in found ? found.found : undefined;
}

async function homePage(
  db: Db,
  siteId: number,
  lang: string | null,
  langs: LanguageState,
): Promise<PageRow | undefined> {
  const home = await homeNamed(db, siteId, langs);
  if (!home) return undefined;
  const wanted = lang ?? "";
  if (home.lang === wanted || (lang === langs.defaultLang && home.lang === "")) return home;
  if (home.translation_group === null) return undefined;
  const translations = await db
    .selectFrom("pages")
    .selectAll()
    .where("site_id", "=", siteId)
    .where("translation_group", "=", home.translation_group)
    .where("lang", "=", wanted)
    .execute();
  return translations[0];
}

export async function resolvePublicPage(db: Db, siteId: number, address: string): Promise<Resolution> {
  const langs = await languageState(db, siteId);
  let segments = segmentsOf(address);
  let lang: string | null = langs.defaultLang;
  if (langs.active && segments.length > 0 && langs.codes.includes(segments[0]) && segments[0] !== langs.defaultLang) {
    lang = segments[0];
    segments = segments.slice(1);
  }

  let page: PageRow | undefined;
  if (segments.length === 0) {
    page = await homePage(db, siteId, lang, langs);
    if (!page) return { notFound: "no_home_page" };
  } else {
    const path = `/${segments.join("/")}`;
    const langsToTry = lang === langs.defaultLang ? [lang ?? "", ""] : [lang ?? ""];
    const candidates = (await findPages(db, siteId, { path, withoutTrash: true })).filter((row) =>
      langsToTry.includes(row.lang),
    );
    page = candidates.find((row) => row.status === "publish") ?? candidates[0];
    if (!page) return { notFound: "no_page" };
    // One address per page (docs/seo.md): the home page and its translations answer at `/` and
    // `/<lang>/`; their own paths send there.
    const home = page.status === "publish" ? await homeNamed(db, siteId, langs) : undefined;
    if (
      home &&
      (home.id === page.id || (home.translation_group !== null && home.translation_group === page.translation_group))
    ) {
      const homeLang = page.lang === "" ? langs.defaultLang : page.lang;
      const prefix = langs.active && homeLang !== null && homeLang !== langs.defaultLang ? `/${homeLang}` : "";
      return { home: `${prefix}/`, page };
    }
  }
  if (page.status !== "publish") return { notFound: page.status === "trash" ? "trash" : "draft" };
  const ancestors = await ancestorsOf(db, siteId, page);
  if (ancestors.some((a) => a.status !== "publish")) return { notFound: "parent_unpublished" };
  if (page.frame_id === null) return { notFound: "no_frame" };
  return { page, lang: page.lang === "" ? langs.defaultLang : page.lang, langs };
}

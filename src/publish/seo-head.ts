// The head tags `svc/seo` prints for one page (docs/seo.md), as plain data for the
// renderer (markup/seo-html.ts): the title template applied, the description, the canonical
// address, hreflang alternates of the page's published translations (itself included) and
// x-default, Open Graph and Twitter values, robots noindex, and JSON-LD (WebSite on the home page,
// BreadcrumbList elsewhere). Every address is absolute on the site's primary domain, as home_url
// is built; the home page (and its translations) is addressed `/` (`/<lang>/`), never its own path.
// Shown as the site's 404 page (`not_found_page`, answered at addresses that show no page), a page
// is noindex and names no address of its own: no canonical, no og:url, no hreflang, no JSON-LD.
import { listPageUrl, type ListPage, type SeoHead } from "../markup/index.ts";
import { FEED_FILE } from "../seo/feed.ts";
import { isHomeAddress, linkUrl } from "../site/addresses.ts";
import type { Db } from "../store/database.ts";
import type { PageRow } from "../store/schema.ts";
import type { PageLite } from "../effects/page-tree.ts";
import { mediaByRefs } from "../media/queries.ts";
import { seoOf } from "../pages/seo.ts";
import { siteSeoForRender } from "../seo/site-seo.ts";
import type { SiteState } from "./site-state.ts";

/** Whether a page of the tree answers publicly: published, every ancestor published, on a frame. */
function answers(state: SiteState, id: number): boolean {
  const row = state.tree.get(id);
  return row !== undefined && row.frame_id !== null && state.tree.visible(id);
}

/** `en` → `en`, `pt-br` → `pt_BR` (og:locale). */
function localeOf(lang: string | null): string | null {
  if (!lang) return null;
  const [language, region] = lang.split("-");
  return region ? `${language}_${region.toUpperCase()}` : language;
}

/** The ancestors of a page in the tree, the top one first. */
function ancestorsOf(state: SiteState, page: Pick<PageLite, "id" | "parent_id">): PageLite[] {
  const out: PageLite[] = [];
  const seen = new Set<number>([page.id]);
  for (let id = page.parent_id; id !== 0 && !seen.has(id); ) {
    seen.add(id);
    const parent = state.tree.get(id);
    if (!parent) break;
    out.unshift(parent);
    id = parent.parent_id;
  }
  return out;
}

/**
 * `list`: the page of the page's list shown (docs/markup.md, "Lists"). Page n (2 and up) is its own
 * canonical address, as search engines index a paged list; each page links the previous and the
 * next (`rel="prev"`, `rel="next"`). A page with a feed links it (`rel="alternate"`) on every page
 * of its list.
 */
export async function seoHeadOf(
  db: Db,
  state: SiteState,
  page: PageRow,
  lang: string | null,
  notFound = false,
  list?: ListPage,
): Promise<SeoHead> {
  const { addressing } = state;
  const site = await siteSeoForRender(db, state.site.id, lang, addressing.langs);
  const own = seoOf(page);
  // The home page and its translations (state.addressing.homes) answer at `/` and `/<lang>/`.
  const isHome = (row: Pick<PageLite, "lang" | "path">) => isHomeAddress(addressing, row.lang, row.path);
  const urlOf = (row: Pick<PageLite, "lang" | "path">) => linkUrl(addressing, row.lang, row.path);

  const selfUrl = urlOf(page);
  const canonical =
    list !== undefined && list.page > 1
      ? listPageUrl(list.base, list.page)
      : own.canonical === null
        ? selfUrl
        : own.canonical.startsWith("/")
          ? `${addressing.origin}${own.canonical}`
          : own.canonical;

  // The page's published translations, itself included, in the site's language order; then x-default.
  const alternates: Array<{ hreflang: string; href: string }> = [];
  if (addressing.langs.active && page.lang !== "") {
    const byLang = new Map<string, string>([[page.lang, selfUrl]]);
    if (page.translation_group !== null) {
      for (const member of state.tree.all()) {
        if (
          member.translation_group === page.translation_group &&
          member.lang !== "" &&
          !byLang.has(member.lang) &&
          answers(state, member.id)
        )
          byLang.set(member.lang, urlOf(member));
      }
    }
    for (const code of addressing.langs.codes) {
      const href = byLang.get(code);
      if (href !== undefined) alternates.push({ hreflang: code, href });
    }
    const fallback = addressing.langs.defaultLang === null ? undefined : byLang.get(addressing.langs.defaultLang);
    if (fallback !== undefined) alternates.push({ hreflang: "x-default", href: fallback });
  }

  const imageRef = own.og_image ?? site.og_image;
  const image = imageRef === null ? undefined : (await mediaByRefs(db, state.site.id, [imageRef])).get(imageRef);
  const title = site.title_template.split("%s").join(own.title ?? page.title);
  const crumbs = [...ancestorsOf(state, page), page];
  const jsonLd = isHome(page)
    ? {
        "@context": "https://schema.org",
        "@type": "WebSite",
        name: state.site.name,
        url: selfUrl,
        ...(lang ? { inLanguage: lang } : {}),
      }
    : {
        "@context": "https://schema.org",
        "@type": "BreadcrumbList",
        itemListElement: crumbs.map((crumb, i) => ({
          "@type": "ListItem",
          position: i + 1,
          name: crumb.title,
          item: urlOf(crumb),
        })),
      };
  const head: SeoHead = {
    title,
    description: own.description ?? site.description,
    canonical,
    alternates,
    ogTitle: title,
    ogType: isHome(page) ? "website" : "article",
    image: image ? `${addressing.origin}${image.url}` : null,
    siteName: state.site.name,
    locale: localeOf(lang),
    twitterSite: site.twitter_site,
    noindex: own.noindex || site.noindex,
    jsonLd,
    ...(list !== undefined && list.page > 1 ? { prev: listPageUrl(list.base, list.page - 1) } : {}),
    ...(list !== undefined && list.page < list.pages ? { next: listPageUrl(list.base, list.page + 1) } : {}),
    ...(page.feed === 1 ? { feed: { href: `${selfUrl}${FEED_FILE}`, title } } : {}),
  };
  return notFound ? { ...head, canonical: null, alternates: [], jsonLd: null, noindex: true } : head;
}

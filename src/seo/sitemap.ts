// A site's sitemap.xml (docs/seo.md), per the sitemaps.org protocol 0.9 with hreflang
// alternates as search engines read them: one <url> per page that answers 200 and is not noindex,
// with its absolute <loc> (the home page and its translations at `/` and `/<lang>/`), <lastmod>
// (W3C datetime, UTC) and one <xhtml:link rel="alternate" hreflang href> per published translation,
// itself included. A page whose canonical names another address is left out (it is not the
// address to index). The further pages of a page's paged list follow it (`<loc>page/<n>/`). Past `maxUrls` addresses (50,000, the protocol's limit) /sitemap.xml is a
// <sitemapindex> of /sitemap-1.xml, /sitemap-2.xml, …. A site with nothing to list (a noindex
// site, or one with no page answering yet) has no sitemap: 404.
import type { PublicFront } from "../config.ts";
import { PageTree } from "../pages/tree.ts";
import { LITE } from "../pages/queries.ts";
import { linkAddressing } from "../pages/home.ts";
import { seoOf } from "../pages/seo.ts";
import { linkUrl, siteAddressing } from "../site/addresses.ts";
import type { SiteRow } from "../site/sites.ts";
import type { Db } from "../store/database.ts";
import { siteSeoOf } from "./site-seo.ts";
import { listPageCount, pagedListOf } from "../data/page-lists.ts";
import type { DependencyIndex } from "../effects/dependency-index.ts";
import { siteIndex } from "../frames/graph.ts";
import { listPageUrl } from "../markup/index.ts";

/** The protocol's limit of addresses in one sitemap file. */
export const SITEMAP_MAX_URLS = 50_000;

const XMLNS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';

function xml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** `YYYY-MM-DD HH:MM:SS` (GMT) as a W3C datetime. */
function w3c(gmt: string): string {
  return /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(gmt) ? `${gmt.replace(" ", "T")}Z` : gmt;
}

interface Entry {
  loc: string;
  lastmod: string;
  alternates: Array<{ lang: string; href: string }>;
}

/** Every address the sitemap lists, in page-id order. */
async function entriesOf(db: Db, site: SiteRow, front: PublicFront): Promise<Entry[]> {
  if ((await siteSeoOf(db, site)).noindex) return [];
  const [addressing, rows] = await Promise.all([
    linkAddressing(db, site, front),
    db
      .selectFrom("pages")
      .select([...LITE, "seo_json", "updated_at_gmt"])
      .where("site_id", "=", site.id)
      .orderBy("id")
      .execute(),
  ]);
  const tree = new PageTree(rows);
  // The home page and its translations are listed at `/` and `/<lang>/` (pages/home.ts).
  const urlOf = (row: (typeof rows)[number]) => linkUrl(addressing, row.lang, row.path);
  const answers = (row: (typeof rows)[number]) => row.frame_id !== null && tree.visible(row.id);
  const listed = (row: (typeof rows)[number]) => {
    if (!answers(row)) return false;
    const seo = seoOf(row);
    if (seo.noindex) return false;
    const own = urlOf(row);
    return (
      seo.canonical === null ||
      (seo.canonical.startsWith("/") ? `${addressing.origin}${seo.canonical}` : seo.canonical) === own
    );
  };

  const groups = new Map<number, Array<(typeof rows)[number]>>();
  if (addressing.langs.active) {
    for (const row of rows) {
      if (row.translation_group === null || row.lang === "" || !answers(row)) continue;
      const members = groups.get(row.translation_group) ?? [];
      if (!members.some((member) => member.lang === row.lang)) members.push(row);
      groups.set(row.translation_group, members);
    }
  }
  const order = new Map(addressing.langs.codes.map((code, i) => [code, i]));
  const entries: Entry[] = [];
  let index: DependencyIndex | undefined;
  for (const row of rows) {
    if (!listed(row)) continue;
    const members =
      row.translation_group === null || row.lang === "" ? [row] : (groups.get(row.translation_group) ?? [row]);
    const alternates =
      addressing.langs.active && row.lang !== ""
        ? [...members]
            .sort((a, b) => (order.get(a.lang) ?? 99) - (order.get(b.lang) ?? 99))
            .map((member) => ({ lang: member.lang, href: urlOf(member) }))
        : [];
    entries.push({ loc: urlOf(row), lastmod: w3c(row.updated_at_gmt), alternates });
    // The further pages of its list, each its own canonical address (docs/markup.md, "Lists").
    index ??= row.frame_id === null ? undefined : await siteIndex(db, site.id);
    const list = row.frame_id === null ? undefined : pagedListOf(index?.getById(row.frame_id));
    if (list) {
      const lang = addressing.langs.active ? row.lang || addressing.langs.defaultLang : null;
      const pages = await listPageCount({ db, publicFront: front, addressing }, site, row, lang, list);
      for (let n = 2; n <= pages; n++)
        entries.push({ loc: listPageUrl(urlOf(row), n), lastmod: w3c(row.updated_at_gmt), alternates: [] });
    }
  }
  return entries;
}

function urlset(entries: readonly Entry[]): string {
  const hasAlternates = entries.some((entry) => entry.alternates.length > 0);
  const out = [
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${XMLNS}${hasAlternates ? ' xmlns:xhtml="http://www.w3.org/1999/xhtml"' : ""}>\n`,
  ];
  for (const entry of entries) {
    out.push(`<url><loc>${xml(entry.loc)}</loc><lastmod>${entry.lastmod}</lastmod>`);
    for (const alternate of entry.alternates)
      out.push(`<xhtml:link rel="alternate" hreflang="${xml(alternate.lang)}" href="${xml(alternate.href)}"/>`);
    out.push("</url>\n");
  }
  out.push("</urlset>\n");
  return out.join("");
}

function sitemapIndex(origin: string, parts: ReadonlyArray<readonly Entry[]>): string {
  const out = [`<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex ${XMLNS}>\n`];
  parts.forEach((part, i) => {
    // The latest of the part's dates (text in one format, so they compare as text).
    let lastmod = "";
    for (const entry of part) if (entry.lastmod > lastmod) lastmod = entry.lastmod;
    out.push(
      `<sitemap><loc>${xml(`${origin}/sitemap-${i + 1}.xml`)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ""}</sitemap>\n`,
    );
  });
  out.push("</sitemapindex>\n");
  return out.join("");
}

/**
 * The XML of /sitemap.xml (`part` null) or /sitemap-<part>.xml; null for a part the site does not
 * have, or when it has nothing to list (404). One file while the site has at most `maxUrls` addresses; past that an index.
 */
export async function sitemapXml(
  db: Db,
  site: SiteRow,
  front: PublicFront,
  part: number | null,
  maxUrls = SITEMAP_MAX_URLS,
): Promise<string | null> {
  const entries = await entriesOf(db, site, front);
  // Nothing to list (a noindex site, no page answering yet): no sitemap, since the protocol's
  // schema wants at least one address in a file.
  if (entries.length === 0) return null;
  if (entries.length <= maxUrls) return part === null ? urlset(entries) : null;
  const parts: Entry[][] = [];
  for (let i = 0; i < entries.length; i += maxUrls) parts.push(entries.slice(i, i + maxUrls));
  if (part === null) return sitemapIndex((await siteAddressing(db, site, front)).origin, parts);
  return part >= 1 && part <= parts.length ? urlset(parts[part - 1]) : null;
}

/** robots.txt: every crawler, all disallowed on a noindex site; the sitemap's address; the site's own lines. */
export async function robotsTxt(db: Db, site: SiteRow, front: PublicFront): Promise<string> {
  const [seo, addressing] = await Promise.all([siteSeoOf(db, site), siteAddressing(db, site, front)]);
  const lines = [
    "User-agent: *",
    seo.noindex ? "Disallow: /" : "Disallow:",
    "",
    `Sitemap: ${addressing.origin}/sitemap.xml`,
  ];
  if (seo.robots_extra !== "") lines.push("", seo.robots_extra);
  return `${lines.join("\n")}\n`;
}

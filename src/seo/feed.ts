// A page's Atom 1.0 feed (RFC 4287; docs/seo.md, "Feeds"), at `<its address>feed.xml` while the page
// has `feed: true` and answers: the published pages its list shows — the first list of its frame that
// sorts or pages pages (data/page-lists.ts), else its children, newest `date` first — at most 20, in
// that list's order. Each entry has its title, link, id, `updated` (its last write), `published`
// (its date), summary (`fields.summary`, else the first paragraph of its content) and content
// (HTML; a Markdown page's as it prints). Written by the `feed` package; what it leaves out of Atom
// (the feed's language) or does not guard against (texts XML cannot hold, `]]>` in a CDATA
// section) is handled here.
import type { PublicFront } from "../config.ts";
import { Feed } from "feed";
import { escapeText, type ListEntry } from "../markup/index.ts";
import { listItems, feedListOf } from "../data/page-lists.ts";
import { siteIndex } from "../frames/graph.ts";
import { linkAddressing } from "../pages/home.ts";
import { fieldsOf } from "../pages/record.ts";
import { pagesByIds, type PageRow } from "../pages/queries.ts";
import { linkUrl } from "../site/addresses.ts";
import type { SiteRow } from "../site/sites.ts";
import type { Db } from "../store/database.ts";

/** The feed's file under its page's address. */
export const FEED_FILE = "feed.xml";

/** Entries a feed holds at most (WordPress's "Syndication feeds show the most recent" is 10; Ghost's 15). */
export const FEED_ENTRIES = 20;

export const ATOM_TYPE = "application/atom+xml; charset=utf-8";

/** A page's feed without a list of its own: its children, newest first. */
const CHILDREN_NEWEST: ListEntry = {
  at: 0,
  source: "pages.children",
  match: null,
  order_by: "-date",
  offset: 0,
  limit: null,
  page_size: null,
};

/** Characters XML 1.0 cannot hold (C0 controls but tab, line feed and return; lone surrogates; U+FFFE, U+FFFF). */
const NOT_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function xmlText(text: string): string {
  return text.replace(NOT_XML, "");
}

/** HTML for a CDATA section: `]]>` (which would end it) written `]]&gt;`, the same text in HTML. */
function cdataHtml(html: string): string {
  return xmlText(html).replaceAll("]]>", "]]&gt;");
}

/** `YYYY-MM-DD HH:MM:SS` (UTC, as stored) as a moment. */
function moment(gmt: string): Date {
  const at = new Date(`${gmt.replace(" ", "T")}Z`);
  return Number.isNaN(at.getTime()) ? new Date(0) : at;
}

/** The first paragraph of a page's content, as HTML: its first `<p>`'s content, else its first block of text, escaped. */
export function firstParagraph(content: string): string {
  const p = /<p(?:\s[^>]*)?>([\s\S]*?)<\/p\s*>/i.exec(content);
  if (p) return p[1]!.trim();
  const block = content.trim().split(/\r?\n\s*\r?\n/)[0] ?? "";
  return escapeText(block.replace(/<[^>]*>/g, "").trim());
}

/** The entry's summary: `fields.summary` (a text), else the first paragraph of its printed content. */
function summaryOf(row: PageRow, html: string): string {
  const summary = fieldsOf(row).summary;
  return typeof summary === "string" && summary.trim() !== "" ? escapeText(summary.trim()) : firstParagraph(html);
}

/** The HTML each page's content prints, by id (Markdown made HTML: publish/page-content.ts). */
export type PrintedContents = (pages: readonly PageRow[]) => Promise<ReadonlyMap<number, string>>;

/** A stored Atom key as migration 0360 keeps it: `<domain>,<YYYY-MM-DD>:<id>`. */
export const ATOM_KEY = /^[^\s,:<>&"']{1,253},\d{4}-\d\d-\d\d:[1-9]\d{0,15}$/;

/**
 * What a page's Atom ids are made of: the site's domain, the page's creation date and its id; for a
 * page imported from another instance, those it had there (`pages.atom_key`), so its entries stay
 * the same entries for feed readers (docs/bundles.md, "Round trip").
 */
export function atomKeyOf(site: SiteRow, page: Pick<PageRow, "id" | "created_at_gmt" | "atom_key">): string {
  return page.atom_key ?? `${site.domain},${page.created_at_gmt.slice(0, 10)}:${page.id}`;
}

/** An Atom id that stays while the page lives (RFC 4151 tag URI): `tag:<domain>,<date>:<what>-<id>`. */
function tagUri(
  site: SiteRow,
  page: Pick<PageRow, "id" | "created_at_gmt" | "atom_key">,
  what: "page" | "feed",
): string {
  const key = atomKeyOf(site, page);
  const cut = key.lastIndexOf(":");
  return `tag:${key.slice(0, cut)}:${what}-${key.slice(cut + 1)}`;
}

/**
 * The Atom XML of the page's feed, in its language; null when the page has no feed. The page is
 * one the public site answers (published, every ancestor published, on a frame).
 */
export async function feedXml(
  db: Db,
  site: SiteRow,
  front: PublicFront,
  page: PageRow,
  lang: string | null,
  printed: PrintedContents,
): Promise<string | null> {
  if (page.feed !== 1) return null;
  const addressing = await linkAddressing(db, site, front);
  const node = page.frame_id === null ? undefined : (await siteIndex(db, site.id)).getById(page.frame_id);
  const list = feedListOf(node) ?? CHILDREN_NEWEST;
  const sourceLang = addressing.langs.active ? lang : null;
  const items = (await listItems({ db, publicFront: front, addressing }, site, page, sourceLang, list)) ?? [];
  const ids = items.slice(0, FEED_ENTRIES).map((item) => (item as { id: number }).id);
  const rows = new Map((await pagesByIds(db, site.id, ids)).map((row) => [row.id, row]));
  const entries = ids.map((id) => rows.get(id)).filter((row): row is PageRow => row !== undefined);
  const contents = await printed(entries);

  const self = linkUrl(addressing, page.lang, page.path);
  let updated = moment(page.updated_at_gmt);
  for (const row of entries) if (moment(row.updated_at_gmt) > updated) updated = moment(row.updated_at_gmt);
  const feed = new Feed({
    id: tagUri(site, page, "feed"),
    title: xmlText(page.title),
    link: self,
    feed: `${self}${FEED_FILE}`,
    updated,
    author: { name: xmlText(site.name) },
    generator: false,
  });
  for (const row of entries) {
    const html = contents.get(row.id) ?? row.content;
    feed.addItem({
      // Atom's `html` type: the title is HTML text, so it is escaped once more inside its CDATA.
      title: cdataHtml(escapeText(row.title)),
      id: tagUri(site, row, "page"),
      link: linkUrl(addressing, row.lang, row.path),
      date: moment(row.updated_at_gmt),
      ...(row.date_gmt !== null ? { published: moment(row.date_gmt) } : {}),
      description: cdataHtml(summaryOf(row, html)),
      content: cdataHtml(html),
    });
  }
  const xml = feed.atom1();
  // The library writes no language: Atom's is `xml:lang` on the feed (RFC 4287 §2).
  const language = lang ?? addressing.langs.defaultLang;
  return language ? xml.replace(/<feed xmlns="([^"]*)">/, `<feed xmlns="$1" xml:lang="${language}">`) : xml;
}

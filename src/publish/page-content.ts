// A page's content as `page.content` prints it and `svc/toc` lists its headings (docs/markup.md):
// HTML as stored; Markdown made HTML when it is printed (docs/content-model.md, "Markdown"), its
// `page:` links at the current address of the page each named when it was written, its `media:`
// images as `svc/image` prints them, an editor's raw HTML through the allowlist sanitiser. Either
// way its headings get ids (markup/headings.ts).
//
// Markdown is rendered once per source and what it links to: the HTML is kept by the sha256 of
// the source, its trust, the sanitiser's policy and what its references print, so a page printed
// again (a request, another language's bake) costs one hash and two small reads.
import type { PublicFront } from "../config.ts";
import { createHash } from "node:crypto";
import { withHeadingIds, type Heading, type MediaView } from "../markup/index.ts";
import { markdown, type MarkdownRefs } from "../markup/markdown.ts";
import { htmlSanitizer } from "../markup/sanitize.ts";
import { linkUrl } from "../site/addresses.ts";
import { iframeHostsOf } from "../site/settings.ts";
import type { Db } from "../store/database.ts";
import type { PageRow } from "../store/schema.ts";
import { formatOf, pageRefTargets, trustOf } from "../pages/content.ts";
import { withAncestors } from "../pages/queries.ts";
import { PageTree } from "../pages/tree.ts";
import { BoundedMemo } from "./bounded-memo.ts";
import { mediaViews } from "./media-views.ts";
import { langOf, loadSiteState, type SiteState } from "./site-state.ts";

export interface PrintedContent {
  html: string;
  headings: Heading[];
}

/** Printed Markdown by what decides it; at most 32 MB of it (a source may be 2 MB). */
const printed = new BoundedMemo<PrintedContent>(1000, 32 * 1024 * 1024, (value) => value.html.length);
/** The references of a source by its sha256. */
const refsOf = new BoundedMemo<MarkdownRefs>(4000, 4 * 1024 * 1024, (refs) =>
  [...refs.pages, ...refs.media].reduce((sum, ref) => sum + ref.length + 16, 16),
);

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/**
 * The address each `page:` reference prints: the page it named when the content was written,
 * at its current address while it is public; null otherwise (the link prints as text).
 */
async function pageAddresses(
  db: Db,
  state: SiteState,
  page: PageRow,
  refs: readonly string[],
): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  if (refs.length === 0) return out;
  const targets = await pageRefTargets(db, state.site.id, page.id);
  const ids = refs.map((ref) => targets.get(ref) ?? null).filter((id): id is number => id !== null);
  // The run's tree holds the pages it reads with their ancestors; the others are read here.
  const missing = ids.filter((id) => !state.tree.get(id));
  const read = missing.length === 0 ? null : new PageTree(await withAncestors(db, state.site.id, missing));
  for (const ref of refs) {
    const id = targets.get(ref) ?? null;
    const tree = id === null ? null : state.tree.get(id) ? state.tree : read;
    const row = id === null ? undefined : tree?.get(id);
    out.set(ref, row && tree?.visible(row.id) ? linkUrl(state.addressing, row.lang, row.path) : null);
  }
  return out;
}

async function printedMarkdown(db: Db, state: SiteState, page: PageRow, lang: string | null): Promise<PrintedContent> {
  const md = await markdown();
  const source = sha256(page.content);
  let refs = refsOf.get(source);
  if (!refs) {
    refs = md.refs(page.content);
    refsOf.set(source, refs);
  }
  const pages = await pageAddresses(db, state, page, refs.pages);
  const media = new Map<string, MediaView>(await mediaViews(db, state, refs.media, lang));
  const trust = trustOf(page);
  const iframeHosts = trust === "raw" ? [] : iframeHostsOf(state.settings);
  const key = sha256(JSON.stringify([source, trust, iframeHosts, [...pages], [...media]]));
  const hit = printed.get(key);
  if (hit) return hit;
  let html = md.html(page.content, { page: (ref) => pages.get(ref) ?? null, media: (ref) => media.get(ref) ?? null });
  if (trust === "sanitized") html = (await htmlSanitizer({ iframeHosts }))(html).html;
  const done = withHeadingIds(html);
  printed.set(key, done);
  return done;
}

/** The page's content as it prints in `lang`, with ids on its headings and the headings listed. */
export function printedContent(db: Db, state: SiteState, page: PageRow, lang: string | null): Promise<PrintedContent> {
  if (formatOf(page) === "markdown") return printedMarkdown(db, state, page, lang);
  return Promise.resolve(withHeadingIds(page.content));
}

/**
 * The HTML content of these pages as each prints in its own language, by id: a feed's entries
 * (seo/feed.ts). HTML content is what is stored; the site's state is read only when a page is
 * Markdown.
 */
export async function printedContents(
  db: Db,
  siteId: number,
  front: PublicFront,
  pages: readonly PageRow[],
): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  const markdownPages = pages.filter((page) => formatOf(page) === "markdown");
  for (const page of pages) if (formatOf(page) !== "markdown") out.set(page.id, page.content);
  if (markdownPages.length === 0) return out;
  const state = await loadSiteState(db, siteId, front, () => ({ pages: markdownPages.map((page) => page.id) }));
  if (!state) return out;
  for (const page of markdownPages) {
    out.set(page.id, (await printedMarkdown(db, state, page, langOf(state, page.lang))).html);
  }
  return out;
}

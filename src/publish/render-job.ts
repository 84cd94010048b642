// Prepares a frame render: loads (asynchronously) the frames it embeds and the data, media
// files and stylesheet addresses its sources name, as plain data (render-context.ts) that a render in this thread or in the render worker
// reads (bounded-render.ts).
import { readsItems } from "../markup/source-name.ts";
import type { CurrentPage, LanguageLink, ListPage, MarkedPage } from "../markup/index.ts";
import { listPageCount as countListPages, pagedListOf } from "../data/page-lists.ts";
import { isHomeAddress, languageHomeUrl, linkUrl, pageUrl } from "../site/addresses.ts";
import { homePageOf } from "../site/settings.ts";
import type { Db } from "../store/database.ts";
import type { PageRow } from "../store/schema.ts";
import type { CompiledFrames } from "./compiled-cache.ts";
import type { Clock } from "../clock.ts";
import { itemsForRender } from "../data/sources.ts";
import { frameHeads, frameMarkup } from "../frames/queries.ts";
import { mediaViews } from "./media-views.ts";
import { printedContent } from "./page-content.ts";
import { fieldsOf } from "../pages/record.ts";
import { isoDate } from "../pages/post-fields.ts";
import { sidebarForRender } from "../sidebars/tree.ts";
import { stringTexts } from "../strings/queries.ts";
import { styleLinks } from "../styles/copies.ts";
import type { SiteState } from "./site-state.ts";
import { framesByRef, type ReachableFrame, type RenderInput } from "./render-context.ts";
import { seoHeadOf } from "./seo-head.ts";
import { sidebarView } from "./sidebar-view.ts";
import { formViews } from "../forms/view.ts";
import { SUBMIT_KEY } from "../markup/index.ts";

export interface RenderTarget {
  lang: string | null;
  /** The page shown, for frames that render on request. */
  page?: PageRow;
  /**
   * The page is shown as the site's 404 page (docs/seo.md): `svc/seo` prints it noindex with no
   * canonical, hreflang nor JSON-LD, and its `breadcrumbs` list nothing.
   */
  notFound?: boolean;
  /** The page of the page's list shown (`<address>page/<n>/`); default 1. */
  listPage?: number;
  /** How many pages the page's list has, when the caller counted them already (`listPageCount`). */
  listPages?: number;
}

function settingsValues(state: SiteState): Record<string, unknown> {
  return {
    name: state.site.name,
    tagline: state.settings.tagline,
    theme: state.settings.theme,
    default_lang: state.addressing.langs.defaultLang,
    home_page: homePageOf(state.settings),
    render_model: "v2",
  };
}

/** The page's values for tokens; `content` is its content with ids on its headings (markup/headings.ts). */
function pageValues(state: SiteState, page: PageRow, lang: string | null, content: string): Record<string, unknown> {
  const parent = page.parent_id ? state.tree.get(page.parent_id) : undefined;
  return {
    id: page.id,
    title: page.title,
    slug: page.slug,
    url: linkUrl(state.addressing, page.lang, page.path),
    path: page.path,
    lang,
    content,
    updated_at: page.updated_at_gmt,
    created_at: page.created_at_gmt,
    date: isoDate(page.date_gmt),
    parent_title: parent?.title,
    parent_url: parent ? linkUrl(state.addressing, parent.lang, parent.path) : undefined,
    fields: fieldsOf(page),
  };
}

function languageLinks(state: SiteState, page: PageRow | undefined, lang: string | null): LanguageLink[] {
  const langs = state.addressing.langs;
  if (!langs.active) return [];
  const translations = new Map<string, string>();
  if (page && page.translation_group !== null) {
    for (const member of state.tree.all()) {
      if (
        member.translation_group === page.translation_group &&
        member.lang !== "" &&
        state.tree.visible(member.id) &&
        !translations.has(member.lang)
      ) {
        translations.set(member.lang, linkUrl(state.addressing, member.lang, member.path));
      }
    }
  }
  if (page && page.lang !== "") translations.set(page.lang, linkUrl(state.addressing, page.lang, page.path));
  return state.addressing.langs.rows.map((row) => ({
    code: row.code,
    name: row.name,
    url: translations.get(row.code) ?? languageHomeUrl(state.addressing, row.code),
    current: row.code === lang,
  }));
}

/** The frames a render may reach (the frame and what it embeds, transitively), compiled. */
async function frameClosure(db: Db, state: SiteState, cache: CompiledFrames, slug: string): Promise<ReachableFrame[]> {
  const slugs = new Set<string>([slug]);
  const queue = [slug];
  for (let i = 0; i < queue.length; i++) {
    for (const next of state.index.embeddedSlugs(queue[i])) {
      if (!slugs.has(next) && state.index.get(next)) {
        slugs.add(next);
        queue.push(next);
      }
    }
  }
  const ids = [...slugs].map((s) => state.index.get(s)?.id).filter((id): id is string => id !== undefined);
  const rows = ids.length === 0 ? [] : await frameHeads(db, ids);
  const reachable: ReachableFrame[] = [];
  // The markup is read only for frames whose program is not held already.
  const missing: typeof rows = [];
  for (const row of rows) {
    const compiled = cache.peek(row.sha256);
    if (compiled) reachable.push({ id: row.id, slug: row.slug, sha256: row.sha256, compiled });
    else missing.push(row);
  }
  if (missing.length > 0) {
    const markup = await frameMarkup(
      db,
      missing.map((row) => row.id),
    );
    for (const row of markup)
      reachable.push({ id: row.id, slug: row.slug, sha256: row.sha256, compiled: cache.get(row.sha256, row.html) });
  }
  return reachable;
}

/** A page as menus and sidebars recognise it: its id and the addresses it answers at (`/` too for the home page). */
function markedPage(state: SiteState, page: Pick<PageRow, "id" | "lang" | "path">): MarkedPage {
  const urls = [pageUrl(state.addressing, page.lang, page.path)];
  if (isHomeAddress(state.addressing, page.lang, page.path)) urls.push(linkUrl(state.addressing, page.lang, page.path));
  return { id: page.id, urls };
}

/**
 * The page shown, as menus and sidebars mark it: itself and its ancestors in the page tree, parent
 * first (the state's tree holds every page it reads with their ancestors: site-state.ts).
 */
export function currentOf(state: SiteState, page: PageRow): CurrentPage {
  const ancestors: MarkedPage[] = [];
  const seen = new Set<number>([page.id]);
  for (let id = page.parent_id; id > 0 && !seen.has(id); ) {
    const parent = state.tree.get(id);
    if (!parent) break;
    seen.add(id);
    ancestors.push(markedPage(state, parent));
    id = parent.parent_id;
  }
  return { ...markedPage(state, page), ancestors };
}

/**
 * How many pages the page's list has (data/page-lists.ts), the page shown on frame `slug` in `lang`;
 * undefined when the frame pages no list.
 */
export async function listPageCount(
  db: Db,
  state: SiteState,
  slug: string,
  page: PageRow,
  lang: string | null,
): Promise<number | undefined> {
  const list = pagedListOf(state.index.get(slug));
  if (!list) return undefined;
  // Sources are asked for a language only while the site has languages, as renders ask them.
  const sourceLang = state.addressing.langs.active ? lang : null;
  const ctx = { db, publicFront: state.front, addressing: state.addressing };
  return countListPages(ctx, state.site, page, sourceLang, list);
}

/** The page of the page's list shown (`target.listPage`, default 1); none when its frame pages no list. */
async function listPageOf(
  db: Db,
  state: SiteState,
  slug: string,
  target: RenderTarget & { page: PageRow },
): Promise<ListPage | undefined> {
  const pages = target.listPages ?? (await listPageCount(db, state, slug, target.page, target.lang));
  if (pages === undefined) return undefined;
  return { page: target.listPage ?? 1, pages, base: linkUrl(state.addressing, target.page.lang, target.page.path) };
}

/** A render ready to run: its input and the frames it may embed. */
export interface PreparedRender {
  /** The site rendered for: the render workers serve sites in turn (render-pool.ts). */
  siteId: number;
  input: RenderInput;
  frames: ReadonlyMap<string, ReachableFrame>;
}

export async function prepareRender(
  db: Db,
  clock: Clock,
  state: SiteState,
  cache: CompiledFrames,
  slug: string,
  target: RenderTarget,
): Promise<PreparedRender> {
  const frames = framesByRef(await frameClosure(db, state, cache, slug));
  if (!frames.get(slug)) throw new Error(`frame ${slug} vanished before it could be rendered`);
  // A language is asked of sources only while the site has languages; otherwise they have none.
  const sourceLang = state.addressing.langs.active ? target.lang : null;

  const items: RenderInput["items"] = [];
  const mediaRefs: string[] = [];
  const styleNames: string[] = [];
  const sidebarNames: string[] = [];
  const formNames: string[] = [];
  const stringKeys: string[] = [];
  let readsSeo = false;
  for (const source of state.index.readNames(slug)) {
    if (source.kind === "media") mediaRefs.push(source.ref);
    else if (source.kind === "style") styleNames.push(source.name);
    else if (source.kind === "sidebar") sidebarNames.push(source.name);
    else if (source.kind === "form") formNames.push(source.name);
    else if (source.kind === "text") stringKeys.push(source.key);
    else if (source.kind === "seo") readsSeo = true;
    else if (source.kind === "breadcrumbs" && target.notFound) items.push([source.text, []]);
    else if (readsItems(source)) {
      items.push([
        source.text,
        await itemsForRender(db, state.front, state.site, source.text, {
          lang: sourceLang,
          pageId: target.page?.id,
          addressing: state.addressing,
        }),
      ]);
    }
  }
  // Headings get ids (svc/toc links to them), the same on every render.
  const headed = target.page ? await printedContent(db, state, target.page, target.lang) : null;
  const input: RenderInput = {
    slug,
    items,
    site: {
      name: state.site.name,
      tagline: state.settings.tagline,
      url: languageHomeUrl(state.addressing, target.lang),
      lang: target.lang,
    },
    settings: settingsValues(state),
    page: target.page ? pageValues(state, target.page, target.lang, headed!.html) : undefined,
    links: languageLinks(state, target.page, target.lang),
    media: await mediaViews(db, state, mediaRefs, target.lang),
    // The stylesheets of the site's theme, at the current address of each bundle.
    styles:
      styleNames.length === 0
        ? []
        : [...(await styleLinks(db, clock(), state.site.id, state.settings.theme, styleNames))],
    sidebars: [],
    headings: headed?.headings ?? [],
    current: target.page ? currentOf(state, target.page) : null,
    strings:
      stringKeys.length === 0
        ? []
        : [...(await stringTexts(db, state.site.id, stringKeys, target.lang, state.addressing.langs.defaultLang))],
  };
  if (target.page) input.listPage = await listPageOf(db, state, slug, { ...target, page: target.page });
  if (target.page && readsSeo)
    input.seo = await seoHeadOf(db, state, target.page, target.lang, target.notFound === true, input.listPage);
  for (const name of sidebarNames) {
    const items = await sidebarForRender(db, state.site, state.addressing, name, target.lang);
    if (items) input.sidebars.push([name, sidebarView(items, input.current)]);
  }
  if (formNames.length > 0) {
    const submit = new Map(input.strings).get(SUBMIT_KEY);
    input.forms = await formViews(db, state.site.id, formNames, target.lang, submit);
  }
  return { siteId: state.site.id, input, frames };
}

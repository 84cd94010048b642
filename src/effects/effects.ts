// What a write affects, decided in one place (docs/publishing.md). Pure: it maps the changes a
// write reports, with the frames' dependency index, the page tree and the few facts read for them
// (effect-facts.ts), to everything they affect — the changes they bring with them, the frames to
// rebake (each with why), the pages to render again, the addresses to flush, whether the sitemap
// changes. The engine carries it out (engine.ts, run.ts); a dry run asks the same questions
// (planned.ts). Sources are compared as parsed names (markup/source-name.ts), never as prefixes.
import { sourceText, type SourceKind, type SourceName } from "../markup/source-name.ts";
import type { Change } from "../write/change.ts";
import type { PageTreeView } from "./page-tree.ts";
import type { DependencyIndex } from "./dependency-index.ts";

/** What is read of the site to derive the changes a write brings with it (effect-facts.ts). */
export interface EffectFacts {
  /** The site's theme: a stylesheet change of another theme prints nowhere. */
  theme: string;
  /** The menus with an item pointing to each changed page, with the locations each is assigned to. */
  menusShowing: ReadonlyMap<number, ReadonlyArray<{ menuId: number; locations: readonly string[] }>>;
  /** The sidebars showing (or standing over) a changed page or its former parent. */
  sidebarsShowing: readonly string[];
  /** The stylesheets of the theme pointing to a changed media file, and those importing them. */
  stylesUsingMedia: readonly string[];
  /** Whether the site's or a page's SEO names a changed media file as its image. */
  seoUsesMedia: boolean;
  /** The pages whose Markdown content links to a changed page or shows a changed media file. */
  pagesReferring: readonly number[];
}

/** The pages whose record the changes name (not those a change only links to): what Markdown links are asked about. */
export function ownPageChanges(changes: readonly Change[]): number[] {
  return [...new Set(changes.flatMap((change) => (change.kind === "page" && !change.linked ? [change.pageId] : [])))];
}

/** The media refs the changes name (their ids as text, slugs, former slugs). */
export function mediaRefsOf(changes: readonly Change[]): string[] {
  return [...new Set(changes.flatMap((change) => (change.kind === "media" ? change.refs : [])))];
}

/** Changed pages with their former parents: what sidebars are asked about. */
export function pagesAndParentsOf(changes: readonly Change[]): number[] {
  return [
    ...new Set(changes.flatMap((change) => (change.kind === "page" ? [change.pageId, ...(change.parents ?? [])] : []))),
  ];
}

/** Changes that only flush (a cache flush, redirects, a site's row that renders do not print) print nothing new. */
export function printedChanges(changes: readonly Change[]): Change[] {
  return changes.filter(
    (change) =>
      change.kind !== "flush" &&
      change.kind !== "redirects" &&
      !(change.kind === "site" && !change.name && !change.domain),
  );
}

/**
 * The changes a write brings with it besides its own: a media file named as an SEO image is an
 * SEO change; one that stylesheets of the theme point to changes their bundles (a style change);
 * a style change of another theme prints nowhere. A page whose Markdown links to a changed page or
 * shows a changed file prints anew (a `linked` page change: its own output only). With a bake, a
 * page that menus point to changes those menus at their locations, and a page that sidebars show
 * changes those sidebars.
 */
export function withDerived(changes: readonly Change[], facts: EffectFacts, bake: boolean): Change[] {
  let out = changes.filter((change) => change.kind !== "style" || change.theme === facts.theme);
  if (facts.seoUsesMedia) out.push({ kind: "seo" });
  const named = new Set(ownPageChanges(out));
  for (const pageId of facts.pagesReferring) if (!named.has(pageId)) out.push({ kind: "page", pageId, linked: true });
  if (facts.stylesUsingMedia.length > 0) out.push({ kind: "style", theme: facts.theme, names: facts.stylesUsingMedia });
  if (!bake || out.length === 0) return out;
  const seen = new Set<number>();
  const menus: Change[] = [];
  for (const change of out) {
    if (change.kind !== "page" || change.linked) continue;
    for (const { menuId, locations } of facts.menusShowing.get(change.pageId) ?? []) {
      // A menu in no location prints nowhere; one in some reaches only those locations' readers.
      if (!seen.has(menuId) && locations.length > 0) menus.push({ kind: "menu", menuId, locations });
      seen.add(menuId);
    }
  }
  out = [...out, ...menus];
  return [...out, ...facts.sidebarsShowing.map((name): Change => ({ kind: "sidebar", name }))];
}

/** The pages of the home pages named before and after a `home_page` change, and their own addresses. */
export interface HomeFacts {
  pages: readonly number[];
  addresses: readonly string[];
}

/** The `home_page` change among the changes, with the references it moved between. */
export function homeChangeOf(
  changes: readonly Change[],
): { before: number | string | null; after: number | string | null } | undefined {
  for (const change of changes) if (change.kind === "settings" && change.homes) return change.homes;
  return undefined;
}

/**
 * What a new home page moves: the home page answers at `/` and each translation at `/<lang>/`,
 * and their own paths redirect there — so the own addresses of the pages named before and now
 * answer something else (a redirects change: flushed), and links to those pages print `/` or
 * their path anew (a page change of each, like a page given a new path).
 */
export function homeMoves(home: HomeFacts): Change[] {
  const out: Change[] = [];
  if (home.addresses.length > 0) out.push({ kind: "redirects", addresses: home.addresses });
  for (const pageId of new Set(home.pages)) out.push({ kind: "page", pageId });
  return out;
}

/** Whether the changes reach every page: languages move every address, a new domain every absolute one. */
export function reachesEveryPage(changes: readonly Change[]): boolean {
  return changes.some(
    (change) =>
      change.kind === "languages" || change.kind === "all" || (change.kind === "site" && change.domain === true),
  );
}

/** Whether a change can alter what a sitemap lists: pages, their addresses and translations, noindex, the pages of paged lists. */
export function changesSitemap(change: Change): boolean {
  switch (change.kind) {
    case "page":
    case "pages":
    case "all":
    case "languages":
    case "seo":
      return true;
    // A frame or a data set may change how many pages a paged list has (`<page>/page/<n>/`).
    case "frame":
    case "dataset":
      return true;
    case "settings":
      return change.keys === undefined || change.keys.includes("default_lang") || change.keys.includes("home_page");
    case "site":
      return change.domain === true;
    default:
      return false;
  }
}

/** What a set of changes drops from the caches without a render. */
export interface Flushes {
  /** The site's hosts are looked up again and every cached page of it goes (its row changed). */
  site: boolean;
  /** Cached addresses to drop (and report), canonical with their language prefix. */
  addresses: string[];
  /** Cache keys to drop without reporting them (the not-found pages, robots.txt). */
  keys: string[];
  /** Every cached page of the site goes (POST /cache/flush of everything). */
  all: boolean;
  sitemap: boolean;
}

/** Cache keys of the site's not-found pages (public/: one per language, and the one without). */
export interface FlushKeys {
  notFound(lang: string | null): string;
  robots: string;
}

/** The cache flushes the changes make, for a site with these language codes. */
export function flushesOf(changes: readonly Change[], langCodes: readonly string[], keys: FlushKeys): Flushes {
  const out: Flushes = { site: false, addresses: [], keys: [], all: false, sitemap: changes.some(changesSitemap) };
  for (const change of changes) {
    if (change.kind === "site") out.site = true;
    else if (change.kind === "settings" && change.keys?.includes("home_page")) {
      // `/` and each language's home answer the page the setting names: whatever was cached
      // there belonged to the page named before.
      out.addresses.push("/", ...langCodes.map((code) => `/${code}/`));
    } else if (change.kind === "settings" && change.keys?.includes("not_found_page")) {
      out.keys.push(keys.notFound(null), ...langCodes.map((code) => keys.notFound(code)));
    } else if (change.kind === "redirects") out.addresses.push(...change.addresses);
    else if (change.kind === "seo" && change.robots) out.keys.push(keys.robots);
    else if (change.kind === "flush") {
      if (change.addresses === "all") out.all = true;
      else out.addresses.push(...change.addresses);
    }
  }
  return out;
}

/** Frames whose output depends on something that changed, each with the reasons why. */
export function framesAffected(index: DependencyIndex, changes: readonly Change[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (slug: string, because: string) => {
    const list = out.get(slug);
    if (!list) out.set(slug, [because]);
    else if (!list.includes(because)) list.push(because);
  };
  const every = (because: string) => {
    for (const frame of index.frames()) add(frame.slug, because);
  };
  /** Frames reading a source that passes `test`, directly or through embedded frames, because of `because`. */
  const reading = (because: string, test: (source: SourceName) => boolean) => {
    for (const frame of index.frames()) {
      for (const source of index.readNames(frame.slug)) {
        if (test(source)) {
          add(frame.slug, because);
          break;
        }
      }
    }
  };
  /** Frames reading one of these sources, each because of the one it reads. */
  const readingAny = (texts: readonly string[]) => {
    const wanted = new Set(texts);
    for (const frame of index.frames()) {
      for (const source of index.readNames(frame.slug)) if (wanted.has(source.text)) add(frame.slug, source.text);
    }
  };
  const kindIn =
    (...kinds: SourceKind[]) =>
    (source: SourceName) =>
      kinds.includes(source.kind);
  for (const change of changes) {
    switch (change.kind) {
      case "settings":
        reading("settings", kindIn("settings", "site"));
        // The default title template names the site (`%s — <site name>`).
        if (change.keys === undefined || change.keys.includes("name")) reading("settings", kindIn("seo"));
        // Menus and stylesheets are kept per theme: a new theme changes what every menu location
        // and every stylesheet link prints.
        if (change.keys?.includes("theme")) reading("menus", kindIn("menu"));
        if (change.keys?.includes("theme")) reading("styles", kindIn("style"));
        // A location added or removed: what menu.<location> reads of it changed (nothing, once removed).
        if (change.locations !== undefined && change.locations.length > 0) {
          const locations = change.locations;
          reading("menu_locations", (s) => s.kind === "menu" && locations.includes(s.location));
        }
        // A page without a language is shown in the default one (`page.lang`); on a site with
        // languages a new default is also a `languages` change, on one without it is only this.
        if (change.keys?.includes("default_lang")) reading("default_lang", kindIn("page"));
        break;
      case "site":
        // A new domain moves every absolute address (site.url, page and menu links).
        if (change.domain) every("site");
        else if (change.name) reading("site", kindIn("settings", "site", "seo"));
        break;
      case "languages":
        // Languages move addresses (prefixes) and the language of every output: all frames.
        every("languages");
        break;
      case "page":
        // Frame-level only: frames that list pages. The page's own output and its relatives'
        // are page-level effects (pagesAffected); a page that menus point to brings a menu
        // change with it (withDerived). A page that only links to a changed one lists the same.
        if (!change.linked) reading("pages", kindIn("pages"));
        break;
      case "dataset": {
        // A data set also stands in for a menu location that has no menu (menu.<name>).
        const name = change.name;
        reading(
          sourceText.data(name),
          (s) => (s.kind === "data" && s.name === name) || (s.kind === "menu" && s.location === name),
        );
        break;
      }
      case "menu": {
        // Only the readers of the locations the menu held before or holds after the write; a
        // change that names none (POST /frames/rebake `menus`) reaches every menu reader.
        const locations = change.locations;
        if (locations === undefined) reading("menus", kindIn("menu"));
        else if (locations.length > 0) reading("menus", (s) => s.kind === "menu" && locations.includes(s.location));
        break;
      }
      case "media":
        // Frames read a file by any name it has or had (`media.<id>`, `media.<slug>`): a new
        // slug reaches the frames waiting for it, a former one those still naming it.
        readingAny(change.refs.map(sourceText.media));
        break;
      case "style":
        // Frames linking one of the stylesheets whose bundle changed (the engine keeps only
        // changes of the site's theme): the link's address holds the bundle's hash.
        readingAny(change.names.map(sourceText.style));
        break;
      case "strings":
        readingAny(change.keys.map(sourceText.text));
        break;
      case "sidebar":
        readingAny([sourceText.sidebar(change.name)]);
        break;
      case "form":
        readingAny([sourceText.form(change.name)]);
        break;
      case "seo":
        if (change.head !== false) reading("seo", kindIn("seo"));
        break;
      case "all":
        every("all");
        break;
      case "pages":
        reading("pages", kindIn("pages", "children", "breadcrumbs", "page", "seo", "sidebar"));
        break;
      case "frame": {
        if (index.get(change.slug)) add(change.slug, "frame");
        // Embedders by slug, and by id: once a frame is deleted its id no longer resolves to
        // its slug, so frames that name it by id are found under the id itself.
        const names = change.frameId ? [change.slug, change.frameId] : [change.slug];
        for (const embedder of index.embeddersOf(names)) add(embedder, `frame ${change.slug}`);
        break;
      }
    }
  }
  return out;
}

/**
 * Pages whose output prints a changed page's data: itself, the children that print their parent,
 * the parents (former and current) that list their children or publish a feed (of their children
 * by default; its cached answer goes with the page's), the descendants printing their
 * breadcrumbs (svc/seo prints a BreadcrumbList too), the translations printing the language links.
 */
export function pagesAffected(
  index: DependencyIndex,
  tree: PageTreeView,
  change: Extract<Change, { kind: "page" }>,
): number[] {
  const reads = (pageId: number, ...kinds: SourceKind[]) => {
    const frameId = tree.get(pageId)?.frame_id;
    const node = frameId ? index.getById(frameId) : undefined;
    return node ? index.readNames(node.slug).some((source) => kinds.includes(source.kind)) : false;
  };
  const current = tree.get(change.pageId)?.parent_id;
  // A page linking to a changed one prints anew; what its relatives print of it did not change,
  // but a parent's feed holds its content as printed (seo/feed.ts), which did.
  if (change.linked) return current && tree.get(current)?.feed === 1 ? [change.pageId, current] : [change.pageId];
  const out = new Set<number>([change.pageId]);
  for (const child of tree.children(change.pageId)) if (reads(child.id, "page")) out.add(child.id);
  for (const parent of [...(change.parents ?? []), ...(current ? [current] : [])]) {
    // A parent with a feed lists its children there unless its frame names another list (seo/feed.ts).
    if (parent && (reads(parent, "children") || tree.get(parent)?.feed === 1)) out.add(parent);
  }
  for (const descendant of tree.descendants(change.pageId))
    if (reads(descendant.id, "breadcrumbs", "seo")) out.add(descendant.id);
  const group = tree.get(change.pageId)?.translation_group;
  if (group !== null && group !== undefined) {
    for (const member of tree.all())
      if (member.translation_group === group && reads(member.id, "languages")) out.add(member.id);
  }
  return [...out];
}

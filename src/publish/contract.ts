// The publish contract (docs/architecture.md): the sources a render reads, and the shapes they
// answer. The engine reaches pages, frames, menus, data, media, stylesheets, SEO, strings and
// sidebars only through `PublishSources`, which the features implement and the app wires in:
// publish/ imports no feature. What a write changed and the context every service is given are
// the write path's vocabulary (src/write/).
import type { Db } from "../store/database.ts";
import type { PageRow } from "../store/schema.ts";
import type { SiteRow } from "../site/sites.ts";
import type { SiteAddressing } from "../site/addresses.ts";
import type { DependencyIndex } from "./dependency-index.ts";

/** The light columns of a page that tree walks need (visibility, descendants, translations). */
export type PageLite = Pick<PageRow, "id" | "parent_id" | "status" | "lang" | "slug" | "path" | "title" | "translation_group" | "frame_id">;

/** A site's pages held in memory (the pages feature's PageTree). */
export interface PageTreeView {
  get(id: number): PageLite | undefined;
  all(): IterableIterator<PageLite>;
  children(id: number): PageLite[];
  descendants(id: number): PageLite[];
  /** Published, and every ancestor published. */
  visible(id: number): boolean;
}

/** Which pages a publish step reads: a write costs what it changes, not the size of the site. */
export interface PageScope {
  /** These pages. */
  pages?: readonly number[];
  /** These pages with their translation partners. */
  partners?: readonly number[];
  /** These pages with their children, descendants and translation partners. */
  families?: readonly number[];
  /** Every page standing on these frames. */
  onFrames?: readonly string[];
}

/** A media file as renders read it (PublishSources.media). */
export interface MediaForRender {
  id: number;
  slug: string;
  url: string;
  mime: string;
  /** `{"<lang>": "…"}`; "" is the site without languages. */
  alt: Readonly<Record<string, string>>;
  width: number | null;
  height: number | null;
  /** Narrower copies of a raster image, narrowest first. */
  variants: ReadonlyArray<{ url: string; width: number }>;
}

/** An item of a documentation sidebar as renders read it (PublishSources.sidebars). */
export interface SidebarItemForRender {
  label: string;
  page: number | null;
  url: string | null;
  valid: boolean;
  open: boolean;
  items: SidebarItemForRender[];
}

/** A page's own SEO fields as renders read them (PublishSources.pages.seo). */
export interface PageSeoForRender {
  title: string | null;
  description: string | null;
  canonical: string | null;
  noindex: boolean;
  og_image: string | null;
}

/** A site's SEO defaults as renders read them (PublishSources.seo). */
export interface SiteSeoForRender {
  /** With `%s` where the page's title goes; the default already applied. */
  title_template: string;
  description: string;
  /** A media reference, or null. */
  og_image: string | null;
  noindex: boolean;
  twitter_site: string;
}

/** What the engine reads of the features, implemented by each feature and wired in by the app. */
export interface PublishSources {
  pages: {
    /** The site's pages in light form, each with its ancestors: every page, or those of `scope`. */
    tree(db: Db, siteId: number, scope?: PageScope): Promise<PageTreeView>;
    page(db: Db, siteId: number, pageId: number): Promise<PageRow | undefined>;
    /** The custom fields of a page. */
    fields(page: PageRow): Record<string, unknown>;
    /** A page's own SEO fields (null: the default). */
    seo(page: PageRow): PageSeoForRender;
    /** The paths of the home page a `home_page` reference names and of its translations, by language ('' for none): SiteAddressing `homes`. */
    homePaths(db: Db, siteId: number, ref: number | string | null, langs: SiteAddressing["langs"]): Promise<ReadonlyMap<string, string>>;
  };
  frames: {
    /** The dependency index of the site's frames; shared, never changed by the reader. */
    index(db: Db, siteId: number): Promise<DependencyIndex>;
    /** Frames by id without their markup. */
    heads(db: Db, ids: readonly string[]): Promise<Array<{ id: string; slug: string; sha256: string; bytes: number }>>;
    /** Frames by id with their markup. */
    markup(db: Db, ids: readonly string[]): Promise<Array<{ id: string; slug: string; sha256: string; html: string }>>;
  };
  menus: {
    /** The menus with an item pointing to the page, by ascending id, each with the location names it is assigned to (any theme or language map). */
    showingPage(db: Db, siteId: number, pageId: number): Promise<Array<{ menuId: number; locations: string[] }>>;
  };
  data: {
    /** The items of a data source; undefined when it names nothing printable. */
    items(db: Db, site: SiteRow, source: string, options: { lang: string | null; pageId?: number; /** the run's, with the home page's paths (read again when absent) */ addressing?: SiteAddressing }): Promise<unknown[] | undefined>;
  };
  media: {
    /**
     * The site's media files named by `refs` (an id as text, or a slug), in one query, keyed by
     * each ref that names one; a ref naming nothing, or a file of another site, is absent.
     */
    byRefs(db: Db, siteId: number, refs: readonly string[]): Promise<Map<string, MediaForRender>>;
  };
  seo: {
    /** The site's SEO defaults as renders print them (defaults where none were written). */
    site(db: Db, siteId: number): Promise<SiteSeoForRender>;
    /** Whether the site's defaults or any of its pages name one of these media refs as their image. */
    usesMedia(db: Db, siteId: number, refs: readonly string[]): Promise<boolean>;
  };
  strings: {
    /** The texts of these keys in `lang`, else in `fallback` (the default language); a key without either is absent. */
    texts(db: Db, siteId: number, keys: readonly string[], lang: string | null, fallback: string | null): Promise<Map<string, string>>;
  };
  sidebars: {
    /** A sidebar's tree in a language, as answered (undefined: no such sidebar). */
    items(db: Db, site: SiteRow, addressing: SiteAddressing, name: string, lang: string | null): Promise<SidebarItemForRender[] | undefined>;
    /** The sidebars showing any of these pages (or, for generated ones, standing over them), by name. */
    showing(db: Db, siteId: number, pageIds: readonly number[]): Promise<string[]>;
  };
  styles: {
    /**
     * The current address of each named stylesheet of the theme (`/styles/<name>.<hash>.css`),
     * its bundle made again first when what it is made from changed; a name the theme does not
     * have is absent.
     */
    links(db: Db, siteId: number, theme: string, names: readonly string[]): Promise<Map<string, string>>;
    /** The theme's stylesheets whose bundles point to one of these media refs, with every stylesheet importing them. */
    usingMedia(db: Db, siteId: number, theme: string, refs: readonly string[]): Promise<string[]>;
  };
}

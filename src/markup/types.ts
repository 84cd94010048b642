// Public types of the markup module. The module is pure: it reads markup strings and a
// RenderContext supplied by the caller, and never does I/O.
import type { RenderBudget } from "./budget.ts";
import type { Program } from "./program.ts";
import type { CurrentPage, MarkEntry } from "./current.ts";

/** A diagnostic. `at` is the UTF-16 offset in the markup it was found in. */
export interface MarkupWarning {
  code: string;
  message: string;
  at: number;
  /** 1-based line and column (UTF-16 units) of `at`: the start of the comment or data-op-bind attribute. */
  line?: number;
  column?: number;
  /** What the warning is about (`name`, `suggestion`, `key`, `source`, …). */
  details?: Record<string, unknown>;
  /** Render warnings raised inside an embedded frame carry that frame's slug (then `at` is an offset in its markup). */
  frame?: string;
}

/** One `svc/frame`, `svc/partial` or `svc/layout` insert and the reference keys it carries, as written. */
export interface FrameRefInsert {
  insert: "svc/frame" | "svc/partial" | "svc/layout";
  at: number;
  /** Reference keys present (name, ref, frame, slug, id) in the order written; numbers stringified. */
  keys: Array<[string, string]>;
}

export interface MarkupAnalysis {
  /** Full insert name -> occurrences (svc/repeat counted once per block). */
  inserts: Record<string, number>;
  inserts_total: number;
  /** Sorted unique names of inserts this module does not know. */
  unknown_inserts: string[];
  /** Sorted unique data sources read directly by this markup. */
  sources: string[];
  /** Where each source is first read (offset of its comment or data-op-bind attribute). */
  source_positions: Record<string, number>;
  /**
   * How a source was first written where that differs from its name (a repeat's `prodcts` is
   * `data.prodcts`): warnings name a source as its author wrote it. Absent in analyses stored
   * before it existed.
   */
  source_written?: Record<string, string>;
  /** In document order; references are raw (the service turns ids into slugs). */
  frame_refs: FrameRefInsert[];
  /** Number of elements carrying a data-op-bind attribute. */
  binds: number;
  bind_tags: string[];
  repeats: number;
  /** Sorted unique tokens used by binds. */
  tokens: string[];
  /** Direct reasons this markup depends on the page shown, first occurrence order. */
  live_reasons: string[];
  has_doctype: boolean;
  has_body: boolean;
  /** The layout frame it is printed inside (`svc/layout`), as written; null without one. */
  layout: string | null;
  /** The slots it offers as a layout ("" the main one), each with whether it has default content. */
  slots: Array<{ name: string; defaults: boolean; at: number }>;
  /** The blocks it fills for the slots up its layout chain. */
  blocks: Array<{ name: string; at: number }>;
  /** Its lists: repeats outside other repeats that sort or page a source (docs/markup.md, "Lists"). */
  lists: ListEntry[];
  warnings: MarkupWarning[];
}

/**
 * A list of a frame, as its svc/repeat names it: what the public site, the sitemap and the feeds
 * count and show without rendering (the first with `page_size` is the page's list).
 */
export interface ListEntry {
  at: number;
  /** The repeat's source, normalised (`pages.children`, `data.news`, …). */
  source: string;
  match: Readonly<Record<string, unknown>> | null;
  /** As written (trimmed); null without one. */
  order_by: string | null;
  offset: number;
  limit: number | null;
  page_size: number | null;
}

/** The page of its list a page is shown at (`<address>page/<n>/`), for svc/pagination and svc/seo. */
export interface ListPage {
  /** From 1. */
  page: number;
  /** Pages of the list: at least 1. */
  pages: number;
  /** The page's own address (absolute, ending in `/`): the list's first page. */
  base: string;
}

export interface CompiledFrame {
  /** The markup exactly as given; static parts of the output are slices of it. */
  html: string;
  analysis: MarkupAnalysis;
  program: Program;
}

export interface MenuNode {
  title: string;
  url: string;
  /** The page a page item points to (null for links): the page shown's item is marked current. */
  page?: number | null;
  target?: string | null;
  classes?: string | null;
  valid: boolean;
  children: MenuNode[];
}

export interface LanguageLink {
  code: string;
  name: string;
  url: string;
  current: boolean;
}

/** A media file of the site as a render prints it (tokens `media.<ref>.*`, svc/image). */
export interface MediaView {
  /** The file's address (site-relative). */
  url: string;
  /** In the language of the output, else the default language's; "" when none was given. */
  alt: string;
  /** The original's size in pixels; null for a file without one. */
  width: number | null;
  height: number | null;
  /** An image (svc/image prints nothing for any other file). */
  image: boolean;
  /** Narrower copies of a raster image, narrowest first; none for other files. */
  variants: ReadonlyArray<{ url: string; width: number }>;
}

/** What `svc/seo` prints for the page shown (publish/seo-head.ts), every URL absolute. */
export interface SeoHead {
  /** The title template applied to the page's SEO title (else its title). */
  title: string;
  /** The page's description, else the site's; "" prints none. */
  description: string;
  /** null: none, and no og:url (the site's 404 page, docs/seo.md). */
  canonical: string | null;
  /** One per published translation, itself included, then `x-default`; none on a site without languages. */
  alternates: ReadonlyArray<{ hreflang: string; href: string }>;
  ogTitle: string;
  /** `website` on the home page, `article` elsewhere. */
  ogType: string;
  /** The page's image, else the site's (an absolute URL); null prints none. */
  image: string | null;
  siteName: string;
  /** `en_US`-style, from the page's language; null without one. */
  locale: string | null;
  twitterSite: string;
  noindex: boolean;
  /** A schema.org WebSite (home page) or BreadcrumbList (other pages); null prints none (the 404 page). */
  jsonLd: unknown;
  /** The previous and next pages of the page's list (`<link rel="prev">`, `rel="next"`); none at its ends. */
  prev?: string;
  next?: string;
  /** The page's Atom feed, or the feed of the page whose list this is a page of. */
  feed?: { href: string; title: string };
}

/** An item of a documentation sidebar as svc/sidebar prints it (invalid pages left out already). */
export interface SidebarNode {
  label: string;
  /** null for a section. */
  url: string | null;
  /** The page shown: its link carries aria-current="page". */
  current: boolean;
  /** An ancestor of the page shown in the page tree: its `<li>` carries class `current-ancestor`. */
  ancestor?: boolean;
  /** A section (or a page with items): printed open. */
  open: boolean;
  items: SidebarNode[];
}

/** The neighbours of the page shown in a sidebar's reading order (svc/pager). */
export interface PagerLinks {
  prev: { label: string; url: string } | null;
  next: { label: string; url: string } | null;
}

/** A heading of the page's content, with the id it carries (svc/toc). */
export interface Heading {
  level: number;
  id: string;
  text: string;
}

/** A field of a form as svc/form prints it: its label in the page's language. */
export interface FormViewField {
  name: string;
  label: string;
  type: string;
  required: boolean;
  max_length: number | null;
  options?: string[];
}

/** A form as svc/form prints it (docs/forms.md). */
export interface FormView {
  name: string;
  /** Where it posts: `/_forms/<name>` on the site's host. */
  action: string;
  fields: FormViewField[];
  /** The submit button's text (`t.form.submit`, else "Send"). */
  submit: string;
  /** The line above a refused submission's fields. */
  invalid: string;
}

export interface RenderContext {
  /** site.*, settings.*, page.*, data.* (and any token outside item.* / vars.*); undefined = no value. */
  value(token: string): unknown;
  /**
   * Items of a svc/repeat source, named as in `MarkupAnalysis.sources` (`pages`, `pages.children`,
   * `breadcrumbs`, `languages`, `site`, `menu.<location>`, `data.<set>`); undefined = unknown source.
   */
  items(source: string): readonly unknown[] | undefined;
  /** Menu tree of a location in the page's language; the renderer skips valid:false nodes. */
  menu(location: string): readonly MenuNode[];
  languageLinks(): readonly LanguageLink[];
  /** A frame by slug or id. */
  frame(ref: string): { slug: string; compiled: CompiledFrame } | undefined;
  /** A media file of the site by id or slug (svc/image); undefined when there is none. */
  media(ref: string): MediaView | undefined;
  /** The address of a stylesheet of the site's theme (svc/styles); undefined when it has none by that name. */
  style(name: string): string | undefined;
  /** The head tags of the page shown (svc/seo); undefined without a page (a frame's own bake). */
  seo(): SeoHead | undefined;
  /** A documentation sidebar in the page's language, the page shown marked; undefined when the site has none by that name. */
  sidebar(name: string): readonly SidebarNode[] | undefined;
  /** The pager of a sidebar for the page shown; undefined when the site has none by that name. */
  pager(name: string): PagerLinks | undefined;
  /** A form of the site, its labels in the page's language (svc/form); undefined when it has none by that name. */
  form?(name: string): FormView | undefined;
  /** The headings of the page's content (svc/toc); none without a page. */
  headings(): readonly Heading[];
  /** The page shown (menus mark its item); null for a bake, which marks each page's copy later (current.ts). */
  current(): CurrentPage | null;
  /** The page of the page's list shown (svc/pagination, and the page's list in svc/repeat); none without a paged list or a page. */
  listPage?(): ListPage | undefined;
}
export interface RenderOptions {
  /** Slug of the frame being rendered, so that a frame embedding itself is caught at once. */
  slug?: string;
  /** Budgets the render stops at (budget.ts); none: unbounded (the markup tests and tools). */
  budget?: RenderBudget;
  /** With a budget: check it only; the output is counted, not kept, and `html` is empty. */
  measure?: boolean;
}

export interface RenderResult {
  html: string;
  /** Sorted unique tokens that got no value. */
  unresolved: string[];
  warnings: MarkupWarning[];
  /** Sorted unique slugs embedded (transitively) while rendering. */
  frames: string[];
  /** Sorted unique references that named no frame. */
  frames_missing: string[];
  /** Insert occurrences executed (embedded frames and repeat iterations included). */
  inserts: number;
  unknown_inserts: string[];
  /** Bound elements written. */
  binds: number;
  bind_tags: string[];
  /** Repeat blocks executed. */
  repeats: number;
  /** Insert output blocks written (marker pairs). */
  blocks: number;
  /** A bake's menu items, whose markers `applyMarks` turns into each page's marks (none: no markers). */
  marks: MarkEntry[];
}

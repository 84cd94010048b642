// The publish contract (docs/architecture.md): what a write reports it changed, what the publish
// step answers (`rebaked`), the one context every feature's service works in, and the sources a
// render reads. Features build Changes and hand them to `ServiceContext.publisher` once their
// transaction has committed; the engine alone decides what a change affects, rebakes, rewrites
// static copies and flushes caches. The engine reaches pages, frames, menus, data, media and
// stylesheets only through `PublishSources`, which the features implement and the app wires in:
// publish/ imports no feature.
import type { Clock } from "../clock.ts";
import type { Db } from "../store/database.ts";
import type { PageRow } from "../store/schema.ts";
import type { SiteRow } from "../site/sites.ts";
import type { SiteAddressing } from "../site/addresses.ts";
import type { DependencyIndex } from "./dependency-index.ts";

export type Change =
  /** Settings changed; `keys` the ones that did (name, tagline, theme, default_lang, home_page); absent: read as name and tagline (what frames print of settings). */
  | { kind: "settings"; keys?: readonly SettingKey[] }
  | { kind: "languages" }
  /** A page's own record changed (title, slug, path, status, content, fields, frame, parent, lang). */
  | { kind: "page"; pageId: number; /** the parent before and after, when it moved */ parents?: number[]; /** it left the public site (unpublished, trashed, deleted, taken off its frame) */ gone?: boolean }
  | { kind: "dataset"; name: string }
  /**
   * A menu's items or location assignments changed. `locations`: the location names (across every
   * theme and language map) it is assigned to before and after the write; only frames reading
   * `menu.<location>` of those are affected ([]: it prints nowhere). Absent: every menu reader.
   */
  | { kind: "menu"; menuId: number; locations?: readonly string[] }
  /**
   * A frame was written, renamed or deleted. `output: false` says its own output did not change
   * (a rename): without a bake, its pages keep their static copies.
   */
  | { kind: "frame"; frameId: string; slug: string; output?: boolean }
  /**
   * A media file was uploaded, given new bytes, changed (alt, title, slug) or deleted. `refs`: the
   * names frames may read it by — its id as text, its slug, and its former slug after a rename;
   * frames reading `media.<ref>` of any of them are affected.
   */
  | { kind: "media"; mediaId: number; refs: readonly string[] }
  /**
   * Stylesheets of a theme got new bundles (written, deleted, or a media file they point to
   * changed). `names`: the stylesheet and every stylesheet importing it; frames linking any of
   * them (`style.<name>`) are affected, while `theme` is the site's theme.
   */
  | { kind: "style"; theme: string; names: readonly string[] }
  /** POST /frames/rebake selectors without a finer change: every frame, or page-printing frames. */
  | { kind: "all" }
  | { kind: "pages" }
  /**
   * The site's own row changed (created, renamed, given a new domain, deleted): hosts map anew
   * and its cached pages go. A new `name` reaches what prints it; a new `domain` every absolute
   * address (all frames and pages).
   */
  | { kind: "site"; name?: boolean; domain?: boolean }
  /**
   * Redirects were made or removed at these public addresses (canonical, with their language
   * prefix): a page's address changed, a page took an address over, or one was written by hand.
   * What those addresses answer changed; no frame prints it.
   */
  | { kind: "redirects"; addresses: readonly string[] }
  /**
   * The site's SEO defaults changed. `head` (absent: true): what frames printing `svc/seo`
   * (source `seo`) print — title template, description, image, noindex, Twitter site.
   * `robots`: what robots.txt says (noindex, robots_extra).
   */
  | { kind: "seo"; head?: boolean; robots?: boolean }
  /**
   * A documentation sidebar was written or deleted, or the pages it shows changed (the engine
   * adds this for page changes): frames reading `sidebar.<name>` (svc/sidebar, svc/pager).
   */
  | { kind: "sidebar"; name: string }
  /** Texts of strings (`t.<key>`) changed in some language: frames reading those keys. */
  | { kind: "strings"; keys: readonly string[] }
  /** Cached renders to drop after changes made outside the API (POST /cache/flush). */
  | { kind: "flush"; addresses: readonly string[] | "all" };

export type SettingKey = "name" | "tagline" | "theme" | "default_lang" | "home_page" | "not_found_page";

/** The `rebaked` object that write answers carry (spec, POST /frames/rebake). */
export interface Rebaked {
  status: "ok" | "unavailable" | "failed";
  total: number;
  baked: number;
  not_needed: number;
  frames: Array<{ id: string; slug: string; because: string[]; bake: string; detail?: unknown }>;
  /** Ids of pages whose public output was rewritten or flushed. */
  pages: number[];
  cache: {
    status: string;
    scope: string;
    pages: number[];
    flushed: { urls: { status: string; by: string; urls: string[]; skipped: string[] } };
  };
  skipped?: string[];
}

export interface PublishOptions {
  /** At most this many frames are rebaked; the rest are listed in `skipped` (POST /frames/rebake: 25). */
  limit?: number;
  /**
   * `false` (spec, Frames: common rules 5): nothing is rendered. The pages whose output the
   * changes alter lose their static copy and cached render, so they render on request from what
   * is saved until the next bake; the frames that embed a changed frame are listed in `skipped`.
   */
  bake?: boolean;
  /** What the write's `check` answered: its renders are reused where still exact (trial-handoff.ts). */
  trial?: Trial;
  /** Frames rebaked first, before the others in slug order (a trial's own frames, within its limit). */
  first?: readonly string[];
  /** The outbox row the write owes this publish by (`owe`): deleted once the run is over (outbox.ts). */
  owed?: number;
}

/** A page's render read and ready to run (opaque: the engine's PreparedRender). */
export interface PreparedPage {
  readonly siteId: number;
}

/** What a check rendered, handed to the `changed` call of the same write (opaque). */
export interface Trial {
  readonly kind: "trial";
}

/** The change sink: the one way a feature announces what it changed. */
export interface Publisher {
  /**
   * Inside the write's transaction, before it commits: renders what the changes would rebake and
   * writes nothing; throws the service error `render_too_large` (`budget`, `chain`) when a bake
   * would go past a render budget, so the write rolls back. Its answer goes in the options of
   * the write's `changed` call, so what it rendered is not rendered again.
   */
  check(trx: Db, siteId: number, changes: Change[], options?: PublishOptions): Promise<Trial | undefined>;
  /** Rebakes and flushes whatever the changes affect on that site; never throws for a render fault. */
  changed(siteId: number, changes: Change[], options?: PublishOptions): Promise<Rebaked>;
  /**
   * Inside the write's transaction: records what it owes the public site (publish/outbox.ts),
   * answered as `owed` to its `changed` call, which pays it. A publisher without it (a recorder in
   * tests) keeps nothing.
   */
  owe?(trx: Db, siteId: number, changes: readonly Change[], options?: PublishOptions): Promise<number>;
  /**
   * Renders page `page` of the site in `lang` as its public address would show it, reading through
   * `db` (default: the store; a preview's transaction), bounded by the render budgets; writes and
   * caches nothing; null when the page stands on no frame. The engine implements it; a publisher
   * that only records changes (tests) may leave it out, and then nothing can be previewed.
   */
  renderPage?(siteId: number, page: PageRow, lang: string | null, db?: Db): Promise<string | null>;
  /**
   * `renderPage` in two steps: what the render reads, read through `db` (a preview's transaction)
   * into plain data, then rendered once that transaction is over (`renderPrepared`), so a slow
   * render never runs while the transaction holds the database's write lock. Null: no frame.
   */
  preparePage?(siteId: number, page: PageRow, lang: string | null, db?: Db): Promise<PreparedPage | null>;
  renderPrepared?(prepared: PreparedPage): Promise<string>;
  /**
   * Runs a write's transaction `work` (on SQLite, twice: the trial `check` inside it renders with
   * no transaction open, rehearsal.ts). The engine implements it; without it (a recorder in
   * tests) the work runs in a plain transaction.
   */
  write?<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T>;
}

/**
 * Inside a write's transaction, before it commits: records the changes the write will announce
 * (the durable outbox, publish/outbox.ts); answers what its `changed` call takes as `owed`.
 */
export async function oweChanges(ctx: Pick<ServiceContext, "publisher">, trx: Db, siteId: number, changes: readonly Change[], options: PublishOptions = {}): Promise<number | undefined> {
  if (changes.length === 0 || !ctx.publisher.owe) return undefined;
  return ctx.publisher.owe(trx, siteId, changes, options);
}

/**
 * How a write that may ask for a trial opens its transaction: through the publisher, so that the
 * trial renders outside it (the work may run twice, as a dry run's does: it must only write
 * through `trx`). Plugs into `dryRunnable` (store/dry-run.ts) as its `transaction`.
 */
export function transactionWithTrial(ctx: Pick<ServiceContext, "db" | "publisher">): <T>(work: (trx: Db) => Promise<T>) => Promise<T> {
  return (work) => (ctx.publisher.write ? ctx.publisher.write(ctx.db, work) : ctx.db.transaction().execute(work));
}

/** What every feature's service is given besides its typed input. */
export interface ServiceContext {
  db: Db;
  clock: Clock;
  /** Port the public site is served on; part of every absolute address. */
  publicPort: number;
  /** Where committed changes are announced; answers the `rebaked` report. */
  publisher: Publisher;
}

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

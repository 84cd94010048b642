// What a write says it changed, and what publishing answers: the vocabulary every layer from
// the write pipeline up shares (docs/architecture.md, "The write path"). A capability states its
// write's changes; src/effects/effects.ts decides what they affect.
export type Change =
  /** Settings changed; `keys` the ones that did (name, tagline, theme, default_lang, home_page, not_found_page, menu_locations); absent: read as name and tagline (what frames print of settings). */
  | {
      kind: "settings";
      keys?: readonly SettingKey[];
      /**
       * With `home_page` among the keys: the page reference it named before and names now (as
       * written). What that moves — the two home pages' families and their own addresses — is
       * decided by effects/effects.ts (`homeMoves`).
       */
      homes?: { before: number | string | null; after: number | string | null };
      /**
       * With `menu_locations` among the keys: the locations the site's list lost and gained. Frames
       * reading `menu.<location>` of those print anew (a location removed reads nothing).
       */
      locations?: readonly string[];
    }
  | { kind: "languages" }
  /** A page's own record changed (title, slug, path, status, content, fields, frame, parent, lang). */
  | {
      kind: "page";
      pageId: number /** the parent before and after, when it moved */;
      parents?: number[] /** it left the public site (unpublished, trashed, deleted, taken off its frame) */;
      gone?: boolean;
      /**
       * Brought by another change (effects/effects.ts `withDerived`): only what the page's
       * Markdown content prints of a page it links to or a file it shows changed, not its record.
       */
      linked?: boolean;
    }
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
  /** A form was written or deleted: frames printing it (`svc/form`, source `form.<name>`). */
  | { kind: "form"; name: string }
  /** Texts of strings (`t.<key>`) changed in some language: frames reading those keys. */
  | { kind: "strings"; keys: readonly string[] }
  /** Cached renders to drop after changes made outside the API (POST /cache/flush). */
  | { kind: "flush"; addresses: readonly string[] | "all" };

/** The kinds of object a write may write: what the outbox, revisions and (later) events name. */
export type WrittenKind =
  | "frame"
  | "page"
  | "menu"
  | "dataset"
  | "media"
  | "style"
  | "sidebar"
  | "strings"
  | "settings"
  | "language"
  | "seo"
  | "redirect"
  | "site"
  | "domain"
  | "user"
  | "token"
  | "session"
  | "membership"
  | "quota"
  | "preview_link"
  | "cache"
  | "webhook"
  | "form"
  | "form_submission";

export type WrittenAction = "created" | "updated" | "deleted" | "restored" | "renamed";

/** One object a write wrote. `id` as its kind names it (a frame's id, a page's number as text, a data set's `name:lang`…). */
export interface Written {
  kind: WrittenKind;
  id: string;
  action: WrittenAction;
  /** The object's slug or name as it stands after the write (its event's `object.slug`). */
  slug?: string | null;
  /** The event's verb when it says more than `action` (a page `published` or `unpublished`). */
  verb?: string;
  /** The fields the write set (its event's `changes.fields`; `html` for markup). */
  fields?: readonly string[];
}

export type SettingKey =
  | "name"
  | "tagline"
  | "theme"
  | "default_lang"
  | "home_page"
  | "not_found_page"
  | "menu_locations";

/** The `rebaked` object that write answers carry (docs/frames.md, "Rebake"). */
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
   * `false` (docs/frames.md, "`bake: false`"): nothing is rendered. The pages whose output the
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

/** The report of a change that affected no frame and no page; `urls` the cached addresses it flushed. */
export function nothingRebaked(urls: string[] = []): Rebaked {
  return {
    status: "ok",
    total: 0,
    baked: 0,
    not_needed: 0,
    frames: [],
    pages: [],
    cache: {
      status: "ok",
      scope: "pages",
      pages: [],
      flushed: { urls: { status: "ok", by: "api", urls, skipped: [] } },
    },
  };
}

// Row types of every table. Booleans are stored as 0/1 integers and timestamps as
// `YYYY-MM-DD HH:MM:SS` GMT text in both dialects, so one query path serves SQLite and PostgreSQL.
import type { Generated, Selectable } from "kysely";
import type {
  PreviewLinksTable,
  PublishOutboxTable,
  RevisionsTable,
  EventsTable,
  SiteQuotasTable,
  SiteUsageTable,
  TrashTable,
} from "./schema-kept.ts";
import type { WebhookDeliveriesTable, WebhooksTable } from "./schema-hooks.ts";
import type { RedirectsTable, SiteSeoLanguagesTable, SiteSeoTable } from "./schema-seo.ts";
import type { FormKeysTable, FormNotificationsTable, FormSubmissionsTable, FormsTable } from "./schema-forms.ts";

export interface SitesTable {
  id: Generated<number>;
  name: string;
  domain: string;
  /** The primary domain's `site_domains.https`, copied as `domain` is (docs/domains.md, "Schemes"). */
  https: number | null;
  /** The origin the site's kept output was printed with; null before any (network/printed-origins.ts). */
  printed_origin: string | null;
  created_at_gmt: string;
}

/** Every domain of every site (docs/domains.md), normalised; `sites.domain` is the primary one's copy. */
export interface SiteDomainsTable {
  domain: string;
  site_id: number;
  /** 1 for the site's primary domain, 0 for an alias. */
  is_primary: number;
  /** 1: served over HTTPS, 0: over plain HTTP, null: as SVC_PUBLIC_SCHEME says (docs/domains.md, "Schemes"). */
  https: number | null;
}

export interface UsersTable {
  id: Generated<number>;
  login: string;
  email: string | null;
  password_hash: string | null;
  super_admin: number;
  created_at_gmt: string;
}

/** A sign-in session of the admin: only the SHA-256 of its cookie's secret is stored. */
export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  hash: string;
  created_at_gmt: string;
  /** When it was last used, to the minute (docs/security.md, "Sessions"). */
  seen_at_gmt: string;
}

export interface MembershipsTable {
  site_id: number;
  user_id: number;
  role: string;
}

export interface TokensTable {
  id: Generated<number>;
  user_id: number;
  label: string | null;
  hash: string;
  created_at_gmt: string;
  last_issued_at_gmt: string;
  /** 1: the token reads only (every write refused, 403 read_only_token); 0 else. */
  read_only: Generated<number>;
}

export interface FramesTable {
  id: string;
  site_id: number;
  slug: string;
  block: string;
  element: string | null;
  modifier: string | null;
  html: string;
  bytes: number;
  sha256: string;
  analysis_json: string;
  revision: Generated<number>;
  created_at_gmt: string;
  updated_at_gmt: string;
  updated_by: number;
}

export interface FrameBakesTable {
  frame_id: string;
  site_id: number;
  lang: string;
  html: string;
  bytes: number;
  report_json: string;
  baked_at_gmt: string;
}

export interface StaticCopiesTable {
  site_id: number;
  page_id: number;
  address: string;
  frame_id: string;
  html: string;
  bytes: number;
  sha256: string;
  written_at_gmt: string;
}

// Content model (docs/content-model.md): settings, languages, pages, data sets.

export interface SiteSettingsTable {
  site_id: number;
  tagline: string;
  theme: string;
  default_lang: string | null;
  home_page_json: string | null;
  /** The page shown with status 404 for unknown addresses (a reference as written), or null. */
  not_found_page_json: string | null;
  /** The host names an editor's `<iframe src>` may name, a JSON array (0190_iframe_hosts); null: none. */
  iframe_hosts_json: string | null;
  /** The site's menu locations, a JSON array of names (0240_menu_locations); null: the default ones. */
  menu_locations_json: string | null;
  updated_at_gmt: string;
}

export interface LanguagesTable {
  site_id: number;
  code: string;
  name: string;
  position: number;
  created_at_gmt: string;
}

export interface PagesTable {
  id: Generated<number>;
  site_id: number;
  parent_id: number;
  /** '' while the page has no language. */
  lang: string;
  slug: string;
  path: string;
  title: string;
  status: string;
  content: string;
  fields_json: string;
  frame_id: string | null;
  translation_group: number | null;
  /** The page's own SEO fields (title, description, canonical, noindex, og_image); `{}` for none. */
  seo_json: Generated<string>;
  /** The order among siblings in generated sidebars (docs/sidebars.md); 0 unless set. */
  menu_order: Generated<number>;
  /** `html` or `markdown`: what `content` is written in. */
  content_format: Generated<string>;
  /** `raw` or `sanitized`: how the raw HTML of Markdown content is printed (docs/content-model.md, "Markdown"). */
  content_trust: Generated<string>;
  /** The publication date (`YYYY-MM-DD HH:MM:SS`, UTC); null until set or first published. */
  date_gmt: string | null;
  /** A JSON list of texts. */
  tags_json: Generated<string>;
  /** 1: the page publishes an Atom feed of its list (`<address>feed.xml`). */
  feed: Generated<number>;
  /** The key of its Atom ids when it came from another instance (migration 0360); null: made of the page as it is. */
  atom_key: Generated<string | null>;
  created_at_gmt: string;
  updated_at_gmt: string;
}

/** A `page:` or `media:` reference of a Markdown page's content (migration 0240). */
export interface PageRefsTable {
  site_id: number;
  page_id: number;
  kind: "page" | "media";
  /** As written after the scheme. */
  ref: string;
  /** A page reference: the page it named when the content was written; null for none, and for media. */
  target_id: number | null;
}

export interface DatasetsTable {
  site_id: number;
  name: string;
  /** '' for the shared set. */
  lang: string;
  items_json: string;
  total: number;
  created_at_gmt: string;
  updated_at_gmt: string;
}

// Menus (docs/menus.md): menus, their items and the location maps (per theme, and per language).

export interface MenusTable {
  id: Generated<number>;
  site_id: number;
  name: string;
  slug: string;
  term_taxonomy_id: number;
  created_at_gmt: string;
  updated_at_gmt: string;
}

export interface MenuItemsTable {
  id: Generated<number>;
  site_id: number;
  menu_id: number;
  /** 0 at the top level. */
  parent_id: number;
  /** 1-based among the items of one parent. */
  position: number;
  /** `post_type` or `custom`. */
  type: string;
  page_id: number | null;
  url: string | null;
  /** null: the default title (the page's, or the link's). */
  title: string | null;
  target: string;
  classes: string;
  created_at_gmt: string;
  updated_at_gmt: string;
}

export interface MenuLocationsTable {
  site_id: number;
  theme: string;
  location: string;
  /** '' for the theme map, else the language's map. */
  lang: string;
  menu_id: number;
}

// Quotas (docs/security.md): the limits set per site (a quota without a row has its default) and the
// running counters of each site's use. Both bigint: on PostgreSQL they are read as strings, so
// src/quotas/ reads them through Number().

export interface MediaTable {
  id: Generated<number>;
  site_id: number;
  slug: string;
  filename: string;
  mime: string;
  /** image, video, audio, font or document */
  kind: string;
  bytes: number;
  sha256: string;
  width: number | null;
  height: number | null;
  /** {"<lang>": "…"}; "" is a site without languages */
  alt_json: string;
  title_json: string;
  /** what ?search= looks in: file name, alts and titles, lower-cased (default "") */
  search_text: Generated<string>;
  created_at_gmt: string;
  updated_at_gmt: string;
  updated_by: number;
}

/** A variant of a media file kept and charged to the site that made it (0160; media/variant-charges.ts). */
export type MediaVariantsTable = { media_id: number; site_id: number; width: number; bytes: number };

// Stylesheets: each stylesheet of a site and theme as uploaded, and the bundles the
// public site serves (docs/styles.md).

export interface StylesTable {
  site_id: number;
  theme: string;
  name: string;
  /** exactly as uploaded */
  css: string;
  /** UTF-8 bytes of `css` */
  bytes: number;
  sha256: string;
  /** the stylesheets it bundles (`@import "<name>"`), in order, as a JSON array of names */
  imports_json: string;
  /** the media refs its `url(media:<ref>)` name, as a JSON array */
  media_json: string;
  created_at_gmt: string;
  updated_at_gmt: string;
}

export interface StyleCopiesTable {
  site_id: number;
  theme: string;
  name: string;
  /** first 16 hex digits of the sha256 of `css`: the address `/styles/<name>.<hash>.css` */
  hash: string;
  /** what the bundle was made from (stylesheets, media addresses, build settings) */
  source_key: string;
  /** the bundle as served: minified */
  css: string;
  br: Buffer;
  gzip: Buffer;
  /** what it weighs against published_bytes: `css` as UTF-8, `br` and `gzip` */
  bytes: number;
  created_at_gmt: string;
  /** null for the current copy; a replaced copy answers for 24 hours after this time */
  replaced_at_gmt: string | null;
}

/** A named documentation sidebar of a site (docs/sidebars.md). */
export interface SidebarsTable {
  site_id: number;
  name: string;
  /** The next item id handed out; ids are unique in the sidebar and never reused. */
  next_item_id: number;
  created_at_gmt: string;
  updated_at_gmt: string;
}

/** One language's tree of a sidebar ('' for the default language's). */
export interface SidebarTreesTable {
  site_id: number;
  name: string;
  lang: string;
  /** The page whose descendants make the tree, or null for a tree written by hand. */
  root_id: number | null;
  /** The hand-made tree (items with ids; page items hold page ids); `[]` for a generated one. */
  items_json: string;
  updated_at_gmt: string;
}

/** A text frames print with `t.<key>`, in one language ('' on a site without languages). */
export interface StringsTable {
  site_id: number;
  lang: string;
  key: string;
  text: string;
}

export interface Tables {
  frames: FramesTable;
  frame_bakes: FrameBakesTable;
  static_copies: StaticCopiesTable;
  sites: SitesTable;
  site_domains: SiteDomainsTable;
  users: UsersTable;
  memberships: MembershipsTable;
  tokens: TokensTable;
  sessions: SessionsTable;
  events: EventsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  site_settings: SiteSettingsTable;
  languages: LanguagesTable;
  pages: PagesTable;
  page_refs: PageRefsTable;
  datasets: DatasetsTable;
  menus: MenusTable;
  menu_items: MenuItemsTable;
  menu_locations: MenuLocationsTable;
  site_quotas: SiteQuotasTable;
  site_usage: SiteUsageTable;
  media: MediaTable;
  media_variants: MediaVariantsTable;
  styles: StylesTable;
  style_copies: StyleCopiesTable;
  site_seo: SiteSeoTable;
  site_seo_languages: SiteSeoLanguagesTable;
  redirects: RedirectsTable;
  sidebars: SidebarsTable;
  sidebar_trees: SidebarTreesTable;
  strings: StringsTable;
  revisions: RevisionsTable;
  trash: TrashTable;
  preview_links: PreviewLinksTable;
  publish_outbox: PublishOutboxTable;
  forms: FormsTable;
  form_submissions: FormSubmissionsTable;
  form_notifications: FormNotificationsTable;
  form_keys: FormKeysTable;
}

/** A page row as read. */
export type PageRow = Selectable<PagesTable>;

// Row types of a site's SEO tables (docs/seo.md): its defaults, per language, and its redirects.
// Part of the schema (schema.ts), kept apart as schema-kept.ts and schema-hooks.ts are.
import type { Generated } from "kysely";

/** A site's SEO defaults (docs/seo.md); no row: every default. */
export interface SiteSeoTable {
  site_id: number;
  /** null: `%s — <site name>`. */
  title_template: string | null;
  description: string;
  /** A media reference (id or slug) as written, or null. */
  og_image: string | null;
  noindex: number;
  twitter_site: string;
  robots_extra: string;
  updated_at_gmt: string;
}

/** A language's own SEO defaults (docs/seo.md); null: it follows the default language's. */
export interface SiteSeoLanguagesTable {
  site_id: number;
  lang: string;
  title_template: string | null;
  description: string | null;
  /** A media reference (id or slug) as written. */
  og_image: string | null;
  updated_at_gmt: string;
}

/** An address of a site answering a redirect (docs/seo.md). */
export interface RedirectsTable {
  id: Generated<number>;
  site_id: number;
  /** The canonical address redirected, with its language prefix (`/old/`, `/de/alt/`). */
  from_path: string;
  /** A site path or an absolute URL, sent as it is in Location. */
  to_target: string;
  status: number;
  /** 1 when made because a page's address changed. */
  auto: number;
  created_at_gmt: string;
}

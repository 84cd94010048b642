// Where a page answers: `http://<domain>[:port]` + the language prefix + its path + `/`.
// A page's `path` has no language prefix (`/company/team`); its `url` has it (CONTRACT §9).
import { langPathPrefix, languageState, type LanguageState } from "./languages.ts";
import type { Db } from "../store/database.ts";

/** `http://<domain>[:port]/`: the address where the site's public pages answer. */
export function homeUrl(domain: string, port: number): string {
  return `http://${domain}${port === 80 || port === 0 ? "" : `:${port}`}/`;
}

export interface SiteAddressing {
  /** `http://<domain>[:port]`, no trailing slash. */
  origin: string;
  langs: LanguageState;
}

export async function siteAddressing(db: Db, site: { id: number; domain: string }, port: number): Promise<SiteAddressing> {
  return { origin: homeUrl(site.domain, port).replace(/\/$/, ""), langs: await languageState(db, site.id) };
}

/** The page's public address. `lang` is '' or null for a page without a language. */
export function pageUrl(addressing: SiteAddressing, lang: string | null, path: string): string {
  return `${addressing.origin}${langPathPrefix(addressing.langs, lang || null)}${path}/`;
}

/** The home address of a language (or of the site, for null). */
export function languageHomeUrl(addressing: SiteAddressing, lang: string | null): string {
  return `${addressing.origin}${langPathPrefix(addressing.langs, lang)}/`;
}

/** `/about` and `/about/` are one address; the query string is not part of it. */
export function addressOfUrl(url: string): string {
  const path = url.split(/[?#]/, 1)[0] || "/";
  return path.endsWith("/") ? path : `${path}/`;
}

export function hostOf(header: string | undefined): string {
  return (header ?? "").replace(/:\d+$/, "").replace(/^\[|\]$/g, "").toLowerCase();
}

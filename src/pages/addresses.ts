// Where a page answers: `http://<domain>[:port]` + the language prefix + its path + `/`.
// A page's `path` has no language prefix (`/company/team`); its `url` has it (CONTRACT §9).
import { homeUrl } from "../network/context.ts";
import { langPathPrefix, languageState, type LanguageState } from "../settings/languages.ts";
import type { Db } from "../store/database.ts";

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

export function childPath(parentPath: string, slug: string): string {
  return `${parentPath}/${slug}`;
}

/**
 * The segments of a path given as input: a full address is reduced to its path, query and
 * fragment are dropped, empty segments vanish, segments are lower-cased and percent-decoded.
 */
export function pathSegments(input: string): string[] {
  let path = input.trim();
  const full = /^[a-z][a-z0-9+.-]*:\/\/[^/]*(.*)$/i.exec(path);
  if (full) path = full[1];
  path = path.replace(/[?#].*$/, "");
  return path
    .split("/")
    .map((segment) => {
      try {
        return decodeURIComponent(segment).trim().toLowerCase();
      } catch {
        return segment.trim().toLowerCase();
      }
    })
    .filter((segment) => segment !== "");
}

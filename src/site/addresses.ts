// Where a page answers: `<scheme>://<domain>[:port]` + the language prefix + its path + `/`.
// A page's `path` has no language prefix (`/company/team`); its `url` has it.
//
// Every address the service prints of a site starts with `siteOrigin` (docs/domains.md, "Schemes"):
// the domain's scheme (its own `https`, else SVC_PUBLIC_SCHEME), and a port only when it is not
// that scheme's default (80, 443). The port of SVC_PUBLIC_SCHEME's addresses is SVC_PUBLIC_PORT;
// a domain whose scheme differs from it is served by the proxy on its scheme's default port.
import { langPathPrefix, languageState, type LanguageState } from "./languages.ts";
import type { PublicFront, Scheme } from "../config.ts";
import type { Db } from "../store/database.ts";

/** What an address is made of: a domain and what it says of its scheme (1 https, 0 http, null SVC_PUBLIC_SCHEME's). */
export interface SchemedDomain {
  domain: string;
  https: number | null;
}

const DEFAULT_PORTS: Record<Scheme, number> = { http: 80, https: 443 };

/** The scheme a domain's addresses are printed with. */
export function schemeOf(https: number | null, front: PublicFront): Scheme {
  return https === null ? front.publicScheme : https === 1 ? "https" : "http";
}

/** `<scheme>://<domain>[:port]`, no trailing slash: where the domain's public pages answer. */
export function siteOrigin(site: SchemedDomain, front: PublicFront): string {
  const scheme = schemeOf(site.https, front);
  const port = scheme === front.publicScheme ? front.port : DEFAULT_PORTS[scheme];
  return `${scheme}://${site.domain}${port === DEFAULT_PORTS[scheme] || port === 0 ? "" : `:${port}`}`;
}

/** `<scheme>://<domain>[:port]/`: the address where the site's public pages answer. */
export function homeUrl(site: SchemedDomain, front: PublicFront): string {
  return `${siteOrigin(site, front)}/`;
}

export interface SiteAddressing {
  /** `<scheme>://<domain>[:port]`, no trailing slash (`siteOrigin`). */
  origin: string;
  langs: LanguageState;
  /**
   * The home page and its translations, their paths by language ('' for a page without one), when
   * the reader resolved them (pages/home.ts): links to them print `/` and `/<lang>/`, where they
   * answer, not their own paths (which redirect there). Absent: links print every page's own path.
   */
  homes?: ReadonlyMap<string, string>;
}

export async function siteAddressing(
  db: Db,
  site: SchemedDomain & { id: number },
  front: PublicFront,
): Promise<SiteAddressing> {
  return { origin: siteOrigin(site, front), langs: await languageState(db, site.id) };
}

/**
 * The page's address on its site, without the origin: the language prefix, its path and `/`
 * (`/de/ueber/`), what the page cache and redirects are keyed by. `lang` is '' or null for a page
 * without a language.
 */
export function pageAddress(addressing: Pick<SiteAddressing, "langs">, lang: string | null, path: string): string {
  return `${langPathPrefix(addressing.langs, lang || null)}${path}/`;
}

/** The page's public address. `lang` is '' or null for a page without a language. */
export function pageUrl(addressing: SiteAddressing, lang: string | null, path: string): string {
  return `${addressing.origin}${pageAddress(addressing, lang, path)}`;
}

/**
 * Where a link to a page points: the page's public address, or, for the home page and its
 * translations (`addressing.homes`), its language's home address, where it answers.
 */
export function linkUrl(addressing: SiteAddressing, lang: string | null, path: string): string {
  return isHomeAddress(addressing, lang, path)
    ? languageHomeUrl(addressing, lang || addressing.langs.defaultLang)
    : pageUrl(addressing, lang, path);
}

/** Whether the page at `path` in `lang` is the home page or one of its translations (`addressing.homes`): it answers at `/` or `/<lang>/`. */
export function isHomeAddress(addressing: SiteAddressing, lang: string | null, path: string): boolean {
  return addressing.homes?.get(lang || "") === path;
}

/** The home address of a language (or of the site, for null). */
export function languageHomeUrl(addressing: SiteAddressing, lang: string | null): string {
  return `${addressing.origin}${langPathPrefix(addressing.langs, lang)}/`;
}

export function hostOf(header: string | undefined): string {
  return (header ?? "")
    .replace(/:\d+$/, "")
    .replace(/^\[|\]$/g, "")
    .toLowerCase();
}

// ---- One address, one cache entry (docs/security.md)
//
// A page answers at one address, written one way: `/` and lower-case segments (page slugs and
// language codes are lower case, so that is the case of the stored slug), single slashes and a
// trailing slash. Other spellings of it (`/About/`, `/%61bout/`, `//about/`, `/about`) are
// variants: the public site redirects them, never renders or caches them under a key of their own.

const SLASH = 47;
const PERCENT = 37;
const QUESTION = 63;
const HASH = 35;

/** Where the path of a request target ends: at its first `?` or `#`, else its length. */
export function pathEndOf(url: string): number {
  for (let i = 0; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === QUESTION || c === HASH) return i;
  }
  return url.length;
}

/**
 * The hot path's check (no allocation): where the path ends when it is already written the one
 * way (starts and ends with `/`, no `//`, no upper-case letter, no `%`), else -1. A path with a
 * `%` may still be canonical (`/%C3%BC/`); it takes the slow path, which says so.
 */
export function canonicalPathEnd(url: string): number {
  if (url.charCodeAt(0) !== SLASH) return -1;
  let previous = SLASH;
  for (let i = 1; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === QUESTION || c === HASH) return previous === SLASH ? i : -1;
    if (c === PERCENT || (c >= 65 && c <= 90) || (c === SLASH && previous === SLASH)) return -1;
    previous = c;
  }
  return previous === SLASH ? url.length : -1;
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

/** RFC 3986 unreserved: ALPHA DIGIT - . _ ~ */
function unreserved(c: number): boolean {
  return (
    (c >= 65 && c <= 90) ||
    (c >= 97 && c <= 122) ||
    (c >= 48 && c <= 57) ||
    c === 45 ||
    c === 46 ||
    c === 95 ||
    c === 126
  );
}

/**
 * The canonical form of a path (no query string): percent-encoded unreserved characters decoded
 * and every other escape written with upper-case hex (RFC 3986 §6.2.2), runs of slashes made one,
 * ASCII letters lower-cased, a trailing slash added. Null when its percent-encoding is malformed
 * (a `%` not followed by two hex digits). Dot segments and escapes of reserved or non-ASCII
 * characters stay as they are: no page address holds them, so they answer 404.
 */
export function canonicalPath(path: string): string | null {
  let out = "";
  let previous = 0;
  for (let i = 0; i < path.length; i++) {
    let c = path.charCodeAt(i);
    if (c === PERCENT) {
      const high = hexValue(path.charCodeAt(i + 1));
      const low = hexValue(path.charCodeAt(i + 2));
      if (high < 0 || low < 0) return null;
      i += 2;
      const byte = high * 16 + low;
      if (!unreserved(byte)) {
        out += `%${path[i - 1].toUpperCase()}${path[i].toUpperCase()}`;
        previous = PERCENT;
        continue;
      }
      c = byte;
    }
    if (c === SLASH && previous === SLASH) continue;
    out += String.fromCharCode(c >= 65 && c <= 90 ? c + 32 : c);
    previous = c;
  }
  return previous === SLASH ? out : `${out}/`;
}

/**
 * A query string (without its `?`) written one way, as its path is: escapes of unreserved
 * characters decoded, every other escape in upper-case hex, and characters outside printable ASCII
 * escaped; nothing else changes (`+`, parameter order and case stay). "" for none; null when its
 * percent-encoding is malformed. What redirects of one query string are matched by (docs/seo.md).
 */
export function canonicalQuery(query: string): string | null {
  let out = "";
  for (let i = 0; i < query.length; i++) {
    const c = query.charCodeAt(i);
    if (c === PERCENT) {
      const high = hexValue(query.charCodeAt(i + 1));
      const low = hexValue(query.charCodeAt(i + 2));
      if (high < 0 || low < 0) return null;
      const byte = high * 16 + low;
      out += unreserved(byte) ? String.fromCharCode(byte) : `%${query.slice(i + 1, i + 3).toUpperCase()}`;
      i += 2;
    } else if (c <= 0x20 || c >= 0x7f) {
      // A code point at a time, so a surrogate pair is escaped whole (a lone one cannot be).
      const char = String.fromCodePoint(query.codePointAt(i)!);
      out += char.length === 1 && c >= 0xd800 && c <= 0xdfff ? "%EF%BF%BD" : encodeURIComponent(char);
      i += char.length - 1;
    } else out += query[i];
  }
  return out;
}

/** The canonical address of a path or URL path with query (`/About?x` → `/about/`); null when malformed. */
export function canonicalAddress(url: string): string | null {
  return canonicalPath(url.slice(0, pathEndOf(url)));
}

// Menu links: how a written url is checked and stored, and the address it answers with.
import { warning, type Warning } from "../warnings.ts";

export const MAX_URL = 2048;

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
const BLOCKED_SCHEMES = new Set(["javascript", "data", "vbscript"]);
const CONTROL = /[\u0000-\u001f\u007f]/;
const LOOKS_LIKE_DOMAIN = /^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}(\/|$)/i;
/** What a page's answered address looks like (record.ts answers `<scheme>://<domain>[:port]/…`). */
const FULL_ADDRESS = /^https?:\/\//i;

/** A link as stored: trimmed, spaces encoded; refused when empty, too long, or a script scheme. */
export function urlProblem(value: string): string | null {
  const url = value.trim();
  if (url === "") return "url is empty.";
  if (url.length > MAX_URL) return `url is longer than ${MAX_URL} characters.`;
  if (CONTROL.test(url)) return "url contains control characters.";
  const scheme = SCHEME.exec(url)?.[1]?.toLowerCase();
  if (scheme && BLOCKED_SCHEMES.has(scheme)) return `url scheme "${scheme}:" is not allowed in a menu.`;
  return null;
}

export function urlOf(value: string): string {
  return value.trim().replace(/ /g, "%20");
}

/**
 * The address of a link: a path (`/contact`, `contact`, `?s=x`) is completed with the site
 * address; a full address (`https://…`, `mailto:…`), a protocol-relative one (`//…`) and an
 * anchor (`#top`) stay as written.
 */
export function completeUrl(origin: string, url: string): string {
  if (SCHEME.test(url) || url.startsWith("//") || url.startsWith("#")) return url;
  return `${origin}${url.startsWith("/") ? "" : "/"}${url}`;
}

export function urlWarnings(url: string, at: string, into: Warning[]): void {
  if (!SCHEME.test(url) && LOOKS_LIKE_DOMAIN.test(url)) {
    into.push(
      warning(
        "url_read_as_path",
        `"${url}" has no scheme, so it was read as a path on this site; write https://${url} to link another site.`,
        { at, url },
      ),
    );
  }
}

/**
 * A `url` beside `page` that may be the answer's own: empty (a deleted page answers `""`) or a
 * full http(s) address, to be compared with the page's address once the page is found.
 */
export function couldBePageAddress(value: string): boolean {
  return value.trim() === "" || FULL_ADDRESS.test(value.trim());
}

// The public site's answers that are not a page's own output: the plain 404, redirects (another
// spelling of an address, a redirect record, the home page's own path), a malformed address, a
// page that cannot be rendered now.
// A Location is always relative to the site or an absolute URL a redirect record names, never
// built from the request's Host.
import type { CachedAnswer } from "../publish/page-cache.ts";
import type { PublicAnswer } from "./public-site.ts";

export const HTML = "text/html; charset=utf-8";

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** The site's plain 404 (no `not_found_page`); `reason` is shown only to the site's administrators. */
export function notFoundPage(reason: string): PublicAnswer {
  return {
    status: 404,
    headers: { "content-type": HTML, "x-svc-printed": "none", "x-svc-reason": reason, "cache-control": "no-cache" },
    body: '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Not found</title></head><body><h1>Not found</h1></body></html>\n',
  };
}

export const MALFORMED: PublicAnswer = {
  status: 400,
  headers: { "content-type": HTML, "x-svc-printed": "none", "cache-control": "no-cache" },
  body: '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Bad request</title></head><body><h1>Bad request</h1><p>The address has malformed percent-encoding.</p></body></html>\n',
};

/** Printable ASCII only in a header: whatever else the target holds travels percent-encoded. */
function headerSafe(text: string): string {
  return text.replace(/[^\x21-\x7e]/g, (c) => encodeURIComponent(c));
}

/** A redirect's body: a link to where it goes. */
export function redirectBody(location: string): string {
  return `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Moved</title></head><body><a href="${escapeHtml(location)}">Moved here</a></body></html>\n`;
}

/** Another spelling of an address that answers a page: 301 to the one spelling, query kept. */
export function movedTo(address: string, query: string): PublicAnswer {
  const location = headerSafe(address + query);
  return {
    status: 301,
    headers: { location, "content-type": HTML, "x-svc-printed": "redirect" },
    body: redirectBody(location),
  };
}

/**
 * How a redirect is kept in the page cache: its status and Location without the request's query
 * string, which `withQuery` adds per request. `no-cache`: a redirect can be removed or changed,
 * and a browser would keep a 301 for good without it.
 */
export function cachedRedirect(to: string, status: number): { answer: CachedAnswer; body: Buffer } {
  const location = headerSafe(to);
  return {
    answer: {
      status,
      headers: { location, "content-type": HTML, "x-svc-printed": "redirect", "cache-control": "no-cache" },
    },
    body: Buffer.from(redirectBody(location), "utf8"),
  };
}

/**
 * 302 to another place (the admin, for `/admin/` on a site without a page there): never kept, so
 * a page published there later answers at once; a browser keeps no 302.
 */
export function foundAt(location: string): PublicAnswer {
  const safe = headerSafe(location);
  return {
    status: 302,
    headers: { location: safe, "content-type": HTML, "x-svc-printed": "redirect", "cache-control": "no-cache" },
    body: redirectBody(safe),
  };
}

/** The request's query string carried over to a redirect whose target has none of its own. */
export function withQuery(location: string, query: string): string {
  return query === "" || query === "?" || location.includes("?") ? location : location + headerSafe(query);
}

/** How long a page whose render failed or passed a budget answers 503 before it is tried again. */
export const UNAVAILABLE_SECONDS = 10;

const UNAVAILABLE_BODY = "<!DOCTYPE html>\n<title>Temporarily unavailable</title><h1>Temporarily unavailable</h1>\n";

/** A page that cannot be rendered now (its renderer did not answer, or it passed a render budget). */
export function unavailable(retryAfterSeconds = UNAVAILABLE_SECONDS): PublicAnswer {
  return {
    status: 503,
    headers: { "content-type": HTML, "retry-after": String(retryAfterSeconds), "cache-control": "no-store" },
    body: UNAVAILABLE_BODY,
  };
}

/** The same, as the page cache keeps it for UNAVAILABLE_SECONDS (a short negative cache). */
export function cachedUnavailable(): { answer: CachedAnswer; body: Buffer } {
  const { status, headers, body } = unavailable();
  return { answer: { status, headers }, body: Buffer.from(body as string, "utf8") };
}

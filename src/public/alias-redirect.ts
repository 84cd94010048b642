// Redirects to the same path and query at another origin, from memory and through Fastify:
// - a public request on an alias of a site (docs/domains.md) answers 301 to the site's primary
//   domain, at the address `home_url` is built with (`siteOrigin`: its scheme, the public port);
// - a plain-HTTP request on an `https` domain answers 301 (308 for a method other than GET and
//   HEAD, which keeps the method and body) to its `https` address (secure-front.ts).
// `Cache-Control: no-cache`: an alias can be removed or given to another site, a domain's scheme
// changed, and a browser keeps a 301 without it for good.
import type { PublicFront } from "../config.ts";
import { siteOrigin, type SchemedDomain } from "../site/addresses.ts";
import type { PublicAnswer } from "./public-site.ts";

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** `url` (the request target, path and query) at `origin`; an absolute-form target goes to `/`. */
export function movedToOrigin(origin: string, url: string, status = 301): PublicAnswer {
  const target = url.charCodeAt(0) === 47 ? url : "/";
  // Printable ASCII only in a header: whatever else the target holds travels percent-encoded.
  const location = origin + target.replace(/[^\x21-\x7e]/g, (c) => encodeURIComponent(c));
  return {
    status,
    headers: {
      location,
      "content-type": "text/html; charset=utf-8",
      "x-svc-printed": "redirect",
      "cache-control": "no-cache",
    },
    body: `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Moved</title></head><body><a href="${escapeHtml(location)}">Moved here</a></body></html>\n`,
  };
}

/** The 301 of an alias to the site's primary domain (`primary`: the site's row). */
export function aliasRedirect(primary: SchemedDomain, front: PublicFront, url: string): PublicAnswer {
  return movedToOrigin(siteOrigin(primary, front), url);
}

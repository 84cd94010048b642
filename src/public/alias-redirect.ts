// A public request on an alias of a site (docs/domains.md) answers 301 to the same path
// and query on the site's primary domain, at the address `home_url` is built with (the public
// port): `http://<primary>[:port]<path>?<query>`. Pages, media and stylesheets alike, from memory
// and through Fastify. `Cache-Control: no-cache`: an alias can be removed or given to another
// site, and a browser keeps a 301 without it for good.
import { homeUrl } from "../site/addresses.ts";
import type { PublicAnswer } from "./public-site.ts";

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** The 301 of an alias: `url` is the request target (path and query); an absolute-form one goes to `/`. */
export function aliasRedirect(primary: string, port: number, url: string): PublicAnswer {
  const target = url.charCodeAt(0) === 47 ? url : "/";
  // Printable ASCII only in a header: whatever else the target holds travels percent-encoded.
  const location = homeUrl(primary, port).slice(0, -1) + target.replace(/[^\x21-\x7e]/g, (c) => encodeURIComponent(c));
  return {
    status: 301,
    headers: {
      location,
      "content-type": "text/html; charset=utf-8",
      "x-svc-printed": "redirect",
      "cache-control": "no-cache",
    },
    body: `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Moved</title></head><body><a href="${escapeHtml(location)}">Moved here</a></body></html>\n`,
  };
}

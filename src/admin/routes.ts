// The admin on its own host (SVC_ADMIN_HOST; docs/admin.md). Its routes are bound to that host
// (a Fastify host constraint), so on every other host the same addresses stay the public site's:
// there `/admin/` answers a page standing at it, else 302 to the admin (public/public-site.ts).
//
// On the admin's host:
// - `/` and `/admin` answer 302 to `/admin/`;
// - `/admin/` and any client route under it without a file extension (`/admin/pages/3`) answer
//   the admin's index.html: `Cache-Control: no-cache` with an ETag, and a Content-Security-Policy
//   that lets only the admin's own scripts run and calls leave (no inline script); styles may be
//   inline, which the HTML field's editor (CodeMirror) writes and the frame preview prints;
// - `/admin/assets/<file>` answers a built file by its hashed name, from memory, in brotli or gzip
//   as Accept-Encoding allows (`Vary: Accept-Encoding`), cached for a year as immutable; any other
//   name 404, and no name ever reaches the disk;
// - before `npm run build` made the admin, 503 saying so.
// The rest of that host is the API and /healthz; any other address finds no site there
// (publish/site-directory.ts), so it answers the plain 404 of the public site.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { codingFor } from "../http/content-coding.ts";
import { pathEndOf } from "../site/addresses.ts";
import type { AdminFiles } from "./files.ts";
import { ADMIN_ADDRESS, ASSETS_ADDRESS } from "./paths.ts";

/**
 * Only the admin's own scripts run, and only its own files load; nothing frames it, nothing leaves
 * for another origin. Inline styles are let through: the code editor of the Frames screen sets
 * its styles in a <style> element it writes, and the frame preview (an iframe's `srcdoc`, which
 * keeps this policy) prints the site's stylesheets inline. A style can fetch nothing from
 * elsewhere (img-src and font-src stay 'self'), so it carries nothing out.
 */
export const ADMIN_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; " +
  "font-src 'self'; frame-src 'self' blob:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-cache",
  "content-security-policy": ADMIN_CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
} as const;

const TEXT = "text/plain; charset=utf-8";

/**
 * The Host headers of the admin's host, as `hostOf` (site/addresses.ts) reads them: any case,
 * with or without a port.
 */
export function adminHostPattern(host: string): RegExp {
  return new RegExp(`^${host.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?::\\d+)?$`, "i");
}

function notBuilt(reply: FastifyReply): FastifyReply {
  return reply
    .code(503)
    .headers({ "content-type": TEXT, "cache-control": "no-store", "retry-after": "10" })
    .send("The admin is not built yet: `npm run build` builds it (into dist/admin/), then reload.\n");
}

function notFound(reply: FastifyReply): FastifyReply {
  return reply
    .code(404)
    .headers({ "content-type": TEXT, "cache-control": "no-cache", "x-content-type-options": "nosniff" })
    .send("Not found\n");
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(",") : value;
}

export function adminRoutes(app: FastifyInstance, options: { host: string; files: AdminFiles }): void {
  const { files } = options;

  async function asset(request: FastifyRequest, reply: FastifyReply, name: string): Promise<FastifyReply> {
    const build = await files.get();
    if (build === null) return notBuilt(reply);
    const found = build.assets.get(name);
    if (found === undefined) return notFound(reply);
    const coding = codingFor(single(request.headers["accept-encoding"]));
    const headers: Record<string, string> = { "content-type": found.type };
    if (coding !== "identity") headers["content-encoding"] = coding;
    headers.vary = "Accept-Encoding";
    headers["cache-control"] = "public, max-age=31536000, immutable";
    headers["x-content-type-options"] = "nosniff";
    return reply.code(200).headers(headers).send(found.bytes[coding]);
  }

  async function page(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const build = await files.get();
    if (build === null) return notBuilt(reply);
    const ifNoneMatch = single(request.headers["if-none-match"]);
    const headers = { ...PAGE_HEADERS, etag: build.etag };
    if (ifNoneMatch?.split(",").some((tag) => tag.trim() === build.etag))
      return reply.code(304).headers(headers).send();
    return reply.code(200).headers(headers).send(build.index);
  }

  async function handler(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const path = request.url.slice(0, pathEndOf(request.url));
    if (path === "/" || path === "/admin") return reply.code(302).header("location", ADMIN_ADDRESS).send();
    if (path.startsWith(ASSETS_ADDRESS)) return asset(request, reply, path.slice(ASSETS_ADDRESS.length));
    if (`${path}/` === ASSETS_ADDRESS) return notFound(reply);
    // A client route is a path of the admin's own; one that names a file is none.
    const last = path.slice(path.lastIndexOf("/") + 1);
    return last.includes(".") ? notFound(reply) : page(request, reply);
  }

  const route = { method: ["GET", "HEAD"], constraints: { host: adminHostPattern(options.host) }, handler };
  for (const url of ["/", "/admin", "/admin/*"]) app.route({ ...route, url, schema: { hide: true } });
}

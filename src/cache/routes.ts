// POST /cache/flush (docs/publishing.md, "Static copies and the cache"): drops cached renders of
// some addresses, or of the whole site, after changes made outside the API. The flush is a write
// announced to the publish step, which owns the cache (service.ts). Static copies are not
// re-rendered here: that is POST /frames/rebake.
import type { TypedFastify } from "../http/typed-fastify.ts";
import { fail } from "../errors.ts";
import { commonErrors, Obj, Opt, Success, Type } from "../http/schema.ts";
import { ok } from "../http/ok.ts";
import type { ServiceContext } from "../write/context.ts";
import { canonicalAddress } from "../site/addresses.ts";
import { flushCache } from "./service.ts";

const MAX_URLS = 1000;

/**
 * A path of this site (`/about`, `/en/about/`) or a full address on its domain, in the canonical
 * form the page cache is keyed by (`/About` is `/about/`); else null (also for malformed escapes).
 */
function siteAddressFrom(value: unknown, domain: string): string | null {
  if (typeof value !== "string" || value.trim() === "") return null;
  const raw = value.trim();
  const full = /^https?:\/\/([^/?#]+)(.*)$/i.exec(raw);
  if (full) {
    const host = full[1].replace(/:\d+$/, "").toLowerCase();
    return host === domain ? canonicalAddress(full[2] || "/") : null;
  }
  return raw.startsWith("/") ? canonicalAddress(raw) : null;
}

export function cacheRoutes(scope: TypedFastify, ctx: ServiceContext): void {
  scope.post(
    "/cache/flush",
    {
      schema: {
        operationId: "flushCache",
        tags: ["publishing"],
        summary: "Flush cached public pages: some addresses ({urls}) or the whole site ({all: true})",
        body: Obj({ urls: Opt(Type.Array(Type.String())), all: Opt(Type.Boolean()) }),
        response: {
          200: Success({
            site_id: Type.Integer(),
            flushed: Obj({
              status: Type.String(),
              by: Type.String(),
              urls: Type.Array(Type.String()),
              skipped: Type.Array(Type.String()),
            }),
          }),
          ...commonErrors,
        },
      },
    },
    async (request) => {
      const body = request.body;
      const site = request.site;
      if (body.all === true) {
        const report = await flushCache(ctx, site.id, "all");
        const urls = report.cache.flushed.urls.urls;
        return ok({ site_id: site.id, flushed: { status: "ok", by: "all", urls, skipped: [] } });
      }
      if (!Array.isArray(body.urls) || body.urls.length === 0) {
        throw fail(
          "invalid_field",
          { field: "urls", expected: "a list of paths, or all: true" },
          "Send urls (a list of paths) or all: true.",
        );
      }
      if (body.urls.length > MAX_URLS)
        throw fail("invalid_field", { field: "urls", max_items: MAX_URLS }, `At most ${MAX_URLS} urls per call.`);
      const addresses: string[] = [];
      const skipped: string[] = [];
      for (const value of body.urls) {
        const address = siteAddressFrom(value, site.domain);
        if (address === null) skipped.push(String(value));
        else if (!addresses.includes(address)) addresses.push(address);
      }
      await flushCache(ctx, site.id, addresses);
      return ok({ site_id: site.id, flushed: { status: "ok", by: "urls", urls: addresses, skipped } });
    },
  );
}

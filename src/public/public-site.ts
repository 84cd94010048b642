// Answers public page requests: from the in-memory cache when it can (no database read), else
// resolves the address, serves the page's static copy, or renders it on request and caches it.
//
// One address, one cache entry (issue 16): the cache is keyed by the canonical address only
// (site/addresses.ts). Another spelling of it (`/About/`, `/%61bout/`, `//about/`, `/about`) is
// answered 301 to the canonical address (query string kept) when that answers a page, else with
// the canonical address's 404; it is never rendered nor cached under a key of its own. Malformed
// percent-encoding is 400.
import type { Db } from "../store/database.ts";
import type { PageRow } from "../pages/queries.ts";
import type { PageCache, CachedPage } from "../publish/page-cache.ts";
import type { SiteDirectory } from "../publish/site-directory.ts";
import { resolvePublicPage } from "../pages/at-address.ts";
import { isDatabaseUnavailable } from "../store/errors.ts";
import { canonicalPath, canonicalPathEnd, pathEndOf } from "../site/addresses.ts";
import { aliasRedirect } from "./alias-redirect.ts";

export interface PageRenderer {
  /** Renders a page on request; null when its frame is gone. Throws ExecutorUnavailable on timeout. */
  renderPage(siteId: number, page: PageRow, lang: string | null): Promise<string | null>;
}

export interface PublicAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer | string;
}

const HTML = "text/html; charset=utf-8";

function notFoundPage(reason: string): PublicAnswer {
  return {
    status: 404,
    headers: { "content-type": HTML, "x-svc-printed": "none", "x-svc-reason": reason, "cache-control": "no-cache" },
    body: "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Not found</title></head><body><h1>Not found</h1></body></html>\n",
  };
}

/** Another spelling of an address that answers a page: a relative Location, never built from the Host. */
function movedTo(address: string, query: string): PublicAnswer {
  // Printable ASCII only in a header: whatever else the query string holds travels percent-encoded.
  const location = address + query.replace(/[^\x21-\x7e]/g, (c) => encodeURIComponent(c));
  return {
    status: 301,
    headers: { location, "content-type": HTML, "x-svc-printed": "redirect" },
    body: `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Moved</title></head><body><a href="${location.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;")}">Moved here</a></body></html>\n`,
  };
}

const MALFORMED: PublicAnswer = {
  status: 400,
  headers: { "content-type": HTML, "x-svc-printed": "none", "cache-control": "no-cache" },
  body: "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Bad request</title></head><body><h1>Bad request</h1><p>The address has malformed percent-encoding.</p></body></html>\n",
};

export class PublicSite {
  constructor(
    private readonly db: Db,
    readonly cache: PageCache,
    readonly directory: SiteDirectory,
    private readonly renderer: PageRenderer,
    /**
     * Several processes (PostgreSQL): drops what another process's committed write made stale
     * before a page is answered from memory (publish/invalidation-marks.ts). Then no page is
     * answered from memory without that check, so `cached` answers nothing.
     */
    private readonly fresh?: (siteId: number) => Promise<void>,
    /** The public port, as `home_url` is built: where an alias redirects to (alias-redirect.ts). */
    private readonly port = 80,
  ) {}

  private send(entry: CachedPage, printed: string, ifNoneMatch: string | undefined): PublicAnswer {
    const headers = { "content-type": HTML, etag: entry.etag, "x-svc-printed": printed, "cache-control": "no-cache" };
    if (ifNoneMatch !== undefined && ifNoneMatch.split(",").some((tag) => tag.trim() === entry.etag || tag.trim() === "*")) {
      return { status: 304, headers, body: "" };
    }
    return { status: 200, headers, body: entry.body };
  }

  private hit(entry: CachedPage, ifNoneMatch: string | undefined): PublicAnswer {
    return this.send(entry, entry.printed === "static" ? "static" : "cache", ifNoneMatch);
  }

  /**
   * The fast path: a page already in memory for a known host, at its canonical address, answered
   * without any read. Anything else (another spelling, a page not in memory) is for `answer`.
   */
  cached(host: string, url: string, ifNoneMatch: string | undefined): PublicAnswer | null {
    if (this.fresh) return null;
    const site = this.directory.peek(host);
    if (!site) return null;
    const primary = this.directory.primaryOf(host);
    if (primary !== undefined) return aliasRedirect(primary, this.port, url);
    const end = canonicalPathEnd(url);
    if (end < 0) return null;
    const entry = this.cache.get(site.id, end === url.length ? url : url.slice(0, end));
    return entry ? this.hit(entry, ifNoneMatch) : null;
  }

  /** Several processes: drops what another process's write made stale for this host's site. */
  private async refresh(host: string, fresh: (siteId: number) => Promise<void>): Promise<void> {
    try {
      const known = this.directory.peek(host) ?? (await this.directory.resolve(host));
      if (!known) return;
      await fresh(known.id);
      // A site created or re-domained elsewhere may have moved this host to another site.
      const now = this.directory.peek(host) ?? (await this.directory.resolve(host));
      if (now && now.id !== known.id) await fresh(now.id);
    } catch (error) {
      // The database is gone: pages in memory are still answered (docs/deploy.md, limits).
      if (!isDatabaseUnavailable(error)) throw error;
    }
  }

  async answer(host: string, url: string, ifNoneMatch: string | undefined): Promise<PublicAnswer> {
    const end = pathEndOf(url);
    const path = url.slice(0, end);
    const address = canonicalPath(path);
    if (address === null) return MALFORMED;
    if (this.fresh) await this.refresh(host, this.fresh);
    // Taken before reading: a flush that lands while this request reads keeps its answer out of the cache.
    const ticket = this.cache.ticket();
    const matched = await this.directory.match(host);
    const site = matched?.site;
    if (!site) return notFoundPage("no_site");
    if (matched.alias) return aliasRedirect(site.domain, this.port, url);
    // An absolute-form target (`GET http://host/x`) names no path of this site.
    if (path.charCodeAt(0) !== 47) return notFoundPage("no_page");
    if (address !== path) return this.variant(site.id, address, url.slice(end));
    const held = this.cache.get(site.id, address);
    if (held) return this.hit(held, ifNoneMatch);
    const resolved = await resolvePublicPage(this.db, site.id, address);
    if ("notFound" in resolved) return notFoundPage(resolved.notFound);
    const { page, lang } = resolved;

    const copy = await this.db
      .selectFrom("static_copies")
      .select(["html", "frame_id"])
      .where("site_id", "=", site.id)
      .where("page_id", "=", page.id)
      .executeTakeFirst();
    if (copy && copy.frame_id === page.frame_id) {
      const entry = this.cache.put({ siteId: site.id, address, pageId: page.id, body: Buffer.from(copy.html, "utf8"), printed: "static" }, ticket);
      return this.send(entry, "static", ifNoneMatch);
    }
    const html = await this.renderer.renderPage(site.id, page, lang);
    if (html === null) return notFoundPage("frame_deleted");
    const entry = this.cache.put({ siteId: site.id, address, pageId: page.id, body: Buffer.from(html, "utf8"), printed: "on_request" }, ticket);
    return this.send(entry, "on_request", ifNoneMatch);
  }

  /** A request on an alias of a site (media, stylesheets): its 301 to the primary domain; null on any other host. */
  async aliasAnswer(host: string, url: string): Promise<PublicAnswer | null> {
    if (this.fresh) await this.refresh(host, this.fresh);
    const matched = await this.directory.match(host);
    return matched?.alias ? aliasRedirect(matched.site.domain, this.port, url) : null;
  }

  /**
   * Another spelling of `address`: 301 to it when it answers a page (known from memory, else one
   * lookup, no render), else the 404 it answers. Nothing is cached for it.
   */
  private async variant(siteId: number, address: string, query: string): Promise<PublicAnswer> {
    if (this.cache.has(siteId, address)) return movedTo(address, query);
    const resolved = await resolvePublicPage(this.db, siteId, address);
    if ("notFound" in resolved) return notFoundPage(resolved.notFound);
    return movedTo(address, query);
  }
}

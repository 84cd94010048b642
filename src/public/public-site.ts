// Answers public page requests: from the in-memory cache when it can (no database read), else
// resolves the address, serves the page's static copy, or renders it on request and caches it.
import type { Db } from "../store/database.ts";
import type { PageRow } from "../pages/queries.ts";
import type { PageCache, CachedPage } from "../publish/page-cache.ts";
import type { SiteDirectory } from "../publish/site-directory.ts";
import { resolvePublicPage } from "./resolve-page.ts";
import { isDatabaseUnavailable } from "../store/errors.ts";
import { addressOfUrl } from "../site/addresses.ts";

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
  ) {}

  private send(entry: CachedPage, printed: string, ifNoneMatch: string | undefined): PublicAnswer {
    const headers = { "content-type": HTML, etag: entry.etag, "x-svc-printed": printed, "cache-control": "no-cache" };
    if (ifNoneMatch !== undefined && ifNoneMatch.split(",").some((tag) => tag.trim() === entry.etag || tag.trim() === "*")) {
      return { status: 304, headers, body: "" };
    }
    return { status: 200, headers, body: entry.body };
  }

  /** The fast path: a page already in memory for a known host, answered without any read. */
  cached(host: string, url: string, ifNoneMatch: string | undefined): PublicAnswer | null {
    return this.fresh ? null : this.inMemory(host, url, ifNoneMatch);
  }

  private inMemory(host: string, url: string, ifNoneMatch: string | undefined): PublicAnswer | null {
    const site = this.directory.peek(host);
    if (!site) return null;
    const entry = this.cache.get(site.id, addressOfUrl(url));
    if (!entry) return null;
    return this.send(entry, entry.printed === "static" ? "static" : "cache", ifNoneMatch);
  }

  async answer(host: string, url: string, ifNoneMatch: string | undefined): Promise<PublicAnswer> {
    if (this.fresh) {
      try {
        const known = this.directory.peek(host) ?? (await this.directory.resolve(host));
        if (known) await this.fresh(known.id);
      } catch (error) {
        // The database is gone: pages in memory are still answered (docs/deploy.md, limits).
        if (!isDatabaseUnavailable(error)) throw error;
      }
    }
    const hit = this.inMemory(host, url, ifNoneMatch);
    if (hit) return hit;
    // Taken before reading: a flush that lands while this request reads keeps its answer out of the cache.
    const ticket = this.cache.ticket();
    const site = await this.directory.resolve(host);
    if (!site) return notFoundPage("no_site");
    const address = addressOfUrl(url);
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
}

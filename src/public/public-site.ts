// Answers public page requests: from the in-memory cache when it can (no database read), else
// resolves the address, serves the page's static copy, or renders it on request and caches it.
//
// One address, one cache entry (docs/security.md): the cache is keyed by the canonical address only
// (site/addresses.ts). Another spelling of it (`/About/`, `/%61bout/`, `//about/`, `/about`) is
// answered 301 to the canonical address (query string kept) when that answers a page, with the
// redirect standing there when there is one (one hop: `/old.html` straight to where `/old.html/`
// sends), else with the canonical address's 404; it is never rendered nor cached under a key of its
// own. Malformed percent-encoding is 400.
//
// Addresses (docs/seo.md): a redirect of the request's exact query string (`/?page_id=12`) answers
// first (query-redirects.ts); a redirect standing at an address answers before the page lookup
// (redirects never stand where a live page answers); the home page's own path answers 301 to `/`
// (`/<lang>/`); /sitemap.xml (and its parts) and /robots.txt are the site's own; a page's
// `feed.xml` and the pages of its list (`page/<n>/`) are its own (list-answers.ts); an unknown address
// shows the site's `not_found_page` with status 404, else the plain 404. All of them are cached
// like pages (a redirect under its address, the 404 page under one key per language, sitemaps under
// SITEMAP_PAGE_ID), and flushed by the publish step when what they show changes. An address
// answered elsewhere where no page stands (`/admin/`, to the admin) answers 302 there, never kept.
import type { PublicFront } from "../config.ts";
import type { Db } from "../store/database.ts";
import type { PageRow } from "../pages/queries.ts";
import type { PageCache, CachedPage, Printed } from "../publish/page-cache.ts";
import type { SiteDirectory } from "../publish/site-directory.ts";
import { resolvePublicPage } from "../pages/at-address.ts";
import { isDatabaseUnavailable } from "../store/errors.ts";
import { canonicalPath, canonicalPathEnd, pathEndOf } from "../site/addresses.ts";
import { aliasRedirect } from "./alias-redirect.ts";
import {
  cachedRedirect,
  cachedUnavailable,
  foundAt,
  HTML,
  MALFORMED,
  movedTo,
  notFoundPage,
  unavailable,
  UNAVAILABLE_SECONDS,
  withQuery,
} from "./answers.ts";
import { FORM_TOKEN_PLACEHOLDER, OverBudget } from "../markup/index.ts";
import type { FormKeys } from "../forms/token.ts";
import { ExecutorUnavailable } from "../publish/executor.ts";
import { redirectAt } from "../redirects/redirects.ts";
import { withQueryOf } from "../redirects/addresses.ts";
import { notFoundKey, SITEMAP_PAGE_ID } from "../publish/page-cache.ts";
import { ROBOTS_ADDRESS } from "../publish/engine.ts";
import { robotsTxt, sitemapXml } from "../seo/sitemap.ts";
import { notFoundTarget } from "./not-found.ts";
import { QueryRedirects } from "./query-redirects.ts";
import type { SiteRow } from "../site/sites.ts";
import { feedBase, ListAnswers, pagedAddress, type ListPageRenderer } from "./list-answers.ts";

export interface PageRenderer extends ListPageRenderer {
  /** Renders a page on request; null when its frame is gone. Throws ExecutorUnavailable on timeout. */
  renderPage(siteId: number, page: PageRow, lang: string | null): Promise<string | null>;
  /** The same, the page shown as the site's 404 page (noindex, no canonical, hreflang nor breadcrumbs). */
  renderNotFound(siteId: number, page: PageRow, lang: string | null): Promise<string | null>;
}

export interface PublicAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer | string;
}

/** A cached answer that is a redirect (a record's, the home page's own path's): its Location. */
function isRedirect(entry: CachedPage): boolean {
  return entry.answer?.headers.location !== undefined;
}

const QUESTION = 63;

const TOKEN_MARK = Buffer.from(FORM_TOKEN_PLACEHOLDER, "utf8");

/**
 * A page printing a form (svc/form) gets a fresh time token in each answer, filled into the
 * placeholder its static copy or cached render holds; such an answer has no validator and is
 * kept by no cache, so a browser never sends back an old token (docs/forms.md).
 */
function withFormTokens(body: Buffer, token: string): Buffer | null {
  if (body.indexOf(TOKEN_MARK) < 0) return null;
  return Buffer.from(body.toString("utf8").replaceAll(FORM_TOKEN_PLACEHOLDER, token), "utf8");
}

export class PublicSite {
  private readonly queries: QueryRedirects;
  /** `<address>page/<n>/` and `<address>feed.xml` (list-answers.ts). */
  private readonly lists: ListAnswers;
  /** Signs the time tokens of the forms pages print (set by app.ts once the app is built). */
  formKeys: FormKeys | undefined;

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
    /** How `home_url` is built (SVC_PUBLIC_SCHEME, SVC_PUBLIC_PORT): where an alias redirects to (alias-redirect.ts). */
    readonly front: PublicFront = { publicScheme: "http", port: 80 },
    /**
     * Addresses that, where the site shows no page, answer 302 to a place of their own: `/admin/`
     * to the admin (docs/admin.md). A page or redirect standing there wins.
     */
    private readonly elsewhere: ReadonlyMap<string, string> = new Map(),
  ) {
    this.queries = new QueryRedirects(db, cache);
    this.lists = new ListAnswers({
      db,
      cache,
      front,
      renderer,
      send: (entry, printed, ifNoneMatch) => this.send(entry, printed, ifNoneMatch),
      notFound: (site, address, reason, ticket) => this.notFound(site, address, reason, ticket),
    });
  }

  private send(entry: CachedPage, printed: string, ifNoneMatch: string | undefined, query = ""): PublicAnswer {
    if (entry.answer !== undefined && entry.answer.status !== 200) {
      // A redirect or a 404 page: no validator; a redirect carries the request's query string on.
      const headers = { ...entry.answer.headers };
      if (headers.location !== undefined) headers.location = withQuery(headers.location, query);
      return { status: entry.answer.status, headers, body: entry.body };
    }
    const headers = {
      "content-type": HTML,
      "x-svc-printed": printed,
      "cache-control": "no-cache",
      ...entry.answer?.headers,
      etag: entry.etag,
    };
    const token = this.formKeys?.issue(entry.siteId, entry.pageId, Date.now());
    const filled = token ? withFormTokens(entry.body, token) : null;
    if (filled) {
      const { etag: _validator, ...kept } = headers;
      return { status: 200, headers: { ...kept, "cache-control": "no-store" }, body: filled };
    }
    if (ifNoneMatch?.split(",").some((tag) => tag.trim() === entry.etag || tag.trim() === "*")) {
      return { status: 304, headers, body: "" };
    }
    return { status: 200, headers, body: entry.body };
  }

  private hit(entry: CachedPage, ifNoneMatch: string | undefined, query = ""): PublicAnswer {
    return this.send(entry, entry.printed === "static" ? "static" : "cache", ifNoneMatch, query);
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
    if (primary !== undefined) return aliasRedirect(primary, this.front, url);
    const end = canonicalPathEnd(url);
    if (end < 0) return null;
    if (end < url.length && url.charCodeAt(end) === QUESTION) {
      // A query: a redirect of that very query comes first; while the site's are not known, `answer` reads them.
      const queries = this.queries.peek(site.id);
      if (queries === undefined || queries === "many") return null;
      const key = queries.size === 0 ? undefined : withQueryOf(url.slice(0, end), url.slice(end));
      if (key === null) return null;
      if (key !== undefined && queries.has(key)) {
        const redirect = this.cache.get(site.id, key);
        return redirect ? this.hit(redirect, ifNoneMatch) : null;
      }
    }
    const entry = this.cache.get(site.id, end === url.length ? url : url.slice(0, end));
    return entry ? this.hit(entry, ifNoneMatch, url.slice(end)) : null;
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
    const query = url.slice(end);
    const address = canonicalPath(path);
    if (address === null) return MALFORMED;
    if (this.fresh) await this.refresh(host, this.fresh);
    // Taken before reading: a flush that lands while this request reads keeps its answer out of the cache.
    const ticket = this.cache.ticket();
    const matched = await this.directory.match(host);
    const site = matched?.site;
    if (!site) return notFoundPage("no_site");
    if (matched.alias) return aliasRedirect(site, this.front, url);
    // An absolute-form target (`GET http://host/x`) names no path of this site.
    if (path.charCodeAt(0) !== 47) return notFoundPage("no_page");
    if (query.charCodeAt(0) === QUESTION && query.length > 1) {
      const exact = await this.queryRedirect(site.id, address, query, ticket);
      if (exact) return exact;
    }
    const file = await this.siteFile(site, path, ticket, ifNoneMatch);
    if (file) return file;
    const feed = feedBase(path);
    if (feed !== null) return this.lists.feed(site, path, feed, ticket, ifNoneMatch, query);
    // Another spelling of the address: 301 to it when it shows a page, its redirect when it has one.
    const variant = address !== path;
    const held = this.cache.get(site.id, address);
    if (held) return !variant || isRedirect(held) ? this.hit(held, ifNoneMatch, query) : movedTo(address, query);
    const redirect = await redirectAt(this.db, site.id, address);
    // Kept under the address, but not when asked for by another spelling: nothing is kept for one.
    const keep = variant ? null : ticket;
    if (redirect) return this.redirect(site.id, { address, pageId: 0, ...redirect }, query, keep);
    const resolved = await resolvePublicPage(this.db, site.id, address);
    if ("notFound" in resolved) {
      const paged = pagedAddress(address);
      if (paged) return this.lists.listPage(site, address, paged, ticket, ifNoneMatch, query);
      return this.notFound(site, address, resolved.notFound, ticket);
    }
    if ("home" in resolved)
      return this.redirect(site.id, { address, pageId: resolved.page.id, to: resolved.home, status: 301 }, query, keep);
    if (variant) return movedTo(address, query);
    let output: Awaited<ReturnType<PublicSite["pageOutput"]>>;
    try {
      output = await this.pageOutput(site.id, resolved.page, resolved.lang);
    } catch (error) {
      if (!(error instanceof ExecutorUnavailable || error instanceof OverBudget)) throw error;
      // Kept for a few seconds: every request for it meanwhile is answered from memory, so a page
      // that fails to render is not rendered again and again (docs/security.md).
      const { answer, body } = cachedUnavailable();
      this.cache.put(
        {
          siteId: site.id,
          address,
          pageId: resolved.page.id,
          body,
          printed: "on_request",
          answer,
          expires: Date.now() + UNAVAILABLE_SECONDS * 1000,
        },
        ticket,
      );
      return unavailable();
    }
    if (output === null) return this.notFound(site, address, "frame_deleted", ticket);
    const entry = this.cache.put(
      { siteId: site.id, address, pageId: resolved.page.id, body: output.body, printed: output.printed },
      ticket,
    );
    return this.send(entry, output.printed, ifNoneMatch);
  }

  /** A page's output: its static copy (when it is of the page's frame), else rendered now; null when its frame is gone. */
  private async pageOutput(
    siteId: number,
    page: PageRow,
    lang: string | null,
  ): Promise<{ body: Buffer; printed: Printed } | null> {
    const copy = await this.db
      .selectFrom("static_copies")
      .select(["html", "frame_id"])
      .where("site_id", "=", siteId)
      .where("page_id", "=", page.id)
      .executeTakeFirst();
    if (copy && copy.frame_id === page.frame_id) return { body: Buffer.from(copy.html, "utf8"), printed: "static" };
    const html = await this.renderer.renderPage(siteId, page, lang);
    return html === null ? null : { body: Buffer.from(html, "utf8"), printed: "on_request" };
  }

  /**
   * A redirect answered, and kept under its address (`pageId`: the page whose change drops it)
   * unless `ticket` is null.
   */
  private redirect(
    siteId: number,
    at: { address: string; pageId: number; to: string; status: number },
    query: string,
    ticket: number | null,
  ): PublicAnswer {
    const { answer, body } = cachedRedirect(at.to, at.status);
    const entry = { siteId, address: at.address, pageId: at.pageId, body, printed: "static" as const, answer };
    const sent = ticket === null ? { ...entry, etag: "" } : this.cache.put(entry, ticket);
    return this.send(sent, "redirect", undefined, query);
  }

  /**
   * An address that shows no page: the site's `not_found_page` in the address's language, with
   * status 404, rendered as a 404 page (never its static copy, which names its own address) and
   * kept once per language; without one, the plain 404. The same answer whatever the reason, which
   * only the site's administrators are told (routes.ts).
   */
  private async notFound(site: SiteRow, address: string, reason: string, ticket: number): Promise<PublicAnswer> {
    const away = this.elsewhere.get(address);
    if (away !== undefined) return foundAt(away);
    const plain = notFoundPage(reason);
    const target = await notFoundTarget(this.db, site.id, address);
    if (!target) return plain;
    const key = notFoundKey(target.lang);
    let entry = this.cache.get(site.id, key);
    if (!entry) {
      const html = await this.renderer.renderNotFound(site.id, target.page, target.lang);
      if (html === null) return plain;
      const answer = {
        status: 404,
        headers: {
          "content-type": HTML,
          "x-svc-printed": "on_request",
          "cache-control": "no-cache",
          "x-robots-tag": "noindex",
        },
      };
      const body = Buffer.from(html, "utf8");
      entry = this.cache.put(
        { siteId: site.id, address: key, pageId: target.page.id, body, printed: "on_request", answer },
        ticket,
      );
    }
    return { status: 404, headers: { ...entry.answer!.headers, "x-svc-reason": reason }, body: entry.body };
  }

  /** /robots.txt, /sitemap.xml and /sitemap-<n>.xml of the site, kept like pages; null for any other path. */
  private async siteFile(
    site: SiteRow,
    path: string,
    ticket: number,
    ifNoneMatch: string | undefined,
  ): Promise<PublicAnswer | null> {
    const part = /^\/sitemap(?:-([1-9]\d{0,5}))?\.xml$/.exec(path);
    if (path !== ROBOTS_ADDRESS && !part) return null;
    const held = this.cache.get(site.id, path);
    if (held) return this.send(held, "cache", ifNoneMatch);
    const body = part
      ? await sitemapXml(this.db, site, this.front, part[1] === undefined ? null : Number(part[1]))
      : await robotsTxt(this.db, site, this.front);
    if (body === null) return this.notFound(site, path, "no_page", ticket);
    const type = part ? "application/xml; charset=utf-8" : "text/plain; charset=utf-8";
    // X-Svc-Printed is left to `send`: "generated" now, "cache" when answered from memory.
    const answer = { status: 200, headers: { "content-type": type, "cache-control": "no-cache" } };
    const entry = this.cache.put(
      {
        siteId: site.id,
        address: path,
        pageId: part ? SITEMAP_PAGE_ID : 0,
        body: Buffer.from(body, "utf8"),
        printed: "on_request",
        answer,
      },
      ticket,
    );
    return this.send(entry, "generated", ifNoneMatch);
  }

  /** A request on an alias of a site (media, stylesheets): its 301 to the primary domain; null on any other host. */
  async aliasAnswer(host: string, url: string): Promise<PublicAnswer | null> {
    if (this.fresh) await this.refresh(host, this.fresh);
    const matched = await this.directory.match(host);
    return matched?.alias ? aliasRedirect(matched.site, this.front, url) : null;
  }

  /**
   * The redirect of this exact query at this address (`/?page_id=12`), kept under the address with
   * its query; null when there is none (the request goes on as one without it would).
   */
  private async queryRedirect(
    siteId: number,
    address: string,
    query: string,
    ticket: number,
  ): Promise<PublicAnswer | null> {
    const key = withQueryOf(address, query);
    if (key === null || key === address) return null;
    const queries = await this.queries.of(siteId, ticket);
    if (queries !== "many" && !queries.has(key)) return null;
    const held = this.cache.get(siteId, key);
    if (held) return this.hit(held, undefined);
    const redirect = await redirectAt(this.db, siteId, key);
    return redirect ? this.redirect(siteId, { address: key, pageId: 0, ...redirect }, "", ticket) : null;
  }
}

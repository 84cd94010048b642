// The addresses a page's list adds under the page (docs/markup.md, "Lists"; docs/seo.md, "Feeds"):
// `<address>page/<n>/` shows page n of the page's list (2 and up; `page/1/` answers 301 to the page
// itself; past the last page, 404), and `<address>feed.xml` the page's Atom feed while it has one.
// A page standing at such an address wins (its own path answers first). Both are kept in the page
// cache under the page's id, so whatever republishes the page drops them too.
import type { PublicFront } from "../config.ts";
import { OverBudget } from "../markup/index.ts";
import { resolvePublicPage } from "../pages/at-address.ts";
import type { PageRow } from "../pages/queries.ts";
import { ExecutorUnavailable } from "../publish/executor.ts";
import { printedContents } from "../publish/page-content.ts";
import type { CachedPage, PageCache } from "../publish/page-cache.ts";
import { ATOM_TYPE, FEED_FILE, feedXml } from "../seo/feed.ts";
import { canonicalPath } from "../site/addresses.ts";
import type { SiteRow } from "../site/sites.ts";
import type { Db } from "../store/database.ts";
import { movedTo, unavailable } from "./answers.ts";
import type { PublicAnswer } from "./public-site.ts";

/** `<base>page/<n>/` (n from 1, at most nine digits, no leading zero): the base and n; null for any other address. */
export function pagedAddress(address: string): { base: string; n: number } | null {
  const m = /^(\/(?:.*\/)?)page\/([1-9]\d{0,8})\/$/.exec(address);
  return m ? { base: m[1]!, n: Number(m[2]) } : null;
}

/** `<base>feed.xml`: the base address; null for any other path. */
export function feedBase(path: string): string | null {
  return path.endsWith(`/${FEED_FILE}`) ? path.slice(0, -FEED_FILE.length) : null;
}

/** How the public site renders page n of a page's list (the publish engine). */
export interface ListPageRenderer {
  renderListPage?(siteId: number, page: PageRow, lang: string | null, n: number): Promise<string | null>;
}

/** What the answers share with the rest of the public site. */
export interface ListAnswerDeps {
  db: Db;
  cache: PageCache;
  front: PublicFront;
  renderer: ListPageRenderer;
  send(entry: CachedPage, printed: string, ifNoneMatch: string | undefined): PublicAnswer;
  notFound(site: SiteRow, address: string, reason: string, ticket: number): Promise<PublicAnswer>;
}

export class ListAnswers {
  constructor(private readonly deps: ListAnswerDeps) {}

  /** The page the base address shows, or the answer the address gets instead (a 404, or 301 to where it stands). */
  private async pageAt(
    site: SiteRow,
    base: string,
    address: string,
    rest: string,
    ticket: number,
  ): Promise<{ page: PageRow; lang: string | null } | PublicAnswer> {
    const resolved = await resolvePublicPage(this.deps.db, site.id, base);
    if ("notFound" in resolved) return this.deps.notFound(site, address, resolved.notFound, ticket);
    // The home page's own path: its list and feed stand under `/` (`/<lang>/`) as it does.
    if ("home" in resolved) return movedTo(`${resolved.home}${rest}`, "");
    return resolved;
  }

  /** `<base>page/<n>/`, once no page stands there. */
  async listPage(
    site: SiteRow,
    address: string,
    paged: { base: string; n: number },
    ticket: number,
    ifNoneMatch: string | undefined,
    query: string,
  ): Promise<PublicAnswer> {
    const rest = address.slice(paged.base.length);
    const found = await this.pageAt(site, paged.base, address, rest, ticket);
    if (!("page" in found)) return found;
    if (paged.n === 1) return movedTo(paged.base, query);
    let html: string | null;
    try {
      html = (await this.deps.renderer.renderListPage?.(site.id, found.page, found.lang, paged.n)) ?? null;
    } catch (error) {
      // As for a page: a render that does not answer, or one past its budgets, is no 500.
      if (error instanceof ExecutorUnavailable || error instanceof OverBudget) return unavailable();
      throw error;
    }
    if (html === null) return this.deps.notFound(site, address, "no_list_page", ticket);
    const entry = this.deps.cache.put(
      { siteId: site.id, address, pageId: found.page.id, body: Buffer.from(html, "utf8"), printed: "on_request" },
      ticket,
    );
    return this.deps.send(entry, "on_request", ifNoneMatch);
  }

  /** `<base>feed.xml`: the page's feed, kept like a page. */
  async feed(
    site: SiteRow,
    path: string,
    base: string,
    ticket: number,
    ifNoneMatch: string | undefined,
    query: string,
  ): Promise<PublicAnswer> {
    const canonical = canonicalPath(base);
    if (canonical !== null && canonical !== base) return movedTo(`${canonical}${FEED_FILE}`, query);
    const held = this.deps.cache.get(site.id, path);
    if (held) return this.deps.send(held, "cache", ifNoneMatch);
    const found = await this.pageAt(site, base, path, FEED_FILE, ticket);
    if (!("page" in found)) return found;
    const { db, front } = this.deps;
    const xml = await feedXml(db, site, front, found.page, found.lang, (rows) =>
      printedContents(db, site.id, front, rows),
    );
    if (xml === null) return this.deps.notFound(site, path, "no_feed", ticket);
    // X-Svc-Printed is left to `send`: "generated" now, "cache" when answered from memory.
    const answer = { status: 200, headers: { "content-type": ATOM_TYPE, "cache-control": "no-cache" } };
    const entry = this.deps.cache.put(
      {
        siteId: site.id,
        address: path,
        pageId: found.page.id,
        body: Buffer.from(xml, "utf8"),
        printed: "on_request",
        answer,
      },
      ticket,
    );
    return this.deps.send(entry, "generated", ifNoneMatch);
  }
}

// Redirects of one query string (docs/seo.md, "Redirects"): `/?page_id=12` answers its redirect,
// `/` and `/?page_id=13` what they answer without it. A request with a query asks first whether its
// address and query name one. The addresses of a site's such redirects are held in memory, read
// again after any flush of the site (every write of a redirect flushes its address, in every
// process), so a request whose query names none (`?utm_source=…`) is answered from memory as
// before, reading nothing. A site with more of them than are held asks the database each time.
import type { Db } from "../store/database.ts";
import type { PageCache } from "../publish/page-cache.ts";
import { queryRedirectAddresses } from "../redirects/redirects.ts";

/** At most this many addresses are held per site. */
const MAX_HELD = 10_000;

/** The addresses, or `"many"`: more than are held (every request with a query asks the database). */
export type QueryRedirectSet = ReadonlySet<string> | "many";

export class QueryRedirects {
  private readonly held = new Map<number, { set: QueryRedirectSet; ticket: number }>();

  constructor(
    private readonly db: Db,
    private readonly cache: PageCache,
  ) {}

  /** The site's redirects of one query string, from memory; undefined when not held or flushed since. */
  peek(siteId: number): QueryRedirectSet | undefined {
    const known = this.held.get(siteId);
    return known === undefined || this.cache.flushedSince(siteId, known.ticket) ? undefined : known.set;
  }

  /** The same, read from the database when not held; `ticket` was taken before the read. */
  async of(siteId: number, ticket: number): Promise<QueryRedirectSet> {
    const known = this.peek(siteId);
    if (known !== undefined) return known;
    const addresses = await queryRedirectAddresses(this.db, siteId, MAX_HELD + 1);
    const set = addresses.length > MAX_HELD ? "many" : new Set(addresses);
    this.held.set(siteId, { set, ticket });
    return set;
  }
}

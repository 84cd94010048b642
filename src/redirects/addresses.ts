// Where a redirect stands (docs/seo.md, "Redirects"): a canonical address (site/addresses.ts), and
// for a redirect of one query string (`/?page_id=12`, as WordPress addresses are), `?` and that
// query written one way (`canonicalQuery`). The query is matched exactly, parameter order and case
// included, as WordPress's Redirection plugin matches by default.
import { canonicalPath, canonicalQuery, pathEndOf } from "../site/addresses.ts";

/**
 * The address a request target (`/Old-Page?id=3`) asks a redirect of: its canonical path, then
 * `?<canonical query>` when it has a query; null when its percent-encoding is malformed. A
 * fragment is no part of it.
 */
export function redirectAddress(target: string): string | null {
  const end = pathEndOf(target);
  const path = canonicalPath(target.slice(0, end));
  if (path === null) return null;
  return withQueryOf(path, target.slice(end));
}

/**
 * A canonical path with what follows the path in a request target (`?…`, a fragment left out): the
 * address a redirect of that query stands at; the path alone without a query; null when malformed.
 */
export function withQueryOf(path: string, query: string): string | null {
  if (query[0] !== "?") return path;
  const hash = query.indexOf("#");
  const canonical = canonicalQuery(query.slice(1, hash < 0 ? undefined : hash));
  if (canonical === null) return null;
  return canonical === "" ? path : `${path}?${canonical}`;
}

/** Whether a redirect's address is one of a query string (matched only with that query). */
export function hasQuery(address: string): boolean {
  return address.includes("?");
}

// Who may call what on a site (docs/roles.md): every site-scoped route belongs to one group, and
// each group names the least role that may read it (GET, HEAD) and write it (every other method).
// registerSiteRoutes (site-routes.ts) gives each route of `/api/site/{site_id}/…` the least role
// of its group, and the site scope (site-scope.ts) checks the caller's role against it. A route
// that no group holds stops the start, so no call is left out of the table. docs/roles.md shows
// this table, and test/http/roles.test.ts checks every route of the OpenAPI document against it.
//
// The legacy address (`/api/…` with the site chosen by blog_id, X-Svc-Blog-Id or domain) takes
// administrators only, whatever the group (site-scope.ts).
import { insufficientRole, reaches, type SiteRole } from "../site/roles.ts";
import { preFail, type HttpError } from "./errors.ts";

export interface RouteGroup {
  /** Its name in docs/roles.md's table. */
  name: string;
  /**
   * The site-relative addresses it holds, as routes are written (`/seo/pages`, `/frames/:ref/assign`),
   * each with every address under it. An address in several groups belongs to the longest match.
   */
  paths: readonly string[];
  /** The least role that may read its calls; null: it has none. */
  read: SiteRole | null;
  /** The least role that may write through its calls; null: it has none. */
  write: SiteRole | null;
}

/** The groups of `/api/site/{site_id}/…`. Revisions and restores of an object belong to its kind's group. */
export const SITE_ROUTE_GROUPS: readonly RouteGroup[] = [
  // Assigning a frame to pages writes the pages' `frame`, as PATCH /pages does; page SEO is a page's.
  { name: "Pages", paths: ["/pages", "/frames/:ref/assign", "/seo/pages"], read: "editor", write: "editor" },
  { name: "Media", paths: ["/media"], read: "editor", write: "editor" },
  { name: "Data sets", paths: ["/data"], read: "editor", write: "editor" },
  { name: "Menus and their items", paths: ["/menus"], read: "editor", write: "editor" },
  { name: "Sidebars", paths: ["/sidebars"], read: "editor", write: "editor" },
  { name: "Strings", paths: ["/strings"], read: "editor", write: "editor" },
  { name: "Redirects", paths: ["/seo/redirects"], read: "editor", write: "editor" },
  // The trash holds every kind; a restore or purge also needs the write role of the item's kind
  // (history/routes.ts).
  { name: "Trash", paths: ["/trash"], read: "editor", write: "editor" },
  // Every kind's revisions at once, to read; each restore is its kind's call, in its kind's group.
  { name: "Recent changes", paths: ["/revisions"], read: "editor", write: null },
  { name: "Previews and preview links", paths: ["/preview"], read: "editor", write: "editor" },
  { name: "Frames", paths: ["/frames"], read: "editor", write: "administrator" },
  { name: "Stylesheets", paths: ["/styles"], read: "editor", write: "administrator" },
  { name: "Settings", paths: ["/settings"], read: "editor", write: "administrator" },
  { name: "Languages", paths: ["/languages"], read: "editor", write: "administrator" },
  { name: "SEO defaults", paths: ["/seo"], read: "editor", write: "administrator" },
  { name: "Forms and their submissions", paths: ["/forms"], read: "editor", write: "administrator" },
  { name: "Cache", paths: ["/cache"], read: null, write: "administrator" },
  { name: "Usage of the quotas", paths: ["/usage"], read: "editor", write: null },
  { name: "Members", paths: ["/users"], read: "administrator", write: "administrator" },
  { name: "Events", paths: ["/events"], read: "administrator", write: null },
  { name: "Webhooks", paths: ["/webhooks"], read: "administrator", write: "administrator" },
];

/** Calls outside `/api/site/{site_id}/…`: no site role opens them (docs/roles.md). */
export interface NetworkGroup {
  name: string;
  paths: readonly string[];
  /** What a site's administrator, and a site's editor, may do there. */
  administrator: string;
  editor: string;
}

export const NETWORK_ROUTE_GROUPS: readonly NetworkGroup[] = [
  {
    name: "Sites",
    paths: ["/api/sites"],
    administrator: "read, rename",
    editor: "read",
  },
  {
    name: "Domains and quotas of a site",
    paths: ["/api/sites/{id}/domains", "/api/sites/{id}/quotas"],
    administrator: "— (super-administrators)",
    editor: "— (super-administrators)",
  },
  {
    name: "Users and their tokens",
    paths: ["/api/users", "/api/profile"],
    administrator: "their own user, profile, tokens and password",
    editor: "their own user, profile, tokens and password",
  },
  {
    name: "Events of the network",
    paths: ["/api/events"],
    administrator: "their site's, named by blog_id, X-Svc-Blog-Id or domain",
    editor: "—",
  },
  {
    name: "Signing in",
    paths: ["/api/login", "/api/session", "/api/logout"],
    administrator: "sign in (a token, or a session on the admin's host) and out",
    editor: "sign in (a token, or a session on the admin's host) and out",
  },
];

const READS = new Set(["GET", "HEAD"]);

function segments(path: string): string[] {
  return path.split("/").filter((segment) => segment !== "");
}

/** The group holding a site-relative route address, or undefined. */
export function routeGroupOf(path: string): RouteGroup | undefined {
  const route = segments(path);
  let best: { group: RouteGroup; length: number } | undefined;
  for (const group of SITE_ROUTE_GROUPS) {
    for (const held of group.paths.map(segments)) {
      const holds = held.length <= route.length && held.every((segment, i) => segment === route[i]);
      if (holds && (best === undefined || held.length > best.length)) best = { group, length: held.length };
    }
  }
  return best?.group;
}

/**
 * The least role a route needs: its group's read role for GET and HEAD, its write role for the
 * other methods. Throws for a route no group holds, or a method its group has no role for: the
 * table must be told of every call before the service starts with it.
 */
export function leastRoleFor(method: string | readonly string[], path: string): SiteRole {
  const methods = [method].flat().map((name) => name.toUpperCase());
  const group = routeGroupOf(path);
  if (group === undefined)
    throw new Error(`No route group holds ${methods} ${path}: add it to SITE_ROUTE_GROUPS (http/route-groups.ts).`);
  const role = methods.every((name) => READS.has(name)) ? group.read : group.write;
  if (role === null)
    throw new Error(`The route group "${group.name}" has no role for ${methods} ${path} (http/route-groups.ts).`);
  return role;
}

/** 403 insufficient_role for a caller whose role on the site is below what the call needs; the site exists for them. */
export function refusedRole(role: SiteRole, least: SiteRole, details: Record<string, unknown> = {}): HttpError {
  const refusal = insufficientRole(role, least, details);
  return preFail(refusal.code, refusal.details, refusal.message);
}

/** Refuses a role below what writing at `path` (a site-relative route address) needs. */
export function requireWriter(role: SiteRole, path: string, details: Record<string, unknown> = {}): void {
  const least = leastRoleFor("POST", path);
  if (!reaches(role, least)) throw refusedRole(role, least, details);
}

// Which site a site-scoped call acts on (docs/security.md, "Nothing learned from outside"), and
// whether the caller's role on it may make the call (docs/roles.md).
// `/api/site/{id}/…`: an unknown site, a foreign one and one the caller holds no role on all answer
// 404 site_not_found, so a caller never learns whether a foreign site exists. A caller with a role
// below the route's least role (its group's, route-groups.ts) knows the site: 403 insufficient_role.
// Legacy `/api/…`: chosen by query blog_id, header X-Svc-Blog-Id, then query domain; with none,
// the main site and `X-Svc-Blog-Source: default`; a non-administrator gets 403 insufficient_role,
// for an unknown site exactly as for a foreign one, so the legacy selectors do not
// tell which sites exist either. Only a super-administrator, who may see every site, gets 404
// site_not_found for a site that does not exist.
import type { FastifyContextConfig, FastifyReply, FastifyRequest } from "fastify";
import { preFail } from "./errors.ts";
import { fieldOf } from "./request.ts";
import type { Db } from "../store/database.ts";
import { administers, siteRoleOf } from "../site/callers.ts";
import { reaches, type SiteRole } from "../site/roles.ts";
import { refusedRole } from "./route-groups.ts";
import { MAIN_SITE_ID, siteByAlias, siteByDomain, siteById as readSite, type SiteRow } from "../site/sites.ts";
import { keptUntilWrite, thenOf, type MaybePromise } from "../store/kept-reads.ts";

declare module "fastify" {
  interface FastifyRequest {
    site: SiteRow;
    /** The caller's role on `site`: what the call may do (the legacy address takes administrators only). */
    siteRole: SiteRole;
  }
  interface FastifyContextConfig {
    /** How a site-scoped route names its site; set by registerSiteRoutes. */
    siteAddressStyle?: SiteAddressStyle;
    /** The least role a route of `/api/site/{site_id}` needs (route-groups.ts); set by registerSiteRoutes. */
    role?: SiteRole;
  }
}

export type SiteAddressStyle = "path" | "legacy";

function positiveInt(value: unknown): number | null {
  if (typeof value !== "string" || !/^[1-9]\d{0,9}$/.test(value)) return null;
  const n = Number(value);
  return n <= 2_147_483_647 ? n : null;
}

/** Every site-scoped call reads its site: the row is kept until the database changes. */
function siteById(db: Db, id: number): MaybePromise<SiteRow | undefined> {
  return keptUntilWrite(db, `site:${id}`, async () => {
    const row = await readSite(db, id);
    return row && Object.freeze(row);
  });
}

function first(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The site of `/api/site/{site_id}/…` and the caller's role on it: no role is 404 site_not_found,
 * a role below `least` 403 insufficient_role. At once, not in a promise, when the site and the
 * caller's role are kept (store/kept-reads.ts).
 */
function bySitePath(db: Db, request: FastifyRequest, least: SiteRole): MaybePromise<SiteRow> {
  const id = positiveInt(fieldOf(request.params, "site_id"));
  const caller = request.caller;
  if (id === null || !caller) throw preFail("site_not_found");
  return thenOf(siteById(db, id), (site) => {
    if (!site) throw preFail("site_not_found");
    return thenOf(siteRoleOf(db, caller, site.id), (role) => admitted(request, site, role, least));
  });
}

/** The site when the caller's role on it reaches `least`; else as bySitePath says. */
function admitted(request: FastifyRequest, site: SiteRow, role: SiteRole | null, least: SiteRole): SiteRow {
  if (role === null) throw preFail("site_not_found");
  if (!reaches(role, least)) throw refusedRole(role, least);
  request.siteRole = role;
  return site;
}

/** The site a legacy address's selector names, for a caller who administers it (else as the legacy address refuses). */
export async function byLegacySelector(db: Db, request: FastifyRequest, reply: FastifyReply): Promise<SiteRow> {
  const blogId = first(fieldOf(request.query, "blog_id"));
  const header = first(request.headers["x-svc-blog-id"]);
  const domain = first(fieldOf(request.query, "domain"));

  let site: SiteRow | undefined;
  let source: string;
  if (blogId !== undefined && blogId !== "") {
    source = "blog_id";
    const id = positiveInt(blogId);
    site = id === null ? undefined : await siteById(db, id);
  } else if (header !== undefined && header !== "") {
    source = "header";
    const id = positiveInt(header);
    site = id === null ? undefined : await siteById(db, id);
  } else if (typeof domain === "string" && domain !== "") {
    source = "domain";
    // Any domain of the site, primary or alias (docs/domains.md), in any case.
    const name = domain.trim().toLowerCase();
    site = (await siteByDomain(db, name)) ?? (await siteByAlias(db, name));
  } else {
    source = "default";
    site = await siteById(db, MAIN_SITE_ID);
  }
  reply.header("X-Svc-Blog-Source", source);
  if (!site) throw preFail(request.caller?.superAdmin ? "site_not_found" : "insufficient_role");
  if (!request.caller || !(await administers(db, request.caller, site.id))) throw preFail("insufficient_role");
  request.siteRole = "administrator";
  return site;
}

/**
 * The site a call addressed, for its log line (request-line.ts): the one it acts on once resolved,
 * else the id its path names (`/api/site/{site_id}/…`, even where that site was refused), else null.
 */
export function addressedSiteId(request: FastifyRequest): number | null {
  // `site` is set only where it was resolved (siteScope below).
  return (request.site as SiteRow | undefined)?.id ?? positiveInt(fieldOf(request.params, "site_id"));
}

/**
 * Sets `request.site` on a site-scoped route (its config names the addressing, see
 * site-routes.ts); other routes are left alone. Called by the app's request hook, after the guard.
 */
export function siteScope(db: Db) {
  return function resolveSite(
    request: FastifyRequest,
    reply: FastifyReply,
    config: FastifyContextConfig | undefined,
  ): MaybePromise<void> {
    const style = config?.siteAddressStyle;
    if (style === undefined) return;
    const site =
      style === "path"
        ? bySitePath(db, request, config?.role ?? "administrator")
        : byLegacySelector(db, request, reply);
    return thenOf(site, (row) => {
      request.site = row;
    });
  };
}

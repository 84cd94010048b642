// Site-scoped capabilities are served at two addresses: `/api/site/{site_id}/…`
// and the legacy `/api/…` that picks the site by blog_id, X-Svc-Blog-Id or domain.
// Each capability registers its routes once, through this, and gets both.
import type { FastifyInstance } from "fastify";
import type { ServiceContext } from "../write/context.ts";
import type { SiteAddressStyle } from "./site-scope.ts";
import { leastRoleFor } from "./route-groups.ts";
import { typedRoutes, type TypedFastify } from "./typed-fastify.ts";

export type SiteRoutes = (scope: TypedFastify, ctx: ServiceContext) => void;

/**
 * `everywhere`: served at both addresses. `pathOnly`: only under `/api/site/{site_id}`, for
 * calls whose legacy form would collide with a network path (site memberships vs `/api/users`).
 */
export function registerSiteRoutes(
  app: FastifyInstance,
  ctx: ServiceContext,
  everywhere: SiteRoutes[],
  pathOnly: SiteRoutes[],
): void {
  const mount = (prefix: string, style: SiteAddressStyle, capabilities: SiteRoutes[]) =>
    app.register(
      async (scope) => {
        // The site is resolved by the app's one request hook (src/app.ts), told by this config; at
        // `/api/site/{site_id}` with the least role of the route's group (route-groups.ts).
        scope.addHook("onRoute", (route) => {
          const role = style === "path" ? { role: leastRoleFor(route.method, route.routePath) } : {};
          route.config = { ...route.config, siteAddressStyle: style, ...role };
          if (style === "legacy") route.schema = { ...route.schema, deprecated: true } as typeof route.schema;
        });
        for (const register of capabilities) register(typedRoutes(scope), ctx);
      },
      { prefix },
    );
  mount("/api/site/:site_id", "path", [...everywhere, ...pathOnly]);
  mount("/api", "legacy", everywhere);
}

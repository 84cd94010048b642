// Quotas (docs/security.md): GET/PATCH /api/sites/{id}/quotas (super-administrators) with the
// other network calls on a site, and GET /usage, site-scoped (both addresses) for the site's
// administrators.
import type { FastifyRequest } from "fastify";
import type { TypedFastify } from "../http/typed-fastify.ts";
import { fail } from "../errors.ts";
import { ok } from "../http/ok.ts";
import { commonErrors, Obj, Opt, Refusing, Success, Type } from "../http/schema.ts";
import type { ServiceContext } from "../write/context.ts";
import type { Caller } from "../site/callers.ts";
import { QUOTA_KEYS, QUOTAS } from "../quotas/catalogue.ts";
import { getSiteQuotas, patchSiteQuotas, siteUsage } from "./quotas-service.ts";

const describe = (key: (typeof QUOTA_KEYS)[number]) =>
  `${QUOTAS[key].counts} (${QUOTAS[key].unit}; default ${QUOTAS[key].default})`;

const Quotas = Obj(
  Object.fromEntries(QUOTA_KEYS.map((key) => [key, Type.Integer({ minimum: 0, description: describe(key) })])),
);
/** Each quota typed; another value is 400 invalid_quota naming the key (an unknown key: the service's). */
const QuotasPatch = Obj(
  Object.fromEntries(
    QUOTA_KEYS.map((key) => [
      key,
      Opt(
        Refusing(
          Type.Union([Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }), Type.Null()], {
            description: `a whole number >= 0 sets it, null restores the default; ${describe(key)}`,
          }),
          "invalid_quota",
          { name: "quota", value: "value" },
        ),
      ),
    ]),
  ),
  "Any of the quotas; an unknown key or another value is 400 invalid_quota",
);
const QuotasAnswer = Success({ site_id: Type.Integer(), quotas: Quotas });
const Usage = Obj(
  Object.fromEntries(
    QUOTA_KEYS.map((key) => [key, Obj({ used: Type.Integer(), limit: Type.Integer() }, describe(key))]),
  ),
);

function caller(request: FastifyRequest): Caller {
  if (!request.caller) throw fail("missing_token");
  return request.caller;
}

const idOf = (request: { params: { id: string } }) => request.params.id;

export function quotaRoutes(app: TypedFastify, ctx: ServiceContext): void {
  const tags = ["network"];
  const params = Obj({ id: Type.String() });

  app.get(
    "/api/sites/:id/quotas",
    {
      schema: {
        operationId: "getSiteQuotas",
        tags,
        summary: "A site's quotas (super-administrator)",
        params,
        response: { 200: QuotasAnswer, ...commonErrors },
      },
    },
    async (request) => ok({ ...(await getSiteQuotas(ctx, caller(request), idOf(request))) }),
  );

  app.patch(
    "/api/sites/:id/quotas",
    {
      schema: {
        operationId: "patchSiteQuotas",
        tags,
        summary: "Set a site's quotas: a whole number >= 0 sets one, null restores its default (super-administrator)",
        params,
        body: QuotasPatch,
        response: { 200: QuotasAnswer, ...commonErrors },
      },
    },
    async (request) => ok({ ...(await patchSiteQuotas(ctx, caller(request), idOf(request), request.body)) }),
  );
}

/** GET /usage: site-scoped, registered for both addresses. */
export function usageRoutes(scope: TypedFastify, ctx: ServiceContext): void {
  scope.get(
    "/usage",
    {
      schema: {
        operationId: "getUsage",
        tags: ["network"],
        summary: "The site's use of each quota, with its limit",
        response: { 200: Success({ site_id: Type.Integer(), usage: Usage }), ...commonErrors },
      },
    },
    async (request) => ok({ ...(await siteUsage(ctx, request.site.id)) }),
  );
}

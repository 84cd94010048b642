// A site's domains (docs/domains.md): GET and POST /api/sites/{id}/domains and
// DELETE /api/sites/{id}/domains/{domain}, super-administrators only, with the other network
// calls on a site.
import type { FastifyRequest } from "fastify";
import type { TypedFastify } from "../http/typed-fastify.ts";
import { fail } from "../errors.ts";
import { ok } from "../http/ok.ts";
import { bodyOf, dryRunOf, DryRunQuery } from "../http/request.ts";
import { commonErrors, DryRunAnswer, Nullable, Obj, Opt, Success, Type } from "../http/schema.ts";
import type { ServiceContext } from "../write/context.ts";
import type { Caller } from "../site/callers.ts";
import { unknownFields } from "../warnings.ts";
import { addAlias, listDomains, removeAlias } from "./domains-service.ts";
import { setDomainScheme } from "./domain-scheme-service.ts";

const Domain = Obj(
  {
    domain: Type.String(),
    primary: Type.Boolean(),
    https: Type.Union([Type.Boolean(), Type.Null()], {
      description: "true: served over HTTPS; false: over plain HTTP; null: as SVC_PUBLIC_SCHEME says (docs/domains.md)",
    }),
    scheme: Type.Union([Type.Literal("http"), Type.Literal("https")], {
      description: "The scheme of the addresses printed on this domain: `https`, else SVC_PUBLIC_SCHEME",
    }),
  },
  "A domain of the site: its primary one, or an alias answering 301 to it",
);
const Domains = Type.Array(Domain, { description: "The primary domain first, then the aliases by name" });
const Listed = Success({ site_id: Type.Integer(), domains: Domains });
const Changed = Success({ site_id: Type.Integer(), domain: Domain, domains: Domains });

function caller(request: FastifyRequest): Caller {
  if (!request.caller) throw fail("missing_token");
  return request.caller;
}

const idOf = (request: { params: { id: string } }) => request.params.id;

export function domainRoutes(app: TypedFastify, ctx: ServiceContext): void {
  const tags = ["network"];

  app.get(
    "/api/sites/:id/domains",
    {
      schema: {
        operationId: "listSiteDomains",
        tags,
        summary: "A site's domains: the primary one first, then its aliases (super-administrator)",
        params: Obj({ id: Type.String() }),
        response: { 200: Listed, ...commonErrors },
      },
    },
    async (request) => ok({ ...(await listDomains(ctx, caller(request), idOf(request))) }),
  );

  app.post(
    "/api/sites/:id/domains",
    {
      schema: {
        operationId: "createSiteDomain",
        tags,
        summary:
          "Add an alias: requests on it answer 301 to the same address on the primary domain (super-administrator); normalised (lower case, punycode), 400 invalid_domain, 409 domain_taken",
        params: Obj({ id: Type.String() }),
        body: Obj({ domain: Opt(Type.String()) }),
        response: { 201: Changed, ...commonErrors },
      },
    },
    async (request, reply) => {
      const body = bodyOf(request);
      const added = await addAlias(ctx, caller(request), idOf(request), body);
      return reply.code(201).send(ok({ ...added }, unknownFields(body, ["domain"])));
    },
  );

  app.patch(
    "/api/sites/:id/domains/:domain",
    {
      schema: {
        operationId: "updateSiteDomain",
        tags,
        summary:
          "Set a domain's scheme (super-administrator): https true, false, or null to follow SVC_PUBLIC_SCHEME; the primary domain's republishes every page with its new addresses; 404 domain_not_found for a domain that is not this site's",
        params: Obj({ id: Type.String(), domain: Type.String() }),
        body: Obj({ https: Nullable(Type.Boolean()) }),
        response: { 200: Changed, ...commonErrors },
      },
    },
    async (request) => {
      const body = bodyOf(request);
      const { id, domain } = request.params;
      return ok({ ...(await setDomainScheme(ctx, caller(request), id, domain, body)) }, unknownFields(body, ["https"]));
    },
  );

  app.delete(
    "/api/sites/:id/domains/:domain",
    {
      schema: {
        operationId: "deleteSiteDomain",
        tags,
        summary:
          "Remove an alias (super-administrator); the primary domain is 409 domain_is_primary, a domain that is no alias of the site 404 domain_not_found; ?dry_run=1 answers the same and removes nothing",
        params: Obj({ id: Type.String(), domain: Type.String() }),
        querystring: Obj(DryRunQuery),
        response: {
          200: Success({
            site_id: Type.Integer(),
            domain: Domain,
            deleted: Type.Boolean(),
            domains: Domains,
            ...DryRunAnswer,
          }),
          ...commonErrors,
        },
      },
    },
    async (request) => {
      const params = request.params;
      return ok({
        ...(await removeAlias(ctx, caller(request), params.id, params.domain, { dryRun: dryRunOf(request) })),
        deleted: true,
      });
    },
  );
}

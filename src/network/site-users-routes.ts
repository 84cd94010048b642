// The site's members: GET /api/site/{site_id}/users, and a user's role on the site, PUT/DELETE
// /api/site/{site_id}/users/{user_id} (docs/foundation.md). Site-scoped and in the route group
// "Members" (http/route-groups.ts), so only the site's administrators and super-administrators
// reach them (docs/roles.md).
import type { TypedFastify } from "../http/typed-fastify.ts";
import type { ServiceContext } from "../write/context.ts";
import { fail } from "../errors.ts";
import { ok } from "../http/ok.ts";
import { pagedList, PagingQuery } from "../http/pagination.ts";
import { bodyOf, dryRunFields, dryRunOf, DryRunQuery } from "../http/request.ts";
import { commonErrors, DryRunAnswer, Obj, Opt, Success, Type } from "../http/schema.ts";
import { listMembers, removeRole, setRole } from "./users-service.ts";

const Params = Obj({ user_id: Type.String() });
const Answer = Success({ site_id: Type.Integer(), user_id: Type.Integer(), role: Type.String() });

const Member = Obj({ id: Type.Integer(), login: Type.String(), role: Type.String() });

export function siteUserRoutes(scope: TypedFastify, ctx: ServiceContext): void {
  const tags = ["network"];

  scope.get(
    "/users",
    {
      schema: {
        operationId: "listSiteUsers",
        tags,
        summary:
          "The site's members with their roles, by user id; paged by ?per_page and ?page (Link, X-WP-Total, X-WP-TotalPages)",
        querystring: Obj(PagingQuery),
        response: {
          200: Success({ site_id: Type.Integer(), total: Type.Integer(), users: Type.Array(Member) }),
          ...commonErrors,
        },
      },
    },
    async (request, reply) => {
      const list = await pagedList(request, reply, (paging) => listMembers(ctx, request.site.id, paging));
      return ok({ site_id: request.site.id, ...list });
    },
  );

  scope.put(
    "/users/:user_id",
    {
      schema: {
        operationId: "putSiteUser",
        tags,
        summary: "Give a user a role on the site (administrator or editor)",
        params: Params,
        body: Obj({ role: Opt(Type.String()) }),
        response: { 200: Answer, ...commonErrors },
      },
    },
    async (request) => {
      if (!request.caller) throw fail("missing_token");
      const done = await setRole(ctx, request.site.id, request.params.user_id, request.caller, bodyOf(request));
      return ok({ site_id: request.site.id, ...done });
    },
  );

  scope.delete(
    "/users/:user_id",
    {
      schema: {
        operationId: "deleteSiteUser",
        tags,
        summary: "Remove a user's role on the site; ?dry_run=1 answers the same and removes nothing",
        params: Params,
        querystring: Obj(DryRunQuery),
        response: {
          200: Success({
            site_id: Type.Integer(),
            user_id: Type.Integer(),
            role: Type.String(),
            removed: Type.Literal(true),
            ...DryRunAnswer,
          }),
          ...commonErrors,
        },
      },
    },
    async (request) => {
      if (!request.caller) throw fail("missing_token");
      const dryRun = dryRunOf(request);
      const done = await removeRole(ctx, request.site.id, request.params.user_id, request.caller, { dryRun });
      return ok({ site_id: request.site.id, ...done, removed: true, ...dryRunFields(dryRun) });
    },
  );
}

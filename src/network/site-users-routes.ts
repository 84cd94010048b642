// A user's role on a site: PUT/DELETE /api/site/{site_id}/users/{user_id} (docs/foundation.md).
// Site-scoped, so only the site's administrators and super-administrators reach it.
import type { TypedFastify } from "../http/typed-fastify.ts";
import type { ServiceContext } from "../write/context.ts";
import { fail } from "../errors.ts";
import { ok } from "../http/ok.ts";
import { bodyOf, dryRunFields, dryRunOf, DryRunQuery } from "../http/request.ts";
import { commonErrors, DryRunAnswer, Obj, Opt, Success, Type } from "../http/schema.ts";
import { removeRole, setRole } from "./users-service.ts";

const Params = Obj({ user_id: Type.String() });
const Answer = Success({ site_id: Type.Integer(), user_id: Type.Integer(), role: Type.String() });

export function siteUserRoutes(scope: TypedFastify, ctx: ServiceContext): void {
  const tags = ["network"];

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

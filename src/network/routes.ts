// Network-level routes: sites, users, tokens, login, profile. No site prefix.
import type { TypedFastify } from "../http/typed-fastify.ts";
import type { Limits } from "../http/limits.ts";
import type { ServiceContext } from "../write/context.ts";
import { unknownFields } from "../warnings.ts";
import { ok } from "../http/ok.ts";
import { pagedList, PagingQuery } from "../http/pagination.ts";
import { bodyOf, dryRunFields, dryRunOf, DryRunQuery } from "../http/request.ts";
import { commonErrors, DryRunAnswer, Obj, Opt, Success, Type } from "../http/schema.ts";
import { createSite, deleteSite, getSite, listSites, updateSite } from "./sites-service.ts";
import { issueToken, listTokens, reissueToken, revokeToken } from "./tokens-service.ts";
import { createUser, getUser, listUsers, profile } from "./users-service.ts";
import { siteIdFrom } from "./input.ts";
import { quotaRoutes } from "./quota-routes.ts";
import { domainRoutes } from "./domain-routes.ts";
import { caller, User } from "./route-parts.ts";
import { signInRoutes } from "./sign-in-routes.ts";

const Site = Obj({
  id: Type.Integer(),
  name: Type.String(),
  domain: Type.String(),
  home_url: Type.String(),
  created_at_gmt: Type.String(),
});
const Issued = Success({ token_id: Type.Integer(), token: Type.String() });
const SiteId = Obj({ id: Type.String() });
const UserId = Obj({ id: Type.String() });
const UserToken = Obj({ id: Type.String(), token_id: Type.String() });
const Paged = Obj(PagingQuery);

function siteIdOf(request: { params: { id: string } }): number {
  return siteIdFrom(request.params.id);
}

export function networkRoutes(app: TypedFastify, ctx: ServiceContext, limits: Limits, adminHost: string): void {
  const tags = ["network"];

  app.post(
    "/api/sites",
    {
      schema: {
        operationId: "createSite",
        tags,
        summary: "Create a site (super-administrator)",
        body: Obj({ name: Opt(Type.String()), domain: Opt(Type.String()) }),
        response: { 201: Success({ site: Site }), ...commonErrors },
      },
    },
    async (request, reply) => {
      const site = await createSite(ctx, caller(request), bodyOf(request));
      return reply.code(201).send(ok({ site }, unknownFields(bodyOf(request), ["name", "domain"])));
    },
  );

  app.get(
    "/api/sites",
    {
      schema: {
        operationId: "listSites",
        tags,
        summary:
          "Sites the caller holds a role on (all for a super-administrator), by id; paged by ?per_page and ?page (Link, X-WP-Total, X-WP-TotalPages)",
        querystring: Paged,
        response: { 200: Success({ total: Type.Integer(), sites: Type.Array(Site) }), ...commonErrors },
      },
    },
    async (request, reply) => ok(await pagedList(request, reply, (paging) => listSites(ctx, caller(request), paging))),
  );

  app.get(
    "/api/sites/:id",
    {
      schema: {
        operationId: "getSite",
        tags,
        summary: "One site the caller holds a role on",
        params: SiteId,
        response: { 200: Success({ site: Site }), ...commonErrors },
      },
    },
    async (request) => ok({ site: await getSite(ctx, caller(request), siteIdOf(request)) }),
  );

  app.patch(
    "/api/sites/:id",
    {
      schema: {
        operationId: "patchSite",
        tags,
        summary: "Rename a site (its administrators) or change its domain (super-administrator)",
        params: SiteId,
        body: Obj({ name: Opt(Type.String()), domain: Opt(Type.String()) }),
        response: { 200: Success({ site: Site }), ...commonErrors },
      },
    },
    async (request) => {
      const site = await updateSite(ctx, caller(request), siteIdOf(request), bodyOf(request));
      return ok({ site }, unknownFields(bodyOf(request), ["name", "domain"]));
    },
  );

  app.delete(
    "/api/sites/:id",
    {
      schema: {
        operationId: "deleteSite",
        tags,
        summary:
          "Delete a site and everything in it (super-administrator; not the main site); ?dry_run=1 answers the same and deletes nothing",
        params: SiteId,
        querystring: Obj(DryRunQuery),
        response: { 200: Success({ site: Site, deleted: Type.Literal(true), ...DryRunAnswer }), ...commonErrors },
      },
    },
    async (request) => {
      const dryRun = dryRunOf(request);
      const site = await deleteSite(ctx, caller(request), siteIdOf(request), { dryRun });
      return ok({ site, deleted: true, ...dryRunFields(dryRun) });
    },
  );

  quotaRoutes(app, ctx);
  domainRoutes(app, ctx);
  signInRoutes(app, ctx, limits, adminHost);

  app.post(
    "/api/users",
    {
      schema: {
        operationId: "createUser",
        tags,
        summary: "Create a user (super-administrator)",
        body: Obj({
          login: Opt(Type.String()),
          email: Opt(Type.String()),
          password: Opt(Type.String()),
          super_admin: Opt(Type.Boolean()),
        }),
        response: { 201: Success({ user: User }), ...commonErrors },
      },
    },
    async (request, reply) => {
      const user = await createUser(ctx, caller(request), bodyOf(request));
      return reply
        .code(201)
        .send(ok({ user }, unknownFields(bodyOf(request), ["login", "email", "password", "super_admin"])));
    },
  );

  app.get(
    "/api/users",
    {
      schema: {
        operationId: "listUsers",
        tags,
        summary:
          "Every user (super-administrator), by id; paged by ?per_page and ?page (Link, X-WP-Total, X-WP-TotalPages)",
        querystring: Paged,
        response: { 200: Success({ total: Type.Integer(), users: Type.Array(User) }), ...commonErrors },
      },
    },
    async (request, reply) => ok(await pagedList(request, reply, (paging) => listUsers(ctx, caller(request), paging))),
  );

  app.get(
    "/api/users/:id",
    {
      schema: {
        operationId: "getUser",
        tags,
        summary: "One user (itself, or any for a super-administrator); `me` is the caller",
        params: UserId,
        response: { 200: Success({ user: User }), ...commonErrors },
      },
    },
    async (request) => ok({ user: await getUser(ctx, caller(request), request.params.id) }),
  );

  app.post(
    "/api/users/:id/tokens",
    {
      schema: {
        operationId: "createUserToken",
        tags,
        summary: "Issue a token; the secret is shown only in this answer",
        params: UserId,
        body: Obj({
          label: Opt(Type.String()),
          read_only: Opt(
            Type.Boolean({
              description:
                "true: a token that reads only; every write it sends is refused (403 read_only_token) and MCP lists it only the reading tools",
            }),
          ),
        }),
        response: { 201: Issued, ...commonErrors },
      },
    },
    async (request, reply) => {
      const issued = await issueToken(ctx, caller(request), request.params.id, bodyOf(request));
      return reply.code(201).send(ok({ ...issued }, unknownFields(bodyOf(request), ["label", "read_only"])));
    },
  );

  app.get(
    "/api/users/:id/tokens",
    {
      schema: {
        operationId: "listUserTokens",
        tags,
        summary:
          "A user's tokens, without their secrets, by id; paged by ?per_page and ?page (Link, X-WP-Total, X-WP-TotalPages)",
        params: UserId,
        querystring: Paged,
        response: {
          200: Success({
            total: Type.Integer(),
            tokens: Type.Array(
              Obj({
                token_id: Type.Integer(),
                label: Type.Union([Type.String(), Type.Null()]),
                created_at_gmt: Type.String(),
                issued_at_gmt: Type.String({ description: "when its current secret was issued (reissue changes it)" }),
                read_only: Type.Boolean({ description: "a token that reads only (every write refused)" }),
              }),
            ),
          }),
          ...commonErrors,
        },
      },
    },
    async (request, reply) =>
      ok(await pagedList(request, reply, (paging) => listTokens(ctx, caller(request), request.params.id, paging))),
  );

  app.delete(
    "/api/users/:id/tokens/:token_id",
    {
      schema: {
        operationId: "deleteUserToken",
        tags,
        summary: "Revoke a token; ?dry_run=1 answers the same and the token keeps working",
        params: UserToken,
        querystring: Obj(DryRunQuery),
        response: {
          200: Success({ token_id: Type.Integer(), revoked: Type.Boolean(), ...DryRunAnswer }),
          ...commonErrors,
        },
      },
    },
    async (request) => {
      const params = request.params;
      const dryRun = dryRunOf(request);
      const tokenId = await revokeToken(ctx, caller(request), params.id, params.token_id, { dryRun });
      return ok({ token_id: tokenId, revoked: true, ...dryRunFields(dryRun) });
    },
  );

  app.post(
    "/api/users/:id/tokens/:token_id/reissue",
    {
      schema: {
        operationId: "reissueUserToken",
        tags,
        summary: "A new secret for a token; the old one stops working",
        params: UserToken,
        response: { 200: Issued, ...commonErrors },
      },
    },
    async (request) => {
      const params = request.params;
      return ok({ ...(await reissueToken(ctx, caller(request), params.id, params.token_id)) });
    },
  );

  app.get(
    "/api/profile",
    {
      schema: {
        operationId: "getProfile",
        tags,
        summary: "The caller and the sites it has a role on",
        response: {
          200: Success({
            user: User,
            sites: Type.Array(Obj({ id: Type.Integer(), name: Type.String(), role: Type.String() })),
          }),
          ...commonErrors,
        },
      },
    },
    async (request) => ok({ ...(await profile(ctx, caller(request))) }),
  );
}

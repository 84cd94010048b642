// GET /api/site/{site_id}/events: the site's events, for its administrators; GET /api/events: the
// whole network's, for super-administrators, or one site's with a legacy site selector (blog_id,
// X-Svc-Blog-Id, domain) as every legacy address (docs/events.md).
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { fail } from "../errors.ts";
import { ok } from "../http/ok.ts";
import { commonErrors, Obj, Opt, Success, Type } from "../http/schema.ts";
import { byLegacySelector } from "../http/site-scope.ts";
import type { TypedFastify } from "../http/typed-fastify.ts";
import { typedRoutes } from "../http/typed-fastify.ts";
import type { ServiceContext } from "../write/context.ts";
import { listEvents, MAX_EVENTS_LIMIT } from "./service.ts";

const Str = Type.String();
const Nullable = (schema: ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>) =>
  Type.Union([schema, Type.Null()]);

export const EventSchema = Obj({
  id: Type.Integer({ description: "increasing across the network" }),
  site_id: Nullable(Type.Integer()),
  type: Type.String({ description: "<kind>.<verb>, e.g. frame.created, page.published, site.changed" }),
  object: Obj({ kind: Str, id: Str, slug: Nullable(Str) }),
  actor: Obj({ user_id: Nullable(Type.Integer()), token_id: Nullable(Type.Integer()) }),
  request_id: Nullable(Str),
  at: Type.String({ description: "ISO 8601 UTC" }),
  changes: Obj({
    fields: Type.Array(Str),
    sha256_before: Nullable(Str),
    sha256_after: Nullable(Str),
  }),
  published: Type.Union([
    Obj({
      rebaked: Type.Integer({ description: "pages whose public output the write rewrote or withdrew" }),
      urls: Type.Array(Str, { description: "the public addresses it refreshed" }),
    }),
    Type.Null(),
  ]),
});

export const EventsQuery = Obj({
  since: Opt(Type.String({ description: "an event id: only later ones (default 0)" })),
  type: Opt(Type.String({ description: "a type, or a prefix: frame matches frame.created and frame.deleted" })),
  limit: Opt(Type.String({ description: `how many, 1 to ${MAX_EVENTS_LIMIT} (default 100)` })),
});

const summary = "oldest first after ?since (exclusive), ?type a type or its prefix, ?limit";

/** The site's events (registered at /api/site/{site_id} only: /api/events is the network's). */
export function siteEventRoutes(scope: TypedFastify, ctx: ServiceContext): void {
  scope.get(
    "/events",
    {
      schema: {
        operationId: "listSiteEvents",
        tags: ["events"],
        summary: `The site's events: ${summary}`,
        querystring: EventsQuery,
        response: { 200: Success({ site_id: Type.Integer(), events: Type.Array(EventSchema) }), ...commonErrors },
      },
    },
    async (request) =>
      ok({ site_id: request.site.id, events: await listEvents(ctx.db, request.site.id, request.query) }),
  );
}

const SELECTORS = ["blog_id", "domain"];

/**
 * The site a network address (/api/events, its stream) reads: the one a legacy selector names, for
 * its administrators; without one, null (the whole network), for super-administrators only.
 */
export async function networkScopeOf(ctx: ServiceContext, request: FastifyRequest, reply: FastifyReply) {
  const query = request.query as Record<string, string | undefined>;
  const selected = SELECTORS.some((name) => query[name]) || request.headers["x-svc-blog-id"] !== undefined;
  if (selected) return (await byLegacySelector(ctx.db, request, reply)).id;
  if (!request.caller?.superAdmin)
    throw fail(
      "insufficient_role",
      {},
      "The network's events are the super-administrators'; name a site with blog_id.",
    );
  return null;
}

export function networkEventRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  typedRoutes(app).get(
    "/api/events",
    {
      schema: {
        operationId: "listEvents",
        tags: ["events"],
        summary: `The whole network's events (super-administrators), or one site's with blog_id, X-Svc-Blog-Id or domain: ${summary}`,
        querystring: Obj({ ...EventsQuery.properties, blog_id: Opt(Str), domain: Opt(Str) }),
        response: {
          200: Success({ site_id: Nullable(Type.Integer()), events: Type.Array(EventSchema) }),
          ...commonErrors,
        },
      },
    },
    async (request, reply) => {
      const siteId = await networkScopeOf(ctx, request, reply);
      return ok({ site_id: siteId, events: await listEvents(ctx.db, siteId, request.query) });
    },
  );
}

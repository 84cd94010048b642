// History calls (docs/revisions.md): under every kind's object address, `…/revisions`, `…/revisions/{n}`,
// `…/revisions/{n}/diff?to=` and `POST …/revisions/{n}/restore`; and `GET /trash`,
// `POST /trash/{kind}/{id}/restore`, `DELETE /trash/{kind}/{id}`. Site-scoped, at both addresses.
// An object's revision calls belong to its kind's route group (http/route-groups.ts); the trash is
// one group for every kind, so its restores and purges also need the role that writes the item's
// kind (docs/roles.md).
import type { FastifyReply, FastifyRequest } from "fastify";
import type { TypedFastify } from "../http/typed-fastify.ts";
import { ok } from "../http/ok.ts";
import { pagedList, PagingQuery } from "../http/pagination.ts";
import type { TSchema } from "@sinclair/typebox";
import { commonErrors, DryRunAnswer, Obj, Opt, Rebaked, Success, Type, Warnings } from "../http/schema.ts";
import { dryRunFields, dryRunOf, DryRunQuery } from "../http/request.ts";
import { requireWriter } from "../http/route-groups.ts";
import type { ServiceContext } from "../write/context.ts";
import { REVISION_KINDS, type RevisionKind } from "../revisions/revisions.ts";
import { HISTORY_KINDS } from "./kinds.ts";
import type { HistoryCall, HistoryKind, RestoreAnswer } from "./kind.ts";
import {
  diffObjectRevisions,
  getObjectRevision,
  listObjectRevisions,
  listSiteChanges,
  listTrashItems,
  purgeTrashItem,
  restoreObjectRevision,
  restoreTrashed,
} from "./service.ts";

const Str = Type.String();
const Int = Type.Integer();
const Kind = Type.Union(REVISION_KINDS.map((kind) => Type.Literal(kind)));
const Revision = Obj({
  revision: Type.Integer({ description: "1, 2, … per object" }),
  sha256: Type.String({ description: "of the content" }),
  bytes: Type.Integer({ description: "UTF-8 bytes of the content" }),
  created_at_gmt: Str,
  created_by: Type.Union([Int, Type.Null()], { description: "the user whose call wrote it; null for a start-up task" }),
  summary: Type.Array(Str, { description: "the names of the fields changed (every field of a first revision)" }),
});
const RevisionWithContent = Obj({
  ...Revision.properties,
  content: Type.String({
    description:
      "the markup of a frame, the CSS of a stylesheet; the object's JSON for the others, one field per line, keys sorted",
  }),
  fields: Obj({}, "the fields the summary compares"),
});
const Restored = Obj({
  kind: Kind,
  id: Str,
  from_revision: Int,
  revision: Type.Integer({ description: "the object's last revision after the restore" }),
});
const RestoreAnswerSchema = Type.Object(
  { success: Type.Literal(true), warnings: Warnings, site_id: Int, restored: Restored, rebaked: Opt(Rebaked) },
  {
    additionalProperties: true,
    description: "the restoring write's answer (as the kind's write answers), and restored",
  },
);
const TrashItem = Obj({
  kind: Kind,
  id: Str,
  slug: Type.String({ description: "its slug or name when it was deleted" }),
  last_revision: Int,
  deleted_at_gmt: Str,
  deleted_by: Type.Union([Int, Type.Null()]),
});

/** `query`: the route's own parameters (lang, theme); the trash routes take none. */
function callOf(ctx: ServiceContext, request: FastifyRequest, query: Record<string, unknown> = {}): HistoryCall {
  const header = request.headers["if-match"];
  return {
    ctx,
    site: request.site,
    userId: request.caller!.userId,
    query,
    ifMatch: Array.isArray(header) ? header.join(",") : header,
  };
}

/** A restoring write's answer, led by the site as every site call's answer is. */
function send(request: FastifyRequest, reply: FastifyReply, answer: RestoreAnswer) {
  if (answer.etag) reply.header("ETag", answer.etag);
  const { warnings, ...rest } = answer.body as { warnings?: [] };
  return reply.send(ok({ site_id: request.site.id, ...rest }, warnings ?? []));
}

// The reads have no HEAD twin (exposeHeadRoute: false): nobody asks a revision's headers, and the
// 19 reads at two addresses would add 38 routes to every start (bench, cold_start).
function objectRoutes(scope: TypedFastify, ctx: ServiceContext, adapter: HistoryKind): void {
  const tags = ["history"];
  const noun = adapter.noun;
  const name = `${noun.replace(/ (.)/g, (_m, c: string) => c.toUpperCase()).replace(/^./, (c) => c.toUpperCase())}`;
  const ref = (request: { params: Record<string, string> }) => request.params[adapter.param] ?? "";
  const n = (request: { params: { n: string } }) => request.params.n;
  const params = Obj({
    [adapter.param]: Type.String({
      description: `the ${noun}'s id or current ${adapter.param === "ref" ? "slug" : "name"}`,
    }),
  });
  const paramsN = Obj({ ...params.properties, n: Type.String({ description: "a revision number (1, 2, …)" }) });
  const lang: Record<string, TSchema> = adapter.langVariants
    ? {
        lang: Opt(
          Type.String({ description: adapter.langDescription ?? "the language variant (default: the shared set)" }),
        ),
      }
    : {};
  if (adapter.themeVariants)
    lang.theme = Opt(Type.String({ description: "the theme (default: the site's theme setting)" }));
  const ifMatch =
    adapter.kind === "frames"
      ? {
          headers: Obj({
            "if-match": Opt(
              Type.String({ description: "the frame's ETag: a stale one is 412 precondition_failed, nothing written" }),
            ),
          }),
        }
      : {};
  const Head = { site_id: Int, kind: Kind, id: Str };

  scope.get(
    `${adapter.path}/revisions`,
    {
      exposeHeadRoute: false,
      schema: {
        operationId: `list${name}Revisions`,
        tags,
        summary: `A ${noun}'s revisions, newest first, with total; paged by ?per_page and ?page`,
        params,
        querystring: Obj({ ...lang, ...PagingQuery }),
        response: { 200: Success({ ...Head, total: Int, revisions: Type.Array(Revision) }), ...commonErrors },
      },
    },
    async (request, reply) => {
      const answer = await pagedList(request, reply, (paging) =>
        listObjectRevisions(callOf(ctx, request, request.query), adapter, ref(request), paging),
      );
      return ok({ site_id: request.site.id, ...answer });
    },
  );

  scope.get(
    `${adapter.path}/revisions/:n`,
    {
      exposeHeadRoute: false,
      schema: {
        operationId: `get${name}Revision`,
        tags,
        summary: `One revision of a ${noun} with its full content (404 revision_not_found)`,
        params: paramsN,
        querystring: Obj({ ...lang }),
        response: { 200: Success({ ...Head, revision: RevisionWithContent }), ...commonErrors },
      },
    },
    async (request) =>
      ok({
        site_id: request.site.id,
        ...(await getObjectRevision(callOf(ctx, request, request.query), adapter, ref(request), n(request))),
      }),
  );

  scope.get(
    `${adapter.path}/revisions/:n/diff`,
    {
      exposeHeadRoute: false,
      schema: {
        operationId: `diff${name}Revision`,
        tags,
        summary: `A unified diff of revision n's content against revision ?to (default: the ${noun} as it is now)`,
        params: paramsN,
        querystring: Obj({
          ...lang,
          to: Opt(Type.String({ description: "a revision number, or current (the default)" })),
        }),
        response: {
          200: Success({
            ...Head,
            from: Int,
            to: Type.Union([Int, Type.Null()], { description: "null: the current state" }),
            identical: Type.Boolean(),
            diff: Type.String({ description: "unified diff with @@ hunks" }),
          }),
          ...commonErrors,
        },
      },
    },
    async (request) =>
      ok({
        site_id: request.site.id,
        ...(await diffObjectRevisions(
          callOf(ctx, request, request.query),
          adapter,
          ref(request),
          n(request),
          request.query.to,
        )),
      }),
  );

  scope.post(
    `${adapter.path}/revisions/:n/restore`,
    {
      schema: {
        operationId: `restore${name}Revision`,
        tags,
        summary: `Write revision n's state as the ${noun}'s next revision (never a rewind); published as any write of it`,
        params: paramsN,
        querystring: Obj({ ...lang }),
        ...ifMatch,
        response: { 200: RestoreAnswerSchema, ...commonErrors },
      },
    },
    async (request, reply) =>
      send(
        request,
        reply,
        await restoreObjectRevision(callOf(ctx, request, request.query), adapter, ref(request), n(request)),
      ),
  );
}

/** A trash item is written back or purged as an object of its kind: by a role that writes that kind. */
function requireKindWriter(request: FastifyRequest, adapters: Map<RevisionKind, HistoryKind>, kind: string): void {
  const adapter = adapters.get(kind as RevisionKind);
  // A kind with no history is answered by the service, as before.
  if (adapter) requireWriter(request.siteRole, adapter.path, { kind });
}

export function historyRoutes(scope: TypedFastify, ctx: ServiceContext): void {
  const adapters = new Map<RevisionKind, HistoryKind>(HISTORY_KINDS.map((adapter) => [adapter.kind, adapter]));
  for (const adapter of HISTORY_KINDS) objectRoutes(scope, ctx, adapter);

  scope.get(
    "/revisions",
    {
      exposeHeadRoute: false,
      schema: {
        operationId: "listSiteRevisions",
        tags: ["history"],
        summary:
          "The site's recent changes: every revision of every kind, newest first, each with its object's address (where its revisions, diffs and restores are); paged by ?per_page and ?page",
        querystring: Obj(PagingQuery),
        response: {
          200: Success({
            site_id: Int,
            total: Int,
            changes: Type.Array(
              Obj({
                ...Revision.properties,
                kind: Kind,
                id: Type.String({ description: "the id its revisions are kept under" }),
                address: Type.String({
                  description: "the object's address under /api/site/{site_id}, e.g. /pages/12 or /data/team?lang=de",
                }),
              }),
            ),
          }),
          ...commonErrors,
        },
      },
    },
    async (request, reply) => {
      const answer = await pagedList(request, reply, (paging) =>
        listSiteChanges(callOf(ctx, request, request.query), adapters, paging),
      );
      return ok({ site_id: request.site.id, ...answer });
    },
  );

  scope.get(
    "/trash",
    {
      exposeHeadRoute: false,
      schema: {
        operationId: "listTrash",
        tags: ["history"],
        summary: `Deleted objects of the site, newest first; each comes back with POST /trash/{kind}/{id}/restore`,
        response: { 200: Success({ site_id: Int, items: Type.Array(TrashItem) }), ...commonErrors },
      },
    },
    async (request) => ok({ site_id: request.site.id, ...(await listTrashItems(callOf(ctx, request))) }),
  );

  scope.post(
    "/trash/:kind/:id/restore",
    {
      schema: {
        operationId: "restoreTrashItem",
        tags: ["history"],
        summary:
          "Bring a deleted object back with its content and history (409 slug_taken with the occupant's id when its slug or name was taken meanwhile)",
        params: Obj({ kind: Type.String({ description: REVISION_KINDS.join(", ") }), id: Str }),
        response: { 200: RestoreAnswerSchema, ...commonErrors },
      },
    },
    async (request, reply) => {
      const { kind, id } = request.params;
      requireKindWriter(request, adapters, kind);
      return send(request, reply, await restoreTrashed(callOf(ctx, request), adapters, kind, id));
    },
  );

  scope.delete(
    "/trash/:kind/:id",
    {
      schema: {
        operationId: "purgeTrashItem",
        tags: ["history"],
        summary:
          "Delete a trashed object for good with its whole history, freeing the stored_bytes they held; ?dry_run=1: the same answer, nothing deleted",
        params: Obj({ kind: Type.String({ description: REVISION_KINDS.join(", ") }), id: Str }),
        querystring: Obj(DryRunQuery),
        response: {
          200: Success({
            site_id: Int,
            purged: Obj({
              kind: Kind,
              id: Str,
              revisions: Type.Integer({ description: "revisions deleted" }),
              bytes: Type.Integer({ description: "stored_bytes freed: the revisions and the trash entry" }),
            }),
            ...DryRunAnswer,
          }),
          ...commonErrors,
        },
      },
    },
    async (request) => {
      const { kind, id } = request.params;
      requireKindWriter(request, adapters, kind);
      const dryRun = dryRunOf(request);
      return ok({
        site_id: request.site.id,
        ...(await purgeTrashItem(callOf(ctx, request), adapters, kind, id, dryRun)),
        ...dryRunFields(dryRun),
      });
    },
  );
}

// The frame endpoints that write pages: POST /frames/{ref}/assign and DELETE /frames/{ref}, which
// takes the frame off its pages (docs/frames.md). They live with the frames' other routes; what
// they write of pages the pages feature does (it owns the table, and sits above frames), handed in
// by app.ts as `FramePages`.
import type { PublicFront } from "../config.ts";
import type { TypedFastify } from "../http/typed-fastify.ts";
import { deleteFrame, type UnbindPages } from "./delete-service.ts";
import { Bake, Frame, IfMatch, ifMatch, ref, RefParams } from "./routes.ts";
import { ok } from "../http/ok.ts";
import { absentBodyIsEmpty, bodyOf, bodyWithDryRun, DryRunQuery, dryRunOf } from "../http/request.ts";
import { commonErrors, DryRunAnswer, Nullable, Obj, Opt, Rebaked, Success, Type } from "../http/schema.ts";
import type { ServiceContext } from "../write/context.ts";
import type { SiteRow } from "../site/sites.ts";
import type { Warning } from "../warnings.ts";

/** The pages feature's side of these endpoints (pages/assign-service.ts, pages/frame-unbinding.ts). */
export interface FramePages {
  /** Puts the frame on a page or takes it off; the answer of POST /frames/{ref}/assign. */
  assign(
    ctx: ServiceContext,
    site: SiteRow,
    ref: string,
    body: Record<string, unknown>,
  ): Promise<{ warnings: Warning[] }>;
  /** Takes a deleted frame off its pages, in the deleting transaction. */
  unbind(site: SiteRow, publicFront: PublicFront): UnbindPages;
}

/** The routes, given the pages feature's side. */
export function framePageRoutes(pages: FramePages): (scope: TypedFastify, ctx: ServiceContext) => void {
  return (scope, ctx) => routesWith(scope, ctx, pages);
}

function routesWith(scope: TypedFastify, ctx: ServiceContext, pages: FramePages): void {
  const tags = ["frames"];
  scope.post(
    "/frames/:ref/assign",
    {
      preValidation: absentBodyIsEmpty,
      schema: {
        operationId: "assignFrame",
        tags,
        summary: "Put the frame on a page, or take it off (clear)",
        params: RefParams,
        querystring: Obj(DryRunQuery),
        body: Obj({
          page: Nullable(Type.Union([Type.String(), Type.Integer()])),
          clear: Nullable(Type.Boolean()),
          bake: Nullable(Type.Boolean()),
          dry_run: Nullable(Type.Boolean()),
        }),
        response: {
          200: Success({
            site_id: Type.Integer(),
            frame: Frame,
            page: Obj({ id: Type.Integer(), title: Type.String(), url: Type.String() }),
            meta_key: Type.String(),
            cleared: Type.Boolean(),
            static: Obj(
              {
                published: Type.Boolean(),
                url: Type.Union([Type.String(), Type.Null()]),
                bytes: Type.Union([Type.Integer(), Type.Null()]),
                reason: Type.Union([Type.String(), Type.Null()]),
                message: Type.Union([Type.String(), Type.Null()]),
                was_published: Type.Boolean(),
                was_url: Type.Union([Type.String(), Type.Null()]),
                removed: Type.Boolean(),
                changed: Type.Boolean(),
              },
              "what became of the page's static copy",
            ),
            republish: Obj(
              {
                status: Type.String({ description: "ok, skipped (bake: false), unavailable or failed" }),
                message: Opt(Type.String()),
                rebaked: Opt(Rebaked),
                cache: Opt(Obj({})),
              },
              "the page's republish; a failed one does not undo the assignment",
            ),
            ...DryRunAnswer,
          }),
          ...commonErrors,
        },
      },
    },
    async (request) => {
      const result = await pages.assign(ctx, request.site, ref(request), bodyWithDryRun(request));
      const { warnings, ...rest } = result;
      return ok(rest, warnings);
    },
  );

  scope.delete(
    "/frames/:ref",
    {
      schema: {
        operationId: "deleteFrame",
        tags,
        summary: "Delete a frame; its pages are unbound",
        params: RefParams,
        headers: IfMatch,
        querystring: Obj(DryRunQuery),
        body: Obj(
          { bake: Nullable(Type.Boolean()), dry_run: Nullable(Type.Boolean()) },
          "optional: bake false withdraws the pages instead of rebaking their embedders; dry_run as ?dry_run=1",
        ),
        response: {
          200: Success({
            site_id: Type.Integer(),
            deleted: Obj({
              id: Type.String(),
              slug: Type.String(),
              block: Type.Union([Type.String(), Type.Null()]),
              element: Type.Union([Type.String(), Type.Null()]),
              modifier: Type.Union([Type.String(), Type.Null()]),
            }),
            unbound_pages: Type.Array(Type.Integer()),
            referenced_by: Type.Array(Type.String()),
            dry_run: Opt(Type.Literal(true)),
            applied: Opt(Type.Boolean()),
            bake: Bake,
            rebaked: Rebaked,
          }),
          ...commonErrors,
        },
      },
    },
    async (request) => {
      const result = await deleteFrame(
        ctx,
        pages.unbind(request.site, ctx.publicFront),
        request.site.id,
        ref(request),
        bodyOf(request),
        ifMatch(request),
        { dryRun: dryRunOf(request) },
      );
      const { warnings, ...rest } = result;
      return ok(rest, warnings);
    },
  );
}

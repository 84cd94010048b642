// The frame endpoints that write pages (spec, Frames): POST /frames/{ref}/assign and
// DELETE /frames/{ref}, which takes the frame off its pages. Served with the frame endpoints,
// registered here because the pages feature owns the page's frame.
import type { FastifyInstance } from "fastify";
import { deleteFrame } from "../frames/delete-service.ts";
import { IfMatch, ifMatch, ref, RefParams } from "../frames/routes.ts";
import { ok } from "../http/ok.ts";
import { absentBodyIsEmpty, bodyOf, DryRunQuery, dryRunOf } from "../http/request.ts";
import { commonErrors, Nullable, Obj, Success, Type } from "../http/schema.ts";
import type { ServiceContext } from "../publish/contract.ts";
import { assignFrame } from "./assign-service.ts";
import { unbindFrame } from "./frame-links.ts";

export function framePageRoutes(scope: FastifyInstance, ctx: ServiceContext): void {
  const tags = ["frames"];
  scope.post("/frames/:ref/assign", {
    preValidation: absentBodyIsEmpty,
    schema: { operationId: "assignFrame", tags, summary: "Put the frame on a page, or take it off (clear)", params: RefParams, body: Obj({ page: Nullable(Type.Union([Type.String(), Type.Integer()])), clear: Nullable(Type.Boolean()), bake: Nullable(Type.Boolean()) }), response: { 200: Success({ site_id: Type.Integer(), cleared: Type.Boolean(), meta_key: Type.String() }), ...commonErrors } },
  }, async (request) => {
    const result = await assignFrame(ctx, request.site, ref(request), bodyOf(request));
    const { warnings, ...rest } = result;
    return ok(rest, warnings);
  });

  scope.delete("/frames/:ref", {
    schema: { operationId: "deleteFrame", tags, summary: "Delete a frame; its pages are unbound", params: RefParams, headers: IfMatch, querystring: Obj(DryRunQuery), response: { 200: Success({ site_id: Type.Integer(), deleted: Obj({ id: Type.String(), slug: Type.String() }), unbound_pages: Type.Array(Type.Integer()), referenced_by: Type.Array(Type.String()) }), ...commonErrors } },
  }, async (request) => {
    const result = await deleteFrame(ctx, unbindFrame(request.site, ctx.publicPort), request.site.id, ref(request), bodyOf(request), ifMatch(request), { dryRun: dryRunOf(request) });
    const { warnings, ...rest } = result;
    return ok(rest, warnings);
  });
}

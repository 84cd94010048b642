// POST /frames/{ref}/assign (spec, Frames): served with the frame endpoints, answered by the pages
// feature, which owns the page's frame.
import type { FastifyInstance } from "fastify";
import { ref, RefParams } from "../frames/routes.ts";
import { ok } from "../http/ok.ts";
import { absentBodyIsEmpty, bodyOf } from "../http/request.ts";
import { commonErrors, Nullable, Obj, Success, Type } from "../http/schema.ts";
import type { ServiceContext } from "../publish/contract.ts";
import { assignFrame } from "./assign-service.ts";

export function frameAssignRoutes(scope: FastifyInstance, ctx: ServiceContext): void {
  const tags = ["frames"];
  scope.post("/frames/:ref/assign", {
    preValidation: absentBodyIsEmpty,
    schema: { tags, summary: "Put the frame on a page, or take it off (clear)", params: RefParams, body: Obj({ page: Nullable(Type.Union([Type.String(), Type.Integer()])), clear: Nullable(Type.Boolean()), bake: Nullable(Type.Boolean()) }), response: { 200: Success({ site_id: Type.Integer(), cleared: Type.Boolean(), meta_key: Type.String() }), ...commonErrors } },
  }, async (request) => {
    const result = await assignFrame(ctx, request.site, ref(request), bodyOf(request));
    const { warnings, ...rest } = result;
    return ok(rest, warnings);
  });
}

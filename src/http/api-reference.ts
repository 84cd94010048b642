// The API's description and its reference page, both without a token (docs/api-reference.md):
// GET /api/openapi.json, the OpenAPI 3.1 document (http/openapi.ts says how it is made).
import type { FastifyInstance } from "fastify";
import { commonErrors, Obj, Type } from "./schema.ts";
import { OPENAPI_PATH } from "./openapi.ts";

const Document = Obj({ openapi: Type.Literal("3.1.0"), info: Obj({ title: Type.String(), version: Type.String() }), paths: Obj({}) }, "The OpenAPI 3.1 document");

export function apiDescriptionRoutes(app: FastifyInstance): void {
  app.get(OPENAPI_PATH, {
    config: { auth: "none" },
    schema: { operationId: "getOpenApiDocument", tags: ["meta"], summary: "This OpenAPI 3.1 description", response: { 200: Document, ...commonErrors } },
  }, async () => app.swagger());
}

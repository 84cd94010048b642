// The API's description and its reference page, both without a token (docs/api-reference.md):
// - GET /api/openapi.json, the OpenAPI 3.1 document (http/openapi.ts says how it is made);
// - GET /api/docs, the interactive reference of that document (Scalar), with its script at
//   /api/docs/js/scalar.js.
// The page is Scalar's Fastify plugin (@scalar/fastify-api-reference), loaded on the page's first
// request rather than at start: its module is about 5 MB (the browser bundle is inside it as a
// string), which every start would read and compile for a page few requests ask for
// (bench/README.md, "Cold start"). It runs in a Fastify instance of its own that never listens;
// the service answers with what that instance answers (inject), so its routes need no place in
// this app's startup. The build keeps the package out of dist/server.cjs (scripts/build.mjs).
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { fail } from "./errors.ts";
import { commonErrors, Obj, Type } from "./schema.ts";
import { OPENAPI_PATH } from "./openapi.ts";

export const DOCS_PATH = "/api/docs";

const Document = Obj(
  { openapi: Type.Literal("3.1.0"), info: Obj({ title: Type.String(), version: Type.String() }), paths: Obj({}) },
  "The OpenAPI 3.1 document",
);

/** What the page is told: where the document is, and nothing fetched from elsewhere. */
const PAGE = {
  url: OPENAPI_PATH,
  cdn: `${DOCS_PATH}/js/scalar.js`,
  pageTitle: "Site-builder API reference",
  withDefaultFonts: false,
  telemetry: false,
  showDeveloperTools: "never",
  agent: { disabled: true },
  mcp: { disabled: true },
};

let reference: Promise<FastifyInstance> | null = null;

/** Scalar's plugin in an instance of its own, made once per process on the first page request. */
async function referenceApp(): Promise<FastifyInstance> {
  const { default: scalar } = await import("@scalar/fastify-api-reference");
  const instance = Fastify({ logger: false });
  await instance.register(scalar, { routePrefix: DOCS_PATH, configuration: PAGE } as never);
  await instance.ready();
  return instance;
}

async function answerFromReference(request: FastifyRequest, reply: FastifyReply) {
  reference ??= referenceApp().catch((error) => {
    reference = null;
    throw error;
  });
  const instance = await reference;
  // The page itself is Scalar's `/api/docs/` (it links its script and the document absolutely).
  const path = request.url.split("?")[0];
  const answer = await instance.inject({
    method: "GET",
    url: path === DOCS_PATH || path === `${DOCS_PATH}/` ? `${DOCS_PATH}/` : path,
  });
  if (answer.statusCode === 404) throw fail("route_not_found");
  const type = answer.headers["content-type"];
  if (type) reply.type(String(type));
  if (answer.statusCode === 200 && path.endsWith(".js")) reply.header("Cache-Control", "public, max-age=3600");
  return reply.code(answer.statusCode).send(answer.rawPayload);
}

export function apiDescriptionRoutes(app: FastifyInstance): void {
  app.get(
    OPENAPI_PATH,
    {
      config: { auth: "none" },
      schema: {
        operationId: "getOpenApiDocument",
        tags: ["meta"],
        summary: "This OpenAPI 3.1 description",
        response: { 200: Document, ...commonErrors },
      },
    },
    async () => app.swagger(),
  );

  // The page and its script; not API calls, so not in the document (hide).
  app.get(DOCS_PATH, { config: { auth: "none" }, schema: { hide: true } }, answerFromReference);
  app.get(`${DOCS_PATH}/*`, { config: { auth: "none" }, schema: { hide: true } }, answerFromReference);
}

// GET /api/sites/{id}/export, POST /api/sites/{id}/import and POST /api/sites/import
// (docs/bundles.md). The bundle travels as the raw body (`Content-Type: application/gzip`): a
// parser of its own hands the request's stream through unread, and the service reads it as it
// arrives, counted against SVC_BUNDLE_MAX_BYTES.
import { Transform, type Readable } from "node:stream";
import type { FastifyRequest } from "fastify";
import { fail } from "../errors.ts";
import { ok } from "../http/ok.ts";
import { dryRunOf } from "../http/request.ts";
import { commonErrors, Obj, Opt, Success, Type, Warnings } from "../http/schema.ts";
import type { TypedFastify } from "../http/typed-fastify.ts";
import { caller } from "../network/route-parts.ts";
import { siteIdFrom } from "../network/input.ts";
import type { BlobStore } from "../blobs/blob-store.ts";
import type { Config } from "../config.ts";
import type { ServiceContext } from "../write/context.ts";
import { exportSite, importIntoSite, importNewSite, type BundleContext, type ImportMode } from "./service.ts";

export const BUNDLE_TYPE = "application/gzip";
const tags = ["bundles"];

const Named = Obj({ kind: Type.String(), name: Type.String() });
const Conflict = Obj({
  kind: Type.String(),
  name: Type.String(),
  reason: Type.String({ description: "unresolved_reference, or the code the object's own write was refused with" }),
  details: Opt(Type.Record(Type.String(), Type.Unknown())),
});
const ImportAnswer = Success({
  warnings: Warnings,
  site_id: Type.Integer(),
  mode: Type.String(),
  dry_run: Type.Boolean(),
  source: Type.Record(Type.String(), Type.Unknown(), { description: "the manifest's source" }),
  creates: Type.Array(Named),
  updates: Type.Array(Named),
  unchanged: Type.Array(Named),
  deletes: Type.Array(Named, { description: "replace only: what the bundle lacks" }),
  conflicts: Type.Array(Conflict),
});
const BundleBody = Type.String({
  format: "binary",
  description: "the bundle, a .tar.gz (Content-Type: application/gzip)",
});

/** As media uploads document theirs (media/routes.ts): the whole raw body, read by the handler. */
const RawBody = Obj({ bundle: Opt(BundleBody) }, "the bundle: the whole raw body (Content-Type: application/gzip)");

/** The request's body, refused past `maxBytes` as it arrives. */
function limitedBody(request: FastifyRequest, maxBytes: number): Readable {
  if (!(request.headers["content-type"] ?? "").toLowerCase().startsWith(BUNDLE_TYPE))
    throw fail("unsupported_media_type", { expected: BUNDLE_TYPE }, `Send the bundle as ${BUNDLE_TYPE}.`);
  const declared = Number(request.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) throw fail("body_too_large", { max_bytes: maxBytes });
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > maxBytes) done(fail("body_too_large", { max_bytes: maxBytes }));
      else done(null, chunk);
    },
  });
  request.raw.on("error", (error) => counter.destroy(error));
  return request.raw.pipe(counter);
}

function modeOf(value: string | undefined): ImportMode {
  if (value === undefined || value === "" || value === "merge") return "merge";
  if (value === "replace") return "replace";
  throw fail(
    "invalid_parameter",
    { parameter: "mode", value, allowed: ["merge", "replace"] },
    "mode is merge or replace.",
  );
}

/** Registers the three calls; `blobs` and the limits are the media store's and configuration's. */
export function bundleRoutes(
  app: TypedFastify,
  ctx: ServiceContext,
  blobs: BlobStore,
  config: Pick<Config, "mediaMaxBytes" | "bundleMaxBytes">,
): void {
  const bc: BundleContext = {
    ctx,
    files: { blobs, maxBytes: config.mediaMaxBytes },
    limits: { maxBytes: config.bundleMaxBytes, mediaMaxBytes: config.mediaMaxBytes },
  };
  app.get(
    "/api/sites/:id/export",
    {
      schema: {
        operationId: "exportSite",
        tags,
        summary: "The site as a bundle, a .tar.gz streamed (the site's administrators)",
        params: Obj({ id: Type.String() }),
        response: {
          200: { description: "the bundle", content: { [BUNDLE_TYPE]: { schema: BundleBody } } },
          ...commonErrors,
        },
      },
    },
    async (request, reply) => {
      const { site, stream } = await exportSite(bc, caller(request), siteIdFrom(request.params.id));
      const day = new Date(bc.ctx.clock()).toISOString().slice(0, 10);
      return reply
        .type(BUNDLE_TYPE)
        .header("Content-Disposition", `attachment; filename="${site.domain}-${day}.tar.gz"`)
        .send(stream);
    },
  );

  app.register(async (imports: TypedFastify) => {
    imports.removeAllContentTypeParsers();
    // Unread here: the service reads the stream (limitedBody counts it).
    imports.addContentTypeParser("*", (_request, _payload, done) => done(null));

    imports.post(
      "/api/sites/:id/import",
      {
        schema: {
          operationId: "importSite",
          tags,
          summary:
            "Import a bundle into the site (its administrators): ?mode=merge (default) or replace, ?dry_run=1 answers the plan and writes nothing",
          consumes: [BUNDLE_TYPE],
          params: Obj({ id: Type.String() }),
          querystring: Obj({ mode: Opt(Type.String()), dry_run: Opt(Type.String()) }),
          body: RawBody,
          response: { 200: ImportAnswer, ...commonErrors },
        },
      },
      async (request) => {
        const mode = modeOf(request.query.mode);
        const dryRun = dryRunOf(request);
        const siteId = siteIdFrom(request.params.id);
        const body = limitedBody(request, bc.limits.maxBytes);
        return ok(await importIntoSite(bc, caller(request), siteId, body, { mode, dryRun }));
      },
    );

    imports.post(
      "/api/sites/import",
      {
        schema: {
          operationId: "importNewSite",
          tags,
          summary: "Create a site from a bundle at ?domain= (super-administrator); answers 201",
          consumes: [BUNDLE_TYPE],
          querystring: Obj({ domain: Type.String() }),
          body: RawBody,
          response: { 201: ImportAnswer, ...commonErrors },
        },
      },
      async (request, reply) => {
        const body = limitedBody(request, bc.limits.maxBytes);
        const answer = await importNewSite(bc, caller(request), request.query.domain, body);
        return reply.code(201).send(ok(answer));
      },
    );
  });
}

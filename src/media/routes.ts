// Media (docs/media.md, "The API"): POST /media, GET /media, GET/PATCH/PUT/DELETE /media/{ref} (an id or
// a slug). Site-scoped, at both addresses (registerSiteRoutes). Uploads (POST, PUT) take any
// Content-Type: their routes sit in a scope of their own whose only body parser leaves the body
// unread, so the handler streams it to storage; every other route keeps the JSON-only rule.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { TypedFastify } from "../http/typed-fastify.ts";
import { ok } from "../http/ok.ts";
import { pagedList, PagingQuery } from "../http/pagination.ts";
import { dryRunOf, DryRunQuery } from "../http/request.ts";
import {
  commonErrors,
  DryRunAnswer,
  Obj,
  Opt,
  Rebaked,
  Refusing,
  ServiceChecked,
  Success,
  Type,
  Warnings,
} from "../http/schema.ts";
import type { SiteRoutes } from "../http/site-routes.ts";
import type { ServiceContext } from "../write/context.ts";
import { ALLOWED_TYPES, MEDIA_KINDS } from "./sniff.ts";
import { MAX_PAGE_SLUG } from "../pages/slug.ts";
import { MEDIA_SLUG_PATTERN } from "./names.ts";
import type { MediaFiles } from "./intake.ts";
import { getMedia, listMedia, mediaFiltersFrom } from "./read-service.ts";
import { uploadBody, type UploadBody } from "./upload-body.ts";
import { createMedia, replaceMedia, type MediaWriteAnswer } from "./upload-service.ts";
import { deleteMedia, flagFrom, forceFrom, patchMedia } from "./write-service.ts";

const Str = Type.String();
const Int = Type.Integer();
const Dimension = Type.Union([Int, Type.Null()], {
  description: "pixels, images only (an SVG's from its width, height or viewBox); else null",
});
const Texts = Type.Record(Str, Str, {
  description: '{"<lang>": "…"}; "" is a site without languages or language setting',
});
const TextsInput = Type.Union([Str, Type.Record(Str, Type.Union([Str, Type.Null()])), Type.Null()], {
  description: 'a string (the default language\'s), {"<lang>": "…" or null}, or null to remove every language\'s',
});

export const MediaRecordSchema = Obj({
  id: Int,
  filename: Str,
  slug: Type.String({
    description:
      "unique per site, lower-case, from the file name (holiday-photo.png → holiday-photo, then holiday-photo-2); never digits alone",
  }),
  mime: Type.String({ description: "detected from the bytes" }),
  bytes: Int,
  sha256: Str,
  width: Dimension,
  height: Dimension,
  alt: Texts,
  title: Texts,
  url: Type.String({ description: "/media/<first 16 hex digits of sha256>/<filename>, on the site's own domains" }),
  variants: Type.Array(Obj({ width: Int, height: Int, mime: Str, url: Str }), {
    description: "WebP at 320, 640, 1024, 1600 and 2400 pixels wide, not wider than the original (raster images)",
  }),
  created_at_gmt: Str,
  updated_at_gmt: Str,
  updated_by: Type.Integer({ description: "user id" }),
  used_by: Obj(
    { frames: Type.Array(Obj({ id: Str, slug: Str })), pages: Type.Array(Obj({ id: Int, path: Str })) },
    "frames: those whose own markup reads media.<id> or media.<slug>; pages: every page showing it, on one of those frames or on a frame embedding one (svc/frame, svc/partial, transitively)",
  ),
});

const Written = Success({ site_id: Int, media: MediaRecordSchema, rebaked: Rebaked, warnings: Warnings });
const RefParams = Obj({ ref: Type.String({ description: "media id or slug" }) });
const UPLOAD_TYPES = ["multipart/form-data", "application/octet-stream", ...Object.keys(ALLOWED_TYPES)];
const UploadDescription =
  "The raw bytes as the body with their Content-Type (application/octet-stream: detect it) and ?filename=, " +
  "or multipart/form-data with one file part named file and the text fields alt and title. Checks in order, nothing stored on a refusal: " +
  "larger than SVC_MEDIA_MAX_BYTES 413 media_too_large; a detected type not allowed 415 unsupported_media_type; " +
  "an allowed type other than the claimed Content-Type 400 media_type_mismatch. " +
  "JPEG, PNG, WebP and AVIF are stored without their personal metadata (EXIF but the orientation, XMP, IPTC, comments; ICC profiles kept; lossless) unless ?keep_metadata=1: sha256 and bytes are the stored file's.";
const UploadSchema = {
  consumes: UPLOAD_TYPES,
  querystring: Obj({
    filename: Opt(
      Type.String({ description: "the file's name (raw uploads; a multipart part's own name comes first)" }),
    ),
    // Any value: read by flagFrom, the one reader of the yes-or-no parameters (?force too), which answers invalid_parameter.
    keep_metadata: Opt(
      ServiceChecked(
        Str,
        "1 or true: store a JPEG, PNG, WebP or AVIF as sent, with its EXIF (GPS position, camera, serial number), XMP, IPTC and comments; by default they are removed (ICC profile and orientation kept), losslessly",
      ),
    ),
  }),
  body: Obj(
    {
      file: Opt(Type.String({ description: "the file's bytes (multipart), or the whole body (raw)" })),
      alt: Opt(Str),
      title: Opt(Str),
    },
    UploadDescription,
  ),
};

function userId(request: FastifyRequest): number {
  return request.caller!.userId;
}

/**
 * Reads the upload the request carries and runs `write` on it. A refusal met before the body's
 * end is answered at once on a connection that then closes, as Fastify closes one after a body
 * error: the rest of the body is never read.
 */
async function upload(
  request: FastifyRequest & { query: { filename?: string; keep_metadata?: unknown } },
  reply: FastifyReply,
  files: MediaFiles,
  write: (body: UploadBody) => Promise<MediaWriteAnswer>,
): Promise<MediaWriteAnswer> {
  const query = request.query;
  const filename = query.filename ?? null;
  let body: UploadBody | undefined;
  try {
    const keepMetadata = flagFrom("keep_metadata", query.keep_metadata);
    body = await uploadBody({ headers: request.headers, body: request.raw, filename, keepMetadata }, files.maxBytes);
    return await write(body);
  } catch (error) {
    body?.abandon();
    if (!request.raw.complete) reply.header("connection", "close");
    throw error;
  }
}

function written(request: FastifyRequest, done: MediaWriteAnswer) {
  const { warnings, ...fields } = done;
  return ok({ site_id: request.site.id, ...fields }, warnings);
}

export function mediaApiRoutes(files: MediaFiles): SiteRoutes {
  return (scope: TypedFastify, ctx: ServiceContext) => {
    const tags = ["media"];

    scope.get(
      "/media",
      {
        schema: {
          operationId: "listMedia",
          tags,
          summary:
            "The site's media files, newest first; ?type (image, video, audio, font, document) and ?search (file name, title, alt); paged by ?per_page and ?page (Link, X-WP-Total, X-WP-TotalPages)",
          // A bad filter, given twice too, is 400 invalid_parameter naming it, as a bad paging value is.
          querystring: Obj({
            type: Opt(
              Refusing(
                Type.Union([...MEDIA_KINDS.map((kind) => Type.Literal(kind)), Type.Literal("")], {
                  description: `one of ${MEDIA_KINDS.join(", ")} ("": every type)`,
                }),
                "invalid_parameter",
                { name: "parameter", value: "value", details: { allowed: MEDIA_KINDS } },
              ),
            ),
            search: Opt(
              Refusing(
                Type.String({ description: "words looked for in the file name, alt and title, ignoring case" }),
                "invalid_parameter",
                { name: "parameter", value: "value" },
              ),
            ),
            ...PagingQuery,
          }),
          response: {
            200: Success({
              site_id: Int,
              total: Type.Integer({ description: "files matching the filters, on every page of the list" }),
              media: Type.Array(MediaRecordSchema),
              warnings: Warnings,
            }),
            ...commonErrors,
          },
        },
      },
      async (request, reply) => {
        const filters = mediaFiltersFrom(request.query);
        const { total, media } = await pagedList(request, reply, (paging) =>
          listMedia(ctx.db, request.site.id, filters, paging),
        );
        return ok({ site_id: request.site.id, total, media });
      },
    );

    scope.get(
      "/media/:ref",
      {
        schema: {
          operationId: "getMedia",
          tags,
          summary: "One media file, by id or slug",
          params: RefParams,
          response: { 200: Success({ site_id: Int, media: MediaRecordSchema, warnings: Warnings }), ...commonErrors },
        },
      },
      async (request) =>
        ok({ site_id: request.site.id, media: await getMedia(ctx.db, request.site.id, request.params.ref) }),
    );

    scope.patch(
      "/media/:ref",
      {
        schema: {
          operationId: "patchMedia",
          tags,
          summary:
            "Change a file's alt, title (per language) or slug (the old slug stops answering); rebakes the frames showing it",
          params: RefParams,
          body: Obj({
            alt: Opt(TextsInput),
            title: Opt(TextsInput),
            slug: Opt(
              Refusing(
                Type.String({
                  description:
                    "lower-case words of letters and digits joined by single dashes, not digits alone; otherwise 400 invalid_slug",
                }),
                "invalid_slug",
                { value: "slug", details: { pattern: MEDIA_SLUG_PATTERN, max_length: MAX_PAGE_SLUG } },
              ),
            ),
          }),
          response: { 200: Written, ...commonErrors },
        },
      },
      async (request) =>
        written(request, await patchMedia(ctx, request.site, userId(request), request.params.ref, request.body)),
    );

    scope.delete(
      "/media/:ref",
      {
        schema: {
          operationId: "deleteMedia",
          tags,
          summary:
            "Delete a file: 409 media_in_use (with used_by) while frames show it, unless ?force=1; its bytes go when no other file has them; ?dry_run=1 answers the same (refusals too) and deletes nothing",
          params: RefParams,
          querystring: Obj({
            force: Opt(
              Type.String({ description: "1 or true: delete even while frames show it (they are rebaked without it)" }),
            ),
            ...DryRunQuery,
          }),
          response: {
            200: Success({
              site_id: Int,
              media: MediaRecordSchema,
              ...DryRunAnswer,
              rebaked: Rebaked,
              warnings: Warnings,
            }),
            ...commonErrors,
          },
        },
      },
      async (request) => {
        const force = forceFrom(request.query.force);
        return ok({
          site_id: request.site.id,
          ...(await deleteMedia(ctx, files, request.site, request.params.ref, force, { dryRun: dryRunOf(request) })),
        });
      },
    );

    scope.register(async (uploads: TypedFastify) => {
      uploads.removeAllContentTypeParsers();
      // The body is left unread for the handler, which streams it; no size limit applies here
      // (the upload's own limit does, as the bytes arrive).
      uploads.addContentTypeParser("*", (_request, _payload, done) => done(null));

      uploads.post(
        "/media",
        {
          schema: {
            operationId: "createMedia",
            tags,
            summary: "Upload a file (answers 201)",
            description: UploadDescription,
            ...UploadSchema,
            response: { 201: Written, ...commonErrors },
          },
        },
        async (request, reply) => {
          const done = await upload(request, reply, files, (body) =>
            createMedia(ctx, files, request.site, userId(request), body),
          );
          return reply.code(201).send(written(request, done));
        },
      );

      uploads.put(
        "/media/:ref",
        {
          schema: {
            operationId: "putMedia",
            tags,
            summary:
              "Replace a file's bytes (same forms as POST): same id and slug, new url; rebakes the frames showing it",
            description: UploadDescription,
            params: RefParams,
            ...UploadSchema,
            response: { 200: Written, ...commonErrors },
          },
        },
        async (request, reply) =>
          written(
            request,
            await upload(request, reply, files, (body) =>
              replaceMedia(ctx, files, request.site, userId(request), request.params.ref, body),
            ),
          ),
      );
    });
  };
}

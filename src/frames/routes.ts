// Frame endpoints (docs/frames.md). Routes parse, authorise (done by the site scope), call the
// service and shape the answer; ETag and If-Match carry the frame's revision.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { TypedFastify } from "../http/typed-fastify.ts";
import { fail } from "../errors.ts";
import { sendKeptJson } from "../http/kept-json.ts";
import { commonErrors, Example, Nullable, Obj, Opt, Rebaked, Success, Type } from "../http/schema.ts";
import { absentBodyIsEmpty, bodyOf, bodyWithDryRun, DryRunQuery } from "../http/request.ts";
import { ok } from "../http/ok.ts";
import { pagedList, PagingQuery } from "../http/pagination.ts";
import { homeUrl } from "../site/addresses.ts";
import type { ServiceContext } from "../write/context.ts";
import { getFrame, listFrames, refFrom } from "./read-service.ts";
import { rebakeFrames } from "./rebake-service.ts";
import { renameFrame } from "./rename-service.ts";
import { createFrame, replaceFrame, type WriteAnswer } from "./write-service.ts";

const NullStr = Type.Union([Type.String(), Type.Null()]);
export const Frame = Obj({
  id: Type.String({ description: "16 lower-case hex characters" }),
  slug: Type.String(),
  block: NullStr,
  element: NullStr,
  modifier: NullStr,
  bytes: Type.Integer({ description: "UTF-8 bytes of the markup as stored" }),
  sha256: Type.String(),
  inserts: Type.Record(Type.String(), Type.Integer(), {
    description: "insert name → how many times the markup uses it",
  }),
  sources: Type.Array(Type.String(), { description: "data sources the markup reads" }),
  frame_refs: Type.Array(Type.String(), { description: "slugs of the frames it embeds" }),
  layout: Opt(
    Type.Union([Type.String(), Type.Null()], { description: "the layout frame it is printed inside, by slug" }),
  ),
  binds: Type.Integer(),
  created_at_gmt: Type.String(),
  updated_at_gmt: Type.String(),
  updated_by: Type.Integer({ description: "user id" }),
  option: Type.String(),
  renders_on_request: Type.Boolean(),
  pages: Opt(Type.Array(Type.Integer(), { description: "pages on this frame (when there are any)" })),
  html: Opt(Type.String({ description: "the markup, byte for byte (GET /frames/{ref}; GET /frames?include_html=1)" })),
  referenced_by: Opt(Type.Array(Type.String(), { description: "slugs of the frames that embed it" })),
});
// Null is accepted (Nullable) where the service gives it a meaning (no markup → frame_html_required,
// no slug → invalid_slug, a null flag → its default), so that those codes answer, not a schema error.
const WriteBody = Example(
  Obj({
    slug: Nullable(Type.String()),
    html: Nullable(Type.String({ description: "markup, stored byte for byte (at most 2,097,152 bytes of UTF-8)" })),
    markup: Nullable(Type.String({ description: "alias of html" })),
    content: Nullable(Type.String({ description: "alias of html" })),
    dry_run: Nullable(Type.Boolean()),
    bake: Nullable(Type.Boolean()),
  }),
  {
    slug: "article",
    html: `<!DOCTYPE html><html><head><meta charset="utf-8"><title data-op-bind='{"text": "page.title"}'></title></head><body><nav><!-- svc/menu {"location": "header"} /--></nav><h1 data-op-bind='{"text": "page.title"}'></h1><main data-op-bind='{"html": "page.content"}'></main></body></html>`,
  },
);
const Renamed = Obj(
  {
    from: Type.String(),
    to: Type.String(),
    frames_updated: Type.Array(Type.String()),
    details: Type.Array(Obj({ id: Type.String(), slug: Type.String(), replaced: Type.Integer() })),
  },
  "the slug before and after, and the frames whose references were rewritten",
);
export const Bake = Obj(
  { status: Type.String() },
  "the frame's own bake: its status, and the render's report when it ran",
);
const WriteAnswerSchema = Success({
  applied: Type.Boolean({ description: "false on a dry run: nothing was written" }),
  updated: Type.Boolean(),
  dry_run: Opt(Type.Literal(true)),
  site_id: Type.Integer(),
  frame: Frame,
  inserts: Type.Record(Type.String(), Type.Integer()),
  inserts_total: Type.Integer(),
  sources: Type.Array(Type.String()),
  frame_refs: Type.Array(Type.String()),
  layout: Opt(Type.Union([Type.String(), Type.Null()])),
  binds: Type.Integer(),
  renders_on_request: Type.Boolean(),
  live_reasons: Opt(Type.Array(Type.String(), { description: "why it renders on request (when it does)" })),
  has_doctype: Type.Boolean(),
  has_body: Type.Boolean(),
  frame_refs_missing: Type.Array(Type.String(), {
    description: "embedded slugs no frame has yet (warning frame_ref_missing)",
  }),
  lists: Type.Array(
    Obj({
      at: Type.Integer(),
      source: Type.String(),
      match: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
      order_by: NullStr,
      offset: Type.Integer(),
      limit: Type.Union([Type.Integer(), Type.Null()]),
      page_size: Type.Union([Type.Integer(), Type.Null()]),
    }),
    {
      description:
        "the repeats outside other repeats that sort or page a source, in document order; the first with page_size pages the frame's pages (docs/markup.md, Lists)",
    },
  ),
  renamed: Opt(Renamed),
  bake: Opt(Bake),
  rebaked: Opt(Rebaked),
});
export const IfMatch = Obj({ "if-match": Opt(Type.String()) });

const body = bodyWithDryRun;
export const RefParams = Obj({ ref: Type.String() });

/** The router has already percent-decoded the parameter; decoding again would break `%` (and 500 on `%25`). */
export function ref(request: { params: { ref?: string } }): string {
  return refFrom(request.params.ref ?? "");
}

export function ifMatch(request: FastifyRequest): string | undefined {
  const value = request.headers["if-match"];
  return Array.isArray(value) ? value.join(",") : value;
}

function send(reply: FastifyReply, answer: WriteAnswer, status = 200) {
  if (answer.etag) reply.header("ETag", answer.etag);
  const { warnings, ...rest } = answer.body as { warnings?: [] };
  return reply.code(status).send(ok(rest, warnings ?? []));
}

function gone(_request: FastifyRequest, _reply: FastifyReply): never {
  throw fail("gone", {}, "Frame defaults were removed: a page names its frame itself.");
}

/** Answered before any body is read (a removed call is gone whatever it is sent: app.ts reads no body it would not use). */
const removed = {
  onRequest: async (request: FastifyRequest, reply: FastifyReply) => gone(request, reply),
  handler: gone,
};

export function frameRoutes(scope: TypedFastify, ctx: ServiceContext): void {
  const tags = ["frames"];

  scope.get(
    "/frames",
    {
      schema: {
        operationId: "listFrames",
        tags,
        summary: "List frames, sorted by slug; paged by ?per_page and ?page (Link, X-WP-Total, X-WP-TotalPages)",
        querystring: Obj({
          block: Opt(Type.String()),
          q: Opt(Type.String()),
          include_html: Opt(Type.String()),
          type: Opt(Type.String()),
          ...PagingQuery,
        }),
        response: {
          200: Success({
            site_id: Type.Integer(),
            home_url: Type.String(),
            total: Type.Integer({ description: "frames matching the filters, on every page of the list" }),
            registry_option: Type.String(),
            page_meta: Type.String(),
            slug_pattern: Type.String(),
            frames: Type.Array(Frame),
          }),
          ...commonErrors,
        },
      },
    },
    async (request, reply) => {
      const result = await pagedList(request, reply, (paging) =>
        listFrames(ctx.db, request.site.id, request.query, paging),
      );
      return ok(
        {
          site_id: request.site.id,
          home_url: homeUrl(request.site, ctx.publicFront),
          total: result.total,
          ...result.constants,
          frames: result.frames,
        },
        result.warnings,
      );
    },
  );

  scope.post(
    "/frames",
    {
      preValidation: absentBodyIsEmpty,
      schema: {
        operationId: "createFrame",
        tags,
        summary: "Upload a new frame (`dry_run` in the body or ?dry_run=1: the report, nothing written)",
        querystring: Obj(DryRunQuery),
        body: WriteBody,
        response: { 200: WriteAnswerSchema, 201: WriteAnswerSchema, ...commonErrors },
      },
    },
    async (request, reply) => {
      const answer = await createFrame(ctx, request.site.id, request.caller!.userId, body(request));
      return send(reply, answer, answer.body.applied ? 201 : 200);
    },
  );

  scope.post(
    "/frames/rebake",
    {
      preValidation: absentBodyIsEmpty,
      schema: {
        operationId: "rebakeFrames",
        tags,
        summary: "Rebuild frames by selector (at most 25 per call)",
        body: Obj({
          all: Nullable(Type.Boolean()),
          menus: Nullable(Type.Boolean()),
          pages: Nullable(Type.Boolean()),
          languages: Nullable(Type.Boolean()),
          settings: Nullable(Type.Boolean()),
          datasets: Nullable(Type.Array(Type.String())),
          frames: Nullable(Type.Array(Type.String({ description: "frame slug or id" }))),
        }),
        response: {
          200: Success({
            site_id: Type.Integer(),
            changed: Obj(
              {
                all: Opt(Type.Boolean()),
                menus: Opt(Type.Boolean()),
                pages: Opt(Type.Boolean()),
                languages: Opt(Type.Boolean()),
                settings: Opt(Type.Boolean()),
                datasets: Opt(Type.Array(Type.String())),
                frames: Opt(Type.Array(Type.String())),
              },
              "the selectors taken",
            ),
            rebaked: Rebaked,
          }),
          ...commonErrors,
        },
      },
    },
    async (request) => {
      const { warnings, ...rest } = await rebakeFrames(ctx, request.site.id, bodyOf(request));
      return ok(rest, warnings);
    },
  );

  // HEAD comes with GET; OPTIONS too, so that literally every method answers 410. Removed calls
  // are left out of the OpenAPI description (hide), which lists what a client may call.
  for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const) {
    scope.route({
      method,
      url: "/frames/defaults",
      schema: { hide: true, tags, summary: "Removed: answers 410 gone", response: { 410: commonErrors["4XX"] } },
      ...removed,
    });
  }
  scope.route({
    method: "POST",
    url: "/frames/:ref/default",
    schema: {
      hide: true,
      tags,
      summary: "Removed: answers 410 gone",
      params: RefParams,
      response: { 410: commonErrors["4XX"] },
    },
    ...removed,
  });

  scope.get(
    "/frames/:ref",
    {
      schema: {
        operationId: "getFrame",
        tags,
        summary: "One frame with its markup, referenced_by and pages",
        params: RefParams,
        headers: Obj({
          "if-none-match": Opt(
            Type.String({ description: "an ETag this call answered; the current one answers 304 without a body" }),
          ),
        }),
        response: {
          200: Success({ site_id: Type.Integer(), frame: Frame }),
          304: Type.Null({ description: "Not Modified: If-None-Match holds the frame's current ETag" }),
          ...commonErrors,
        },
      },
    },
    async (request, reply) => {
      const answer = await getFrame(ctx.db, request.site.id, ref(request));
      const { frame, etag } = answer;
      reply.header("ETag", etag);
      // A client holding the current revision needs no body (weak comparison, RFC 9110 §13.1.2).
      const held = request.headers["if-none-match"];
      if (
        typeof held === "string" &&
        held.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag || tag.trim() === "*")
      ) {
        return reply.code(304).send();
      }
      return sendKeptJson(reply, answer, () => ok({ site_id: request.site.id, frame }));
    },
  );

  scope.put(
    "/frames/:ref",
    {
      preValidation: absentBodyIsEmpty,
      schema: {
        operationId: "putFrame",
        tags,
        summary:
          "Replace a frame's markup (and maybe its slug); `dry_run` in the body or ?dry_run=1: the report, nothing written",
        params: RefParams,
        querystring: Obj(DryRunQuery),
        headers: IfMatch,
        body: WriteBody,
        response: { 200: WriteAnswerSchema, ...commonErrors },
      },
    },
    async (request, reply) =>
      send(
        reply,
        await replaceFrame(ctx, request.site.id, request.caller!.userId, ref(request), body(request), ifMatch(request)),
      ),
  );

  scope.patch(
    "/frames/:ref",
    {
      preValidation: absentBodyIsEmpty,
      schema: {
        operationId: "patchFrame",
        tags,
        summary:
          "Rename a frame; references in other frames follow; `dry_run` in the body or ?dry_run=1: the answer, nothing written",
        params: RefParams,
        querystring: Obj(DryRunQuery),
        headers: IfMatch,
        body: Obj({ slug: Nullable(Type.String()), dry_run: Nullable(Type.Boolean()), bake: Nullable(Type.Boolean()) }),
        response: {
          200: Success({
            applied: Type.Boolean(),
            dry_run: Opt(Type.Literal(true)),
            site_id: Type.Integer(),
            frame: Frame,
            renamed: Renamed,
            bake: Opt(Bake),
            rebaked: Opt(Rebaked),
          }),
          ...commonErrors,
        },
      },
    },
    async (request, reply) =>
      send(
        reply,
        await renameFrame(ctx, request.site.id, request.caller!.userId, ref(request), body(request), ifMatch(request)),
      ),
  );
}

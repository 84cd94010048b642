// Stylesheets (docs/styles.md): GET /styles, GET/PUT/DELETE /styles/{name}. Site-scoped, at both
// addresses. The public bundles are served by public/style-routes.ts.
import type { TypedFastify } from "../http/typed-fastify.ts";
import { ok } from "../http/ok.ts";
import { dryRunOf, DryRunQuery } from "../http/request.ts";
import { commonErrors, DryRunAnswer, Obj, Opt, Rebaked, Success, Type, Warnings } from "../http/schema.ts";
import type { ServiceContext } from "../write/context.ts";
import { listStyles, readStyle } from "./read-service.ts";
import { deleteStyle, putStyle } from "./write-service.ts";

const Str = Type.String();
const Int = Type.Integer();
const Style = Obj({
  name: Str,
  theme: Str,
  bytes: Type.Integer({ description: "UTF-8 bytes of the CSS as uploaded" }),
  sha256: Type.String({ description: "of the CSS as uploaded" }),
  url: Type.Union([Str, Type.Null()], {
    description: "the current address of its bundle, /styles/<name>.<hash>.css, on the site's domains",
  }),
  updated_at_gmt: Str,
});
const WithCss = Type.Intersect([Style, Obj({ css: Str })]);
const NameParams = Obj({
  name: Type.String({ description: "^[a-z0-9][a-z0-9_-]*$, as written; otherwise 400 invalid_style_name" }),
});
const ThemeQuery = {
  theme: Opt(Type.String({ description: "another theme's stylesheets (default: the site's theme setting)" })),
};
const Planned = Obj(
  {
    status: Type.Literal("planned"),
    total: Int,
    frames: Type.Array(Obj({ id: Str, slug: Str, because: Type.Array(Str) })),
    pages: Type.Array(Int),
  },
  "A dry run's: the frames and pages the write would rebake",
);
const Written = Success({
  site_id: Int,
  style: WithCss,
  rebaked: Type.Union([Rebaked, Planned]),
  dry_run: Opt(Type.Literal(true)),
  applied: Opt(Type.Literal(false)),
  warnings: Warnings,
});

export function styleApiRoutes(scope: TypedFastify, ctx: ServiceContext): void {
  const tags = ["styles"];

  scope.get(
    "/styles",
    {
      schema: {
        operationId: "listStyles",
        tags,
        summary: "The theme's stylesheets, by name, each with the address of its bundle",
        querystring: Obj(ThemeQuery),
        response: {
          200: Success({
            site_id: Int,
            theme: Str,
            styles: Type.Array(Style),
            themes: Type.Array(Str, { description: "every theme the site has stylesheets in, by name" }),
            warnings: Warnings,
          }),
          ...commonErrors,
        },
      },
    },
    async (request) => ok({ site_id: request.site.id, ...(await listStyles(ctx, request.site, request.query)) }),
  );

  scope.get(
    "/styles/:name",
    {
      schema: {
        operationId: "getStyle",
        tags,
        summary: "One stylesheet, with its CSS exactly as uploaded",
        params: NameParams,
        querystring: Obj(ThemeQuery),
        response: { 200: Success({ site_id: Int, style: WithCss, warnings: Warnings }), ...commonErrors },
      },
    },
    async (request) =>
      ok({ site_id: request.site.id, style: await readStyle(ctx, request.site, request.params.name, request.query) }),
  );

  scope.put(
    "/styles/:name",
    {
      schema: {
        operationId: "putStyle",
        tags,
        summary:
          'Create or replace a stylesheet {css, theme?} (201 when created): parsed (422 invalid_css with line and column), @import "<name>" bundled, url(media:<ref>) made the file\'s address; rebakes the frames linking it or a stylesheet importing it. ?dry_run=1: the bundle that would be served and the frames that would be rebaked, nothing written',
        params: NameParams,
        querystring: Obj(DryRunQuery),
        body: Obj({
          css: Type.String({ description: "the stylesheet (at most 1 MiB of UTF-8)" }),
          theme: Opt(
            Type.Union([Str, Type.Null()], {
              description: "the theme it belongs to (default: the site's theme setting)",
            }),
          ),
        }),
        response: { 200: Written, 201: Written, ...commonErrors },
      },
    },
    async (request, reply) => {
      const dryRun = dryRunOf(request);
      const done = await putStyle(ctx, request.site, request.params.name, request.body, dryRun);
      const fields = {
        site_id: request.site.id,
        style: done.style,
        rebaked: done.rebaked,
        ...(dryRun ? { dry_run: true, applied: false } : {}),
      };
      return reply.code(done.created && !dryRun ? 201 : 200).send(ok(fields, done.warnings));
    },
  );

  scope.delete(
    "/styles/:name",
    {
      schema: {
        operationId: "deleteStyle",
        tags,
        summary:
          "Delete a stylesheet: 409 style_in_use (frames, imported_by) while frames link it or stylesheets import it, unless ?force=1; the frames linking it are rebaked without it; it goes to the trash (GET /trash) with its history. ?dry_run=1: the same answer, the frames that would be rebaked, nothing deleted",
        params: NameParams,
        querystring: Obj({
          ...ThemeQuery,
          force: Opt(Type.String({ description: "1 or true: delete even while it is linked or imported" })),
          ...DryRunQuery,
        }),
        response: {
          200: Success({
            site_id: Int,
            deleted: Obj({ name: Str, theme: Str, bytes: Int, sha256: Str }),
            rebaked: Type.Union([Rebaked, Planned]),
            ...DryRunAnswer,
            warnings: Warnings,
          }),
          ...commonErrors,
        },
      },
    },
    async (request) => {
      const dryRun = dryRunOf(request);
      const done = await deleteStyle(ctx, request.site, request.params.name, request.query, dryRun);
      return ok({ site_id: request.site.id, ...done, ...(dryRun ? { dry_run: true, applied: false } : {}) });
    },
  );
}

// SEO (docs/seo.md): GET/PATCH /seo (the site's defaults), GET/PATCH /seo/pages/{ref}
// (a page's own fields), GET/POST /seo/redirects and DELETE /seo/redirects/{id}. Site-scoped, at
// both addresses. sitemap.xml and robots.txt are served by the public site (public/seo-routes.ts).
import type { TypedFastify } from "../http/typed-fastify.ts";
import { ok } from "../http/ok.ts";
import { bodyOf, dryRunOf, DryRunQuery } from "../http/request.ts";
import { commonErrors, DryRunAnswer, Obj, Opt, Rebaked, Refusing, Success, Type, Warnings } from "../http/schema.ts";
import type { ServiceContext } from "../write/context.ts";
import { PageSeoSchema } from "../pages/routes.ts";
import { REDIRECT_STATUSES } from "../redirects/redirects.ts";
import { pageSeo, patchPageSeo } from "./page-seo.ts";
import { createRedirect, redirectsOf, removeRedirect } from "./redirect-service.ts";
import { patchSiteSeo, siteSeoOf } from "./site-seo.ts";

const Str = Type.String();
const Int = Type.Integer();
const NullStr = Type.Union([Str, Type.Null()]);
const SiteSeo = Obj({
  title_template: Type.String({ description: "%s is the page's title; default `%s — <site name>`" }),
  description: Type.String({ description: "for pages without their own" }),
  og_image: Type.Union([Str, Type.Null()], { description: "a media id or slug" }),
  noindex: Type.Boolean({ description: "the whole site: robots meta, robots.txt Disallow: /, an empty sitemap" }),
  twitter_site: Type.String({ description: "@handle" }),
  robots_extra: Type.String({ description: "lines appended to robots.txt" }),
});
const SiteSeoInput = Obj({
  title_template: Opt(Type.Union([Str, Type.Null()], { description: "null restores the default" })),
  description: Opt(NullStr),
  og_image: Opt(Type.Union([Str, Int, Type.Null()])),
  noindex: Opt(Type.Union([Type.Boolean(), Type.Null()])),
  twitter_site: Opt(NullStr),
  robots_extra: Opt(NullStr),
});
const PageSeoInput = Obj({
  title: Opt(NullStr),
  description: Opt(NullStr),
  canonical: Opt(NullStr),
  noindex: Opt(Type.Union([Type.Boolean(), Type.Null()])),
  og_image: Opt(Type.Union([Str, Int, Type.Null()])),
});
const Redirect = Obj({
  id: Int,
  from: Type.String({ description: "the address redirected, canonical, with its language prefix" }),
  to: Type.String({ description: "a site path or an absolute URL, sent as it is in Location" }),
  status: Type.Integer({ description: "301, 302, 307 or 308" }),
  auto: Type.Boolean({ description: "made when a page's address changed" }),
  created_at_gmt: Str,
});
const RefParams = Obj({ ref: Str });
const LangQuery = Obj({ lang: Opt(Str) });

export function seoRoutes(scope: TypedFastify, ctx: ServiceContext): void {
  const tags = ["seo"];

  scope.get(
    "/seo",
    {
      schema: {
        operationId: "getSeo",
        tags,
        summary: "The site's SEO defaults",
        response: { 200: Success({ site_id: Int, seo: SiteSeo, warnings: Warnings }), ...commonErrors },
      },
    },
    async (request) => ok({ site_id: request.site.id, seo: await siteSeoOf(ctx.db, request.site) }),
  );

  scope.patch(
    "/seo",
    {
      schema: {
        operationId: "patchSeo",
        tags,
        summary:
          "Write any of the site's SEO defaults (null restores one); the frames printing svc/seo and robots.txt follow",
        body: SiteSeoInput,
        response: {
          200: Success({ site_id: Int, seo: SiteSeo, changed: Type.Array(Str), rebaked: Rebaked, warnings: Warnings }),
          ...commonErrors,
        },
      },
    },
    async (request) => {
      const done = await patchSiteSeo(ctx, request.site, bodyOf(request));
      return ok(
        { site_id: request.site.id, seo: done.seo, changed: done.changed, rebaked: done.rebaked },
        done.warnings,
      );
    },
  );

  scope.get(
    "/seo/pages/:ref",
    {
      schema: {
        operationId: "getPageSeo",
        tags,
        summary: "A page's own SEO fields (per translation; ?lang picks among pages sharing a slug)",
        params: RefParams,
        querystring: LangQuery,
        response: {
          200: Success({ site_id: Int, page: Int, seo: PageSeoSchema, warnings: Warnings }),
          ...commonErrors,
        },
      },
    },
    async (request) =>
      ok({ site_id: request.site.id, ...(await pageSeo(ctx, request.site, request.params.ref, request.query)) }),
  );

  scope.patch(
    "/seo/pages/:ref",
    {
      schema: {
        operationId: "patchPageSeo",
        tags,
        summary: "Write any of a page's SEO fields (null restores a default); the same as `seo` in PATCH /pages",
        params: RefParams,
        querystring: LangQuery,
        body: PageSeoInput,
        response: {
          200: Success({ site_id: Int, page: Int, seo: PageSeoSchema, rebaked: Rebaked, warnings: Warnings }),
          ...commonErrors,
        },
      },
    },
    async (request) => {
      const done = await patchPageSeo(ctx, request.site, request.params.ref, bodyOf(request), request.query);
      return ok({ site_id: request.site.id, page: done.page, seo: done.seo, rebaked: done.rebaked }, done.warnings);
    },
  );

  scope.get(
    "/seo/redirects",
    {
      schema: {
        operationId: "listRedirects",
        tags,
        summary: "The site's redirects, automatic ones included, by address",
        response: {
          200: Success({ site_id: Int, redirects: Type.Array(Redirect), warnings: Warnings }),
          ...commonErrors,
        },
      },
    },
    async (request) => ok({ site_id: request.site.id, redirects: await redirectsOf(ctx, request.site) }),
  );

  scope.post(
    "/seo/redirects",
    {
      schema: {
        operationId: "createRedirect",
        tags,
        summary:
          "Make a redirect {from, to, status?} (201; 200 when it replaced the one at from): 409 redirect_shadows_page when a live page answers at from; 400 invalid_redirect_status",
        body: Obj({
          from: Type.String({ description: "a site path" }),
          to: Type.String({ description: "a site path or an absolute URL" }),
          status: Opt(
            Refusing(
              Type.Union([...REDIRECT_STATUSES.map((status) => Type.Literal(status)), Type.Null()], {
                description: "301 (default), 302, 307 or 308",
              }),
              "invalid_redirect_status",
              { value: "status", details: { allowed: REDIRECT_STATUSES } },
            ),
          ),
        }),
        response: {
          200: Success({ site_id: Int, redirect: Redirect, rebaked: Rebaked, warnings: Warnings }),
          201: Success({ site_id: Int, redirect: Redirect, rebaked: Rebaked, warnings: Warnings }),
          ...commonErrors,
        },
      },
    },
    async (request, reply) => {
      const done = await createRedirect(ctx, request.site, request.body);
      return reply
        .code(done.replaced ? 200 : 201)
        .send(ok({ site_id: request.site.id, redirect: done.redirect, rebaked: done.rebaked }));
    },
  );

  scope.delete(
    "/seo/redirects/:id",
    {
      schema: {
        operationId: "deleteRedirect",
        tags,
        summary: "Delete a redirect; ?dry_run=1 answers the same and deletes nothing",
        params: Obj({ id: Str }),
        querystring: Obj(DryRunQuery),
        response: {
          200: Success({ site_id: Int, deleted: Redirect, ...DryRunAnswer, rebaked: Rebaked, warnings: Warnings }),
          ...commonErrors,
        },
      },
    },
    async (request) =>
      ok({
        site_id: request.site.id,
        ...(await removeRedirect(ctx, request.site, request.params.id, { dryRun: dryRunOf(request) })),
      }),
  );
}

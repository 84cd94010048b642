// SEO (docs/seo.md): GET/PATCH /seo (the site's defaults), GET/PATCH /seo/pages/{ref}
// (a page's own fields), GET/POST /seo/redirects and DELETE /seo/redirects/{id}. Site-scoped, at
// both addresses. sitemap.xml and robots.txt are served by the public site (public/seo-routes.ts).
import type { TypedFastify } from "../http/typed-fastify.ts";
import { ok } from "../http/ok.ts";
import { bodyOf } from "../http/request.ts";
import { commonErrors, Obj, Opt, Rebaked, Success, Type, Warnings } from "../http/schema.ts";
import type { ServiceContext } from "../write/context.ts";
import { PageSeoSchema } from "../pages/routes.ts";
import { pageSeo, patchPageSeo } from "./page-seo.ts";
import { redirectRoutes } from "./redirect-routes.ts";
import { patchSiteSeo, siteSeoRead } from "./site-seo.ts";

const Str = Type.String();
const Int = Type.Integer();
const NullStr = Type.Union([Str, Type.Null()]);
/** A value per language code: `{"en": …, "de": …}` (docs/seo.md, "Site defaults in every language"). */
const PerLanguage = <S extends Parameters<typeof Type.Record>[1]>(value: S) =>
  Type.Record(Type.String({ description: "a language code of the site" }), value, {
    description:
      "per language: the default language's value, and another's own (null or \"\": it follows the default language)",
  });
const SiteSeo = Obj({
  title_template: Type.String({
    description: "the default language's; %s is the page's title; default `%s — <site name>`",
  }),
  description: Type.String({ description: "the default language's; for pages without their own" }),
  og_image: Type.Union([Str, Type.Null()], { description: "the default language's; a media id or slug" }),
  noindex: Type.Boolean({ description: "the whole site: robots meta, robots.txt Disallow: /, an empty sitemap" }),
  twitter_site: Type.String({ description: "@handle" }),
  robots_extra: Type.String({ description: "lines appended to robots.txt" }),
  languages: Type.Record(Type.String(), Obj({ title_template: NullStr, description: NullStr, og_image: NullStr }), {
    description:
      "each language of the site (none without languages): the default language's values, another's own (null: it follows the default language's)",
  }),
});
const SiteSeoInput = Obj({
  title_template: Opt(
    Type.Union([Str, Type.Null(), PerLanguage(NullStr)], {
      description: "null restores the default; a plain value is the default language's",
    }),
  ),
  description: Opt(Type.Union([Str, Type.Null(), PerLanguage(NullStr)])),
  og_image: Opt(Type.Union([Str, Int, Type.Null(), PerLanguage(Type.Union([Str, Int, Type.Null()]))])),
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
    async (request) => ok({ site_id: request.site.id, seo: await siteSeoRead(ctx.db, request.site) }),
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

  redirectRoutes(scope, ctx);
}

// Preview: POST /preview, and preview links — POST and GET /preview/links, DELETE
// /preview/links/{id}. Site-scoped, at both addresses. The links answer on the site's domain at
// /_preview/<token> (public/preview-routes.ts). docs/preview.md.
import type { TypedFastify } from "../http/typed-fastify.ts";
import { ok } from "../http/ok.ts";
import { absentBodyIsEmpty, dryRunOf, DryRunQuery } from "../http/request.ts";
import {
  commonErrors,
  DryRunAnswer,
  Example,
  Obj,
  Opt,
  Refusing,
  ServiceChecked,
  Success,
  Type,
  Warnings,
} from "../http/schema.ts";
import type { ServiceContext } from "../write/context.ts";
import { markupTrustOf } from "../site/roles.ts";
import {
  createPreviewLink,
  DEFAULT_EXPIRES_IN,
  listPreviewLinks,
  MAX_EXPIRES_IN,
  MIN_EXPIRES_IN,
  revokePreviewLink,
} from "./links.ts";
import { previewPage } from "./service.ts";
import { MAX_NEW_PARENTS } from "./new-page.ts";
import { PatchBody } from "../pages/routes.ts";

const Str = Type.String();
const Int = Type.Integer();
// Any value: findPageByRef (pages/refs.ts) reads it, answering page_required, invalid_field or page_not_found (1.5 names no page).
const PageRef = ServiceChecked(
  Type.Union([Int, Str]),
  "the page: an id, a slug or a path; required (but with new_page in POST /preview)",
);
const Lang = Opt(
  // Any value: checkLangIn (site/languages.ts) reads it, as every call's lang.
  ServiceChecked(Type.Union([Str, Type.Null()]), "a language of the site: the page's translation in it"),
);
/** An object of texts by key, or null (none). */
const TextsBy = (description: string) => Opt(Type.Union([Type.Record(Str, Str), Type.Null()], { description }));

const PreviewBody = Example(
  Obj({
    page: Opt(PageRef),
    lang: Lang,
    frames: TextsBy("frame slug (or id) → markup: replaces that frame's markup, or adds a frame with that slug"),
    styles: TextsBy(
      "stylesheet name → CSS: replaces or adds that stylesheet of the site's theme; printed inline in the preview",
    ),
    data: Opt(
      Type.Union(
        [
          Type.Record(
            Str,
            // Any value: itemsFrom (data/datasets.ts) checks it, as PUT /data/{name} checks its items.
            ServiceChecked(Type.Array(Type.Unknown()), "the set's items: an array of objects"),
          ),
          Type.Null(),
        ],
        {
          description:
            "data-set name → items: replaces or adds that shared set; <name>.<lang> → items: that language's variant",
        },
      ),
    ),
    page_fields: Opt(
      Type.Union([Type.Record(Str, Type.Unknown()), Type.Null()], {
        description: "title, content, slug, menu_order, seo, fields, frame; any other key sets fields.<key>",
      }),
    ),
    // Any value: newPageInputs (preview/new-page.ts) reads it, and each body as POST /pages reads it.
    new_page: Opt(
      ServiceChecked(
        PatchBody,
        "instead of page: a page not saved yet, the body of POST /pages without an id, made inside the preview (refusals and warnings name new_page.<field>)",
      ),
    ),
    new_parents: Opt(
      ServiceChecked(
        Type.Array(PatchBody),
        `with new_page: its parents not saved yet, POST /pages bodies made first, in order (at most ${MAX_NEW_PARENTS}; fields named new_parents.<i>.<field>)`,
      ),
    ),
  }),
  {
    page: "about",
    frames: { header: '<header><h1 data-op-bind=\'{"text": "page.title"}\'></h1></header>' },
    styles: { main: "h1 { color: rebeccapurple }" },
    page_fields: { title: "About us (draft)" },
  },
);

const Link = Obj({
  id: Int,
  page: Type.Integer({ description: "the page shown (its translation in lang when one was asked for)" }),
  lang: Type.Union([Str, Type.Null()]),
  expires_at: Type.String({ description: "ISO 8601, UTC, to the second" }),
  created_at: Type.String({ description: "ISO 8601, UTC" }),
  created_by: Type.Integer({ description: "user id" }),
});

export function previewRoutes(scope: TypedFastify, ctx: ServiceContext): void {
  const tags = ["preview"];

  scope.post(
    "/preview",
    {
      config: { writesNothing: true },
      preValidation: absentBodyIsEmpty,
      schema: {
        operationId: "previewPage",
        tags,
        summary:
          "The HTML a page (draft or published, or not saved yet: new_page) would show with unsaved changes: frames' markup, stylesheets (inline), data sets, page fields. Writes nothing, rebakes nothing. Refused as the writes refuse: 422 invalid_css, 400 frame_cycle, 413 frame_too_large, 422 render_too_large, 404 page_not_found, 409 page_without_frame, 400 invalid_field",
        body: PreviewBody,
        response: {
          200: Success({
            site_id: Int,
            html: Type.String({ description: "the page as its public address would answer it with these changes" }),
            warnings: Warnings,
          }),
          ...commonErrors,
        },
      },
    },
    async (request) => {
      const answer = await previewPage(
        ctx,
        request.site,
        request.caller!.userId,
        request.body,
        markupTrustOf(request.siteRole),
      );
      return ok({ site_id: request.site.id, html: answer.html }, answer.warnings);
    },
  );

  scope.post(
    "/preview/links",
    {
      preValidation: absentBodyIsEmpty,
      schema: {
        operationId: "createPreviewLink",
        tags,
        summary: `A link for people without an account: an absolute address /_preview/<token> on the site's domain showing the page as it currently stands, draft or published, until it expires (expires_in seconds, ${MIN_EXPIRES_IN} to ${MAX_EXPIRES_IN}, default ${DEFAULT_EXPIRES_IN}; else 400 invalid_expires_in) or is revoked. The address is answered this once: only a hash of its token is kept`,
        body: Obj({
          page: Opt(PageRef),
          lang: Lang,
          expires_in: Opt(
            Refusing(
              Type.Union([Type.Integer({ minimum: MIN_EXPIRES_IN, maximum: MAX_EXPIRES_IN }), Type.Null()], {
                description: `seconds, ${MIN_EXPIRES_IN} to ${MAX_EXPIRES_IN}; default ${DEFAULT_EXPIRES_IN} (7 days)`,
              }),
              "invalid_expires_in",
              {
                value: "value",
                details: { min: MIN_EXPIRES_IN, max: MAX_EXPIRES_IN, default: DEFAULT_EXPIRES_IN },
              },
            ),
          ),
        }),
        response: {
          201: Success({
            site_id: Int,
            id: Int,
            url: Type.String({
              description: "<scheme>://<domain>[:port]/_preview/<token>, the site's address (home_url)",
            }),
            expires_at: Type.String({ description: "ISO 8601, UTC" }),
            page: Int,
            lang: Type.Union([Str, Type.Null()]),
            created_at: Str,
            created_by: Int,
            warnings: Warnings,
          }),
          ...commonErrors,
        },
      },
    },
    async (request, reply) => {
      const { warnings, ...link } = await createPreviewLink(ctx, request.site, request.caller!.userId, request.body);
      return reply.code(201).send(ok({ site_id: request.site.id, ...link }, warnings));
    },
  );

  scope.get(
    "/preview/links",
    {
      schema: {
        operationId: "listPreviewLinks",
        tags,
        summary:
          "The site's preview links that have not expired or been revoked, newest first (without their addresses)",
        response: { 200: Success({ site_id: Int, links: Type.Array(Link), warnings: Warnings }), ...commonErrors },
      },
    },
    async (request) => ok({ site_id: request.site.id, links: await listPreviewLinks(ctx, request.site) }),
  );

  scope.delete(
    "/preview/links/:id",
    {
      schema: {
        operationId: "deletePreviewLink",
        tags,
        summary:
          "Revoke a preview link: its address answers 404 from now on (404 preview_link_not_found for an unknown one or another site's); ?dry_run=1 answers the same and revokes nothing",
        params: Obj({ id: Str }),
        querystring: Obj(DryRunQuery),
        response: {
          200: Success({ site_id: Int, revoked: Link, ...DryRunAnswer, warnings: Warnings }),
          ...commonErrors,
        },
      },
    },
    async (request) => {
      const dryRun = dryRunOf(request);
      const revoked = await revokePreviewLink(ctx, request.site, request.params.id, dryRun);
      return ok({ site_id: request.site.id, revoked, ...(dryRun ? { dry_run: true, applied: false } : {}) });
    },
  );
}

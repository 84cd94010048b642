// Pages and translations (docs/content-model.md): GET/POST /pages, POST /pages/language,
// GET/PATCH/DELETE /pages/{ref}. A `{ref}` is an id, a slug or a path (slashes as %2F).
import type { TypedFastify } from "../http/typed-fastify.ts";
import { fail } from "../errors.ts";
import { ok } from "../http/ok.ts";
import { bodyOf, DryRunQuery, dryRunOf } from "../http/request.ts";
import { pagedList, PagingQuery } from "../http/pagination.ts";
import { commonErrors, DryRunAnswer, Example, Obj, Opt, Rebaked, Success, Type } from "../http/schema.ts";
import type { ServiceContext } from "../write/context.ts";
import { markupTrustOf } from "../site/roles.ts";
import { deletePage } from "./delete-service.ts";
import { patchPage } from "./patch-service.ts";
import { publishPage } from "./publish-service.ts";
import { getPage, listPages } from "./read-service.ts";
import { sendKeptJson } from "../http/kept-json.ts";
import { linkTranslation } from "./translations.ts";
import { assignMissingLanguage } from "./missing-language.ts";

const Str = Type.String();
const Null = Type.Null();
const ContentFormat = Type.Union([Type.Literal("html"), Type.Literal("markdown")], {
  description:
    "what `content` is written in: html (the default) or markdown (CommonMark with GitHub's tables, strikethrough, task lists and autolinks; `[text](page:<ref>)` and `![alt](media:<ref>)` name the site's pages and files)",
});
const Warnings = Type.Array(Obj({ code: Type.String(), message: Type.String() }));

export const PageSeoSchema = Obj({
  title: Type.Union([Str, Null], {
    description: "the SEO title (the site's template is applied to it); null: the page's title",
  }),
  description: Type.Union([Str, Null], { description: "null: the site's description" }),
  canonical: Type.Union([Str, Null], { description: "a site path or an absolute URL; null: the page's own address" }),
  noindex: Type.Boolean(),
  og_image: Type.Union([Str, Null], { description: "a media id or slug; null: the site's image" }),
});

export const PageRecordSchema = Obj({
  id: Type.Integer(),
  title: Str,
  slug: Str,
  path: Type.String({ description: "`/parent/slug`, without a language prefix" }),
  url: Type.String({ description: "public address, language prefix included" }),
  status: Type.Union([Type.Literal("publish"), Type.Literal("future"), Type.Literal("draft"), Type.Literal("trash")], {
    description: "future: scheduled, published at `date` (shown nowhere until then)",
  }),
  parent: Type.Integer({ description: "parent page id, 0 at the top" }),
  lang: Type.Union([Str, Null]),
  translations: Type.Record(Type.String(), Type.Integer(), { description: "{lang: page id}, this page included" }),
  frame: Type.Union([Str, Null], { description: "slug of the page's frame, or null" }),
  content: Type.String({ description: "the content as written: HTML, or the Markdown source" }),
  content_format: ContentFormat,
  fields: Obj({}),
  seo: PageSeoSchema,
  menu_order: Type.Integer({ description: "order among siblings in generated sidebars (then title)" }),
  date: Type.Union([Str, Null], {
    description:
      "publication date, ISO 8601 UTC (2024-03-05T09:30:00Z); set at the first publication unless given; a future page is published then",
  }),
  tags: Type.Array(Str, { description: 'the page\'s tags (svc/repeat match {"tags": [...]})' }),
  feed: Type.Boolean({ description: "publishes an Atom feed of its list at <url>feed.xml" }),
  visible: Type.Boolean({ description: "published and every ancestor published" }),
  static: Obj({
    published: Type.Boolean(),
    url: Type.Union([Str, Null]),
    bytes: Type.Union([Type.Integer(), Null]),
    written_at_gmt: Type.Union([Str, Null]),
    reason: Type.Union([Str, Null]),
  }),
  printed: Obj({
    how: Type.Union([Type.Literal("static"), Type.Literal("on_request"), Type.Literal("none")]),
    reason: Str,
  }),
  created_at_gmt: Str,
  updated_at_gmt: Str,
});

const Ref = Type.Union([Type.Integer(), Str, Null], { description: "page id, slug or path" });
/** What a page has of a post (docs/content-model.md, "Dates, tags and feeds"). */
const PostFields = {
  date: Opt(
    Type.Union([Str, Null], {
      description:
        "publication date, ISO 8601 (a date, or a date-time; UTC without an offset); null: the first publication",
    }),
  ),
  tags: Opt(Type.Union([Type.Array(Str), Null], { description: "at most 100 texts of at most 200 characters" })),
  feed: Opt(
    Type.Union([Type.Boolean(), Null], { description: "publish an Atom feed of the page's list at <url>feed.xml" }),
  ),
};
const WriteFields = {
  title: Opt(Type.Union([Str, Null], { description: "at most 1,000 characters" })),
  slug: Opt(Type.Union([Str, Null], { description: "at most 200 characters; default: from the title" })),
  url: Opt(Type.Union([Str, Null], { description: "path whose all-but-last segments name the parent" })),
  parent: Opt(Ref),
  status: Opt(
    Type.Union([Str, Null], {
      description:
        "publish (default on POST), future (scheduled: published at `date`; a date that has come publishes now), draft or trash",
    }),
  ),
  lang: Opt(Type.Union([Str, Null])),
  content: Opt(Type.Union([Str, Null], { description: "HTML, or Markdown with content_format markdown" })),
  content_format: Opt(Type.Union([ContentFormat, Null], { description: "null: html" })),
  fields: Opt(Type.Union([Obj({}), Null])),
  frame: Opt(Type.Union([Str, Null], { description: "frame id or slug; null takes the frame off" })),
  seo: Opt(
    Type.Union([Obj({}), Null], {
      description:
        "the page's SEO fields (title, description, canonical, noindex, og_image), as PATCH /seo/pages/{ref}; null restores every default",
    }),
  ),
  menu_order: Opt(
    Type.Union([Type.Integer(), Null], { description: "order among siblings in generated sidebars; default 0" }),
  ),
  ...PostFields,
  create_missing_parents: Opt(Type.Boolean()),
};
const PublishBody = Example(Obj({ id: Opt(Type.Union([Type.Integer(), Str, Null])), ...WriteFields }), {
  title: "Introduction",
  slug: "intro",
  parent: "docs",
  lang: "en",
  frame: "article",
  content: "<p>Welcome.</p>",
});
/** A page write's body without an id: PATCH's, and a page not saved yet in POST /preview (`new_page`). */
export const PatchBody = Obj(WriteFields);

const Stub = Obj({ id: Type.Integer(), path: Str });
const SlugChanged = Obj({ from: Str, to: Str });
const WriteAnswer = Success({
  site_id: Type.Integer(),
  page: PageRecordSchema,
  created: Type.Boolean(),
  slug_changed: Opt(SlugChanged),
  created_stubs: Opt(Type.Array(Stub)),
  ...DryRunAnswer,
  rebaked: Rebaked,
  warnings: Warnings,
});
const RefParams = Obj({ ref: Str });
const LangQuery = Obj({ lang: Opt(Str) });

function flag(value: unknown, field: string): boolean {
  if (value === undefined || value === "" || value === "false" || value === "0") return false;
  if (value === "true" || value === "1") return true;
  throw fail("invalid_field", { field, expected: "true or false" }, `${field} must be true or false.`);
}

export function pageRoutes(scope: TypedFastify, ctx: ServiceContext): void {
  const tags = ["pages"];

  scope.get(
    "/pages",
    {
      schema: {
        operationId: "listPages",
        tags,
        summary:
          "Pages, filtered by ?lang, ?status (publish, future, draft, trash, any; default all but trash) and ?parent (ref, 0 for the top), by path; paged by ?per_page and ?page (Link, X-WP-Total, X-WP-TotalPages)",
        querystring: Obj({ lang: Opt(Str), status: Opt(Str), parent: Opt(Str), ...PagingQuery }),
        response: {
          200: Success({
            site_id: Type.Integer(),
            total: Type.Integer({ description: "pages matching the filters, on every page of the list" }),
            pages: Type.Array(PageRecordSchema),
            warnings: Warnings,
          }),
          ...commonErrors,
        },
      },
    },
    async (request, reply) => {
      const list = await pagedList(request, reply, (paging) => listPages(ctx, request.site, request.query, paging));
      return sendKeptJson(reply, list, () => ok({ site_id: request.site.id, total: list.total, pages: list.pages }));
    },
  );

  scope.post(
    "/pages",
    {
      schema: {
        operationId: "publishPage",
        tags,
        summary:
          "Publish a page: with id, update it; without, update the page with that slug under the same parent in the same language, or create one",
        body: PublishBody,
        response: { 200: WriteAnswer, 201: WriteAnswer, ...commonErrors },
      },
    },
    async (request, reply) => {
      const done = await publishPage(ctx, request.site, bodyOf(request), markupTrustOf(request.siteRole));
      const { warnings, ...fields } = done;
      return reply.code(done.created ? 201 : 200).send(ok({ site_id: request.site.id, ...fields }, warnings));
    },
  );

  const TranslationAnswer = Success({
    site_id: Type.Integer(),
    page: Opt(PageRecordSchema),
    origin: Opt(Obj({ id: Type.Integer(), lang: Str })),
    created: Opt(Type.Boolean()),
    updated: Opt(Type.Array(Type.Integer(), { description: "with missing: true, the pages that got a language" })),
    lang: Opt(Type.String({ description: "with missing: true, the language they got" })),
    slug_changed: Opt(SlugChanged),
    rebaked: Rebaked,
    warnings: Warnings,
  });
  scope.post(
    "/pages/language",
    {
      schema: {
        operationId: "createPageTranslation",
        tags,
        summary:
          "Create a translation of a page ({page, lang, title?, slug?, content?, content_format?, status?, date?, tags?, feed?}); link an existing page in lang as its translation ({page, lang, translation}: 409 translation_exists when either already has one in that language; nothing else is written); or with {missing: true, lang?} give every page without a language one",
        body: Obj({
          page: Opt(Ref),
          lang: Opt(Type.Union([Str, Null])),
          title: Opt(Type.Union([Str, Null])),
          slug: Opt(Type.Union([Str, Null])),
          content: Opt(Type.Union([Str, Null])),
          content_format: Opt(Type.Union([ContentFormat, Null])),
          status: Opt(Type.Union([Str, Null])),
          ...PostFields,
          missing: Opt(Type.Boolean()),
          translation: Opt(Ref),
        }),
        response: { 200: TranslationAnswer, 201: TranslationAnswer, ...commonErrors },
      },
    },
    async (request, reply) => {
      const input = bodyOf(request);
      if (input.missing === true) {
        const done = await assignMissingLanguage(ctx, request.site, input);
        const { warnings, ...fields } = done;
        return ok({ site_id: request.site.id, ...fields }, warnings);
      }
      const done = await linkTranslation(ctx, request.site, input, markupTrustOf(request.siteRole));
      const { warnings, ...fields } = done;
      return reply.code(done.created ? 201 : 200).send(ok({ site_id: request.site.id, ...fields }, warnings));
    },
  );

  scope.get(
    "/pages/:ref",
    {
      schema: {
        operationId: "getPage",
        tags,
        summary:
          "One page by id (trashed pages too), slug or path; several pages with that slug: 409 ambiguous_page with candidates",
        params: RefParams,
        querystring: LangQuery,
        response: {
          200: Success({ site_id: Type.Integer(), page: PageRecordSchema, warnings: Warnings }),
          ...commonErrors,
        },
      },
    },
    async (request) => {
      const page = await getPage(ctx, request.site, request.params.ref, request.query);
      return ok({ site_id: request.site.id, page });
    },
  );

  scope.patch(
    "/pages/:ref",
    {
      schema: {
        operationId: "patchPage",
        tags,
        summary: "Change any field of a page; fields merge (null removes a key); frame is a frame ref or null",
        params: RefParams,
        querystring: Obj({ lang: Opt(Str), ...DryRunQuery }),
        body: PatchBody,
        response: { 200: WriteAnswer, ...commonErrors },
      },
    },
    async (request) => {
      const done = await patchPage(ctx, request.site, request.params.ref, bodyOf(request), request.query, {
        dryRun: dryRunOf(request),
        markup: markupTrustOf(request.siteRole),
      });
      const { warnings, ...fields } = done;
      return ok({ site_id: request.site.id, ...fields }, warnings);
    },
  );

  scope.delete(
    "/pages/:ref",
    {
      schema: {
        operationId: "deletePage",
        tags,
        summary:
          "Move a page to the trash; ?force=true deletes it for good (its children move up to its parent; it goes to GET /trash with its history); ?dry_run=1 answers the same and writes nothing",
        params: RefParams,
        querystring: Obj({ force: Opt(Str), lang: Opt(Str), ...DryRunQuery }),
        response: {
          200: Success({
            site_id: Type.Integer(),
            page: PageRecordSchema,
            deleted: Type.Boolean(),
            trashed: Type.Boolean(),
            removed: Type.Array(Type.Integer(), {
              description: "pages deleted for good (force); none for a move to the trash",
            }),
            reparented: Opt(
              Type.Array(Type.Integer(), { description: "children moved up to the page's parent (force)" }),
            ),
            menu_items_orphaned: Type.Array(Obj({ menu_id: Type.Integer(), id: Type.Integer(), title: Str }), {
              description: "menu items pointing to the page, left pointing nowhere",
            }),
            ...DryRunAnswer,
            rebaked: Rebaked,
            warnings: Warnings,
          }),
          ...commonErrors,
        },
      },
    },
    async (request) => {
      const query = request.query;
      const done = await deletePage(ctx, request.site, request.params.ref, {
        force: flag(query.force, "force"),
        lang: query.lang,
        dryRun: dryRunOf(request),
      });
      const { warnings, ...fields } = done;
      return ok({ site_id: request.site.id, ...fields }, warnings);
    },
  );
}

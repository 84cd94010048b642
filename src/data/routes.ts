// Data sets and data sources (docs/content-model.md): GET /data, PUT/DELETE /data/{name},
// GET /data/{source}, POST /data/resolve. Site-scoped, at both addresses.
import type { TypedFastify } from "../http/typed-fastify.ts";
import { fail } from "../errors.ts";
import { ok } from "../http/ok.ts";
import { pagedList, PagingQuery } from "../http/pagination.ts";
import { bodyOf, dryRunOf, DryRunQuery } from "../http/request.ts";
import {
  commonErrors,
  DryRunAnswer,
  Example,
  Obj,
  Opt,
  Rebaked,
  ServiceChecked,
  Success,
  Type,
} from "../http/schema.ts";
import type { ServiceContext } from "../write/context.ts";
import { markupTrustOf } from "../site/roles.ts";
import { listDatasets, putDataset } from "./datasets.ts";
import { deleteDataset } from "./delete-service.ts";
import { resolveSource } from "./sources.ts";

const Str = Type.String();
const Null = Type.Null();
const Warnings = Type.Array(Obj({ code: Type.String(), message: Type.String() }));
const Dataset = Obj({
  name: Str,
  lang: Type.Union([Str, Null], { description: "null for the shared set" }),
  total: Type.Integer(),
  created_at_gmt: Str,
  updated_at_gmt: Str,
});
const Resolved = Success({
  site_id: Type.Integer(),
  source: Str,
  items: Type.Array(
    Obj({}, "an item: one of the data set's objects, or a page, menu item, language, the settings or the site"),
  ),
  meta: Obj({}),
  warnings: Warnings,
});
const Planned = Obj(
  {
    status: Type.Literal("planned"),
    total: Type.Integer(),
    frames: Type.Array(Obj({ id: Str, slug: Str, because: Type.Array(Str) })),
    pages: Type.Array(Type.Integer()),
  },
  "A dry run's: the frames and pages the delete would rebake",
);
const Ref = Type.Union([Type.Integer(), Str, Null], { description: "page id, slug or path" });

/** `?lang` on PUT names the variant as GET and DELETE do; the body's `lang` says the same or nothing. */
function withQueryLang(input: Record<string, unknown>, lang: string | undefined): Record<string, unknown> {
  if (lang === undefined) return input;
  if (input.lang !== undefined && input.lang !== null && input.lang !== lang) {
    throw fail(
      "invalid_field",
      { field: "lang", query: lang, body: input.lang },
      "lang is given twice, in the query and the body, with different values.",
    );
  }
  return { ...input, lang };
}

export function dataRoutes(scope: TypedFastify, ctx: ServiceContext): void {
  const tags = ["data"];

  scope.get(
    "/data",
    {
      schema: {
        operationId: "listDatasets",
        tags,
        summary:
          "Every data set and language variant, by name; paged by ?per_page and ?page (Link, X-WP-Total, X-WP-TotalPages)",
        querystring: Obj(PagingQuery),
        response: {
          200: Success({
            site_id: Type.Integer(),
            total: Type.Integer(),
            datasets: Type.Array(Dataset),
            warnings: Warnings,
          }),
          ...commonErrors,
        },
      },
    },
    async (request, reply) => {
      const { total, datasets } = await pagedList(request, reply, (paging) =>
        listDatasets(ctx.db, request.site.id, paging),
      );
      return ok({ site_id: request.site.id, total, datasets });
    },
  );

  scope.post(
    "/data/resolve",
    {
      config: { writesNothing: true },
      schema: {
        operationId: "resolveDataSource",
        tags,
        summary:
          "What a frame sees for a source: {source, match?, order_by?, offset?, limit?, page?, lang?}, as svc/repeat lists it; match compares values as strings",
        body: Obj({
          source: Opt(Str),
          match: Opt(Type.Union([Obj({}), Null], { description: "{path: value or [values]}: every path holds" })),
          order_by: Opt(
            Type.Union([Str, Null], {
              description: "date, modified, title, menu_order or fields.<name>; - first for descending; ties by id",
            }),
          ),
          offset: Opt(Type.Union([Type.Integer(), Null], { description: "skip the first n (after match and order)" })),
          page: Opt(Ref),
          lang: Opt(Type.Union([Str, Null])),
          limit: Opt(Type.Union([Type.Integer(), Null])),
        }),
        response: { 200: Resolved, ...commonErrors },
      },
    },
    async (request) => {
      const input = bodyOf(request);
      return ok({
        site_id: request.site.id,
        ...(await resolveSource(ctx, request.site, { ...input, source: input.source })),
      });
    },
  );

  scope.get(
    "/data/:source",
    {
      schema: {
        operationId: "getDataSource",
        tags,
        summary:
          "Read a source: a data set (language variant first, then the shared set), menu.<location>, pages, pages.children, breadcrumbs, languages, site",
        params: Obj({ source: Str }),
        querystring: Obj({ lang: Opt(Str), page: Opt(Str), limit: Opt(Str), order_by: Opt(Str), offset: Opt(Str) }),
        response: { 200: Resolved, ...commonErrors },
      },
    },
    async (request) => {
      const query = request.query;
      const source = request.params.source;
      return ok({
        site_id: request.site.id,
        ...(await resolveSource(ctx, request.site, {
          source,
          lang: query.lang,
          page: query.page,
          limit: query.limit,
          order_by: query.order_by,
          offset: query.offset,
        })),
      });
    },
  );

  const Written = Success({
    site_id: Type.Integer(),
    dataset: Dataset,
    created: Type.Boolean(),
    rebaked: Rebaked,
    warnings: Warnings,
  });
  scope.put(
    "/data/:name",
    {
      schema: {
        operationId: "putDataset",
        tags,
        summary:
          "Store a data set {items: [objects], lang?}: the lang variant, or the shared set; rebakes the frames that read it",
        params: Obj({ name: Type.String({ description: "data-set name, ^[a-z0-9][a-z0-9_-]*$" }) }),
        body: Example(
          Obj({
            items: Opt(
              // Any value: itemsFrom (datasets.ts) checks it, as it checks the stored items a restore writes back.
              Type.Array(ServiceChecked(Obj({}), "an object; at most 10,000 items"), { description: "required" }),
            ),
            lang: Opt(Type.Union([Str, Null])),
          }),
          {
            items: [
              { name: "Ada", role: "Engineer" },
              { name: "Grace", role: "Admiral" },
            ],
          },
        ),
        querystring: Obj({
          lang: Opt(
            Type.String({
              description:
                "the language variant, as in GET and DELETE; the same as lang in the body (both given and different: 400 invalid_field)",
            }),
          ),
        }),
        response: { 200: Written, 201: Written, ...commonErrors },
      },
    },
    async (request, reply) => {
      const done = await putDataset(
        ctx,
        request.site,
        request.params.name,
        withQueryLang(bodyOf(request), request.query.lang),
        { markup: markupTrustOf(request.siteRole) },
      );
      const { warnings, ...fields } = done;
      return reply.code(done.created ? 201 : 200).send(ok({ site_id: request.site.id, ...fields }, warnings));
    },
  );

  scope.delete(
    "/data/:name",
    {
      schema: {
        operationId: "deleteDataset",
        tags,
        summary:
          "Delete the shared data set, or with ?lang=xx that language variant; it goes to the trash (GET /trash) with its history. ?dry_run=1: the same answer, the frames that would be rebaked, nothing deleted",
        params: Obj({ name: Str }),
        querystring: Obj({ lang: Opt(Str), ...DryRunQuery }),
        response: {
          200: Success({
            site_id: Type.Integer(),
            deleted: Obj({ name: Str, lang: Type.Union([Str, Null]), total: Type.Integer() }),
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
      const done = await deleteDataset(ctx, request.site, request.params.name, request.query, dryRun);
      return ok({ site_id: request.site.id, ...done, ...(dryRun ? { dry_run: true, applied: false } : {}) });
    },
  );
}

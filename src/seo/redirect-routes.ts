// The redirects calls (docs/seo.md, "Redirects"): GET /seo/redirects (JSON, or CSV to
// `Accept: text/csv`), POST /seo/redirects (one `{from, to, status?}`, a list `{redirects: […]}`,
// or a `text/csv` body read as that list) and DELETE /seo/redirects/{id}. The CSV body parser is
// registered for POST /seo/redirects alone; every other route takes JSON only.
import type { TypedFastify } from "../http/typed-fastify.ts";
import { ok } from "../http/ok.ts";
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
import { fail } from "../errors.ts";
import type { ServiceContext } from "../write/context.ts";
import { REDIRECT_STATUSES } from "../redirects/redirects.ts";
import { createRedirect, redirectsOf, removeRedirect } from "./redirect-service.ts";
import { createRedirects, MAX_REDIRECTS_AT_ONCE } from "./redirect-list.ts";
import { CSV_TYPE, wantsCsv } from "../http/csv.ts";
import { redirectsCsv, redirectsFromCsv } from "./redirects-csv.ts";

const Str = Type.String();
const Int = Type.Integer();
const Redirect = Obj({
  id: Int,
  from: Type.String({
    description: "the address redirected, canonical, with its language prefix (and `?<query>` for one query string)",
  }),
  to: Type.String({ description: "a site path or an absolute URL, sent as it is in Location" }),
  status: Type.Integer({ description: "301, 302, 307 or 308" }),
  auto: Type.Boolean({ description: "made when a page's address changed" }),
  created_at_gmt: Str,
});
const FROM = "a site path; with a query string (`/?page_id=12`) it redirects that exact query only";
const TO = "a site path or an absolute URL";
const RedirectItem = Obj({
  from: Type.String({ description: FROM }),
  to: Type.String({ description: TO }),
  status: Opt(Type.Union([...REDIRECT_STATUSES.map((status) => Type.Literal(status)), Type.Null()])),
});
const Listed = Success({
  site_id: Int,
  redirects: Type.Array(Redirect, {
    description: "the redirects posted, as they stand after the write, in list order",
  }),
  created: Int,
  replaced: Int,
  rebaked: Rebaked,
  warnings: Warnings,
});
const One = Success({ site_id: Int, redirect: Redirect, rebaked: Rebaked, warnings: Warnings });

export function redirectRoutes(scope: TypedFastify, ctx: ServiceContext): void {
  const tags = ["seo"];

  scope.get(
    "/seo/redirects",
    {
      schema: {
        operationId: "listRedirects",
        tags,
        summary:
          "The site's redirects, automatic ones included, by address; as CSV (from,to,status) to Accept: text/csv",
        response: {
          200: {
            description: "the redirects",
            content: {
              "application/json": {
                schema: Success({ site_id: Int, redirects: Type.Array(Redirect), warnings: Warnings }),
              },
              "text/csv": {
                schema: Type.String({ description: "RFC 4180: a header row from,to,status, then one row each" }),
              },
            },
          },
          ...commonErrors,
        },
      },
    },
    async (request, reply) => {
      const redirects = await redirectsOf(ctx, request.site);
      if (wantsCsv(request.headers.accept))
        return reply.type(CSV_TYPE).send(Buffer.from(redirectsCsv(redirects), "utf8"));
      return ok({ site_id: request.site.id, redirects });
    },
  );

  // A child scope: the CSV parser serves this route alone.
  scope.register(async (posts: TypedFastify) => {
    posts.addContentTypeParser("text/csv", { parseAs: "string" }, (_request, body, done) => {
      try {
        done(null, { redirects: redirectsFromCsv(body as string) });
      } catch (error) {
        done(error as Error);
      }
    });

    posts.post(
      "/seo/redirects",
      {
        schema: {
          operationId: "createRedirect",
          tags,
          summary:
            "Make a redirect {from, to, status?} (201; 200 when it replaced the one at from), or up to 1,000 at once " +
            "({redirects: [...]}, or a text/csv body with a header row from,to,status): one write, all or nothing",
          description:
            "One redirect: 409 redirect_shadows_page when a live page answers at from; 400 invalid_redirect_status; 400 invalid_field. " +
            `A list: written in order as if posted one by one, 201 when any was new (else 200); over ${MAX_REDIRECTS_AT_ONCE} 400 too_many_items; ` +
            "any refused, 400 bad_items with errors [{at, code, message, ...}] (at: its index in the list, or the CSV row after the header) and nothing written; " +
            "a CSV body that cannot be read 400 invalid_csv (line, reason).",
          consumes: ["application/json", "text/csv"],
          body: Obj({
            from: Opt(Type.String({ description: `${FROM} (one redirect)` })),
            to: Opt(Type.String({ description: `${TO} (one redirect)` })),
            status: Opt(
              Refusing(
                Type.Union([...REDIRECT_STATUSES.map((status) => Type.Literal(status)), Type.Null()], {
                  description: "301 (default), 302, 307 or 308",
                }),
                "invalid_redirect_status",
                { value: "status", details: { allowed: REDIRECT_STATUSES } },
              ),
            ),
            redirects: Opt(
              ServiceChecked(
                Type.Array(RedirectItem, { maxItems: MAX_REDIRECTS_AT_ONCE }),
                "many redirects at once, instead of from, to and status",
              ),
            ),
          }),
          response: { 200: Type.Union([One, Listed]), 201: Type.Union([One, Listed]), ...commonErrors },
        },
      },
      async (request, reply) => {
        const body = request.body;
        if (body.redirects !== undefined) {
          if (body.from !== undefined || body.to !== undefined || body.status !== undefined)
            throw fail(
              "invalid_field",
              { field: "redirects", conflicts_with: ["from", "to", "status"] },
              "Send one redirect (from, to, status) or a list (redirects), not both.",
            );
          const done = await createRedirects(ctx, request.site, body.redirects);
          return reply.code(done.created > 0 ? 201 : 200).send(ok({ site_id: request.site.id, ...done }));
        }
        const done = await createRedirect(ctx, request.site, body);
        return reply
          .code(done.replaced ? 200 : 201)
          .send(ok({ site_id: request.site.id, redirect: done.redirect, rebaked: done.rebaked }));
      },
    );
  });

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

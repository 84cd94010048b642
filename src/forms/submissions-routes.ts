// The submissions API (docs/forms.md, "Submissions"): GET /forms/{name}/submissions (paged JSON, or
// CSV to `Accept: text/csv`), GET and DELETE /forms/{name}/submissions/{id}. Under /forms, so
// editors read and administrators delete (docs/roles.md).
import { Readable } from "node:stream";
import { CSV_TYPE, wantsCsv } from "../http/csv.ts";
import { ok } from "../http/ok.ts";
import { pagedList, PagingQuery } from "../http/pagination.ts";
import { dryRunOf, DryRunQuery } from "../http/request.ts";
import { commonErrors, DryRunAnswer, Obj, Success, Type, Warnings } from "../http/schema.ts";
import type { TypedFastify } from "../http/typed-fastify.ts";
import type { ServiceContext } from "../write/context.ts";
import { NameParams } from "./schemas.ts";
import { Submission, SubmissionParams } from "./submission-schemas.ts";
import { csvHeader, csvRows } from "./submissions-csv.ts";
import { deleteSubmission, everySubmissionOf, submissionNamed, submissionsOf } from "./submissions-service.ts";

const Int = Type.Integer();
const CSV_DESCRIPTION =
  "RFC 4180, UTF-8 with a byte order mark: id, created_at, page, lang, the form's fields in declared order, user_agent; " +
  "a cell starting with = + - @, a tab or a carriage return is prefixed with '";

export function submissionRoutes(scope: TypedFastify, ctx: ServiceContext): void {
  const tags = ["forms"];

  scope.get(
    "/forms/:name/submissions",
    {
      schema: {
        operationId: "listFormSubmissions",
        tags,
        summary:
          "The form's submissions, newest first, paged by ?per_page and ?page (Link, X-WP-Total, X-WP-TotalPages); " +
          "as CSV to Accept: text/csv (every submission, or the page asked for with ?per_page or ?page)",
        params: NameParams,
        querystring: Obj({ ...PagingQuery }),
        response: {
          200: {
            description: "the submissions",
            content: {
              "application/json": {
                schema: Success({
                  site_id: Int,
                  form: Type.String(),
                  total: Type.Integer({ description: "the form's submissions, on every page of the list" }),
                  submissions: Type.Array(Submission),
                  warnings: Warnings,
                }),
              },
              "text/csv": { schema: Type.String({ description: CSV_DESCRIPTION }) },
            },
          },
          ...commonErrors,
        },
      },
    },
    async (request, reply) => {
      const csv = wantsCsv(request.headers.accept);
      if (csv && request.query.page === undefined && request.query.per_page === undefined) {
        const { form, slices } = await everySubmissionOf(ctx, request.site, request.params.name);
        const names = form.fields.map((field) => field.name);
        const lines = async function* () {
          yield csvHeader(names);
          for await (const slice of slices) yield csvRows(names, slice);
        };
        return reply.type(CSV_TYPE).send(Readable.from(lines()));
      }
      const { form, total, submissions } = await pagedList(request, reply, (paging) =>
        submissionsOf(ctx, request.site, request.params.name, paging),
      );
      if (csv) {
        const names = form.fields.map((field) => field.name);
        return reply.type(CSV_TYPE).send(Buffer.from(csvHeader(names) + csvRows(names, submissions), "utf8"));
      }
      return ok({ site_id: request.site.id, form: form.name, total, submissions });
    },
  );

  scope.get(
    "/forms/:name/submissions/:id",
    {
      schema: {
        operationId: "getFormSubmission",
        tags,
        summary: "One submission of the form",
        params: SubmissionParams,
        response: { 200: Success({ site_id: Int, submission: Submission, warnings: Warnings }), ...commonErrors },
      },
    },
    async (request) =>
      ok({
        site_id: request.site.id,
        submission: await submissionNamed(ctx, request.site, request.params.name, request.params.id),
      }),
  );

  scope.delete(
    "/forms/:name/submissions/:id",
    {
      schema: {
        operationId: "deleteFormSubmission",
        tags,
        summary:
          "Delete a submission (its place of quota form_submissions is freed; event form_submission.deleted); ?dry_run=1 answers the same and deletes nothing",
        params: SubmissionParams,
        querystring: Obj(DryRunQuery),
        response: {
          200: Success({ site_id: Int, deleted: Submission, ...DryRunAnswer, warnings: Warnings }),
          ...commonErrors,
        },
      },
    },
    async (request) =>
      ok({
        site_id: request.site.id,
        ...(await deleteSubmission(ctx, request.site, request.params.name, request.params.id, {
          dryRun: dryRunOf(request),
        })),
      }),
  );
}

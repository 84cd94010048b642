// The forms API (docs/forms.md): POST/GET /forms, GET/PATCH/DELETE /forms/{name}, and their
// submissions (submissions-routes.ts). Site-scoped, at both addresses; administrators write,
// editors read (docs/roles.md).
import type { TypedFastify } from "../http/typed-fastify.ts";
import { ok } from "../http/ok.ts";
import { dryRunFields, dryRunOf, DryRunQuery } from "../http/request.ts";
import { commonErrors, DryRunAnswer, Obj, Rebaked, Success, Type, Warnings } from "../http/schema.ts";
import type { ServiceContext } from "../write/context.ts";
import { Form, FormCreate, FormPatch, NameParams } from "./schemas.ts";
import { createForm, deleteForm, formsOf, formWithCounts, patchForm } from "./service.ts";
import { submissionRoutes } from "./submissions-routes.ts";

const Int = Type.Integer();
const Written = Success({ site_id: Int, form: Form, rebaked: Rebaked, warnings: Warnings });

export function formRoutes(scope: TypedFastify, ctx: ServiceContext): void {
  const tags = ["forms"];

  scope.get(
    "/forms",
    {
      schema: {
        operationId: "listForms",
        tags,
        summary: "The site's forms, by name",
        response: { 200: Success({ site_id: Int, forms: Type.Array(Form), warnings: Warnings }), ...commonErrors },
      },
    },
    async (request) => ok({ site_id: request.site.id, forms: await formsOf(ctx, request.site) }),
  );

  scope.post(
    "/forms",
    {
      schema: {
        operationId: "createForm",
        tags,
        summary:
          "Declare a form: its fields in order, redirect, notify and store; pages printing it (svc/form) are published again",
        body: FormCreate,
        response: { 201: Written, ...commonErrors },
      },
    },
    async (request, reply) => {
      const done = await createForm(ctx, request.site, request.body);
      return reply.code(201).send(ok({ site_id: request.site.id, ...done }));
    },
  );

  scope.get(
    "/forms/:name",
    {
      schema: {
        operationId: "getForm",
        tags,
        summary: "One form, with its counts: submissions kept, and submissions taken for a bot's (spam, never kept)",
        params: NameParams,
        response: {
          200: Success({
            site_id: Int,
            form: Form,
            counts: Obj({ submissions: Int, spam: Int }),
            warnings: Warnings,
          }),
          ...commonErrors,
        },
      },
    },
    async (request) =>
      ok({ site_id: request.site.id, ...(await formWithCounts(ctx, request.site, request.params.name)) }),
  );

  scope.patch(
    "/forms/:name",
    {
      schema: {
        operationId: "patchForm",
        tags,
        summary: "Change a form (the fields sent replace the list); pages printing it are published again",
        params: NameParams,
        body: FormPatch,
        response: { 200: Written, ...commonErrors },
      },
    },
    async (request) =>
      ok({ site_id: request.site.id, ...(await patchForm(ctx, request.site, request.params.name, request.body)) }),
  );

  scope.delete(
    "/forms/:name",
    {
      schema: {
        operationId: "deleteForm",
        tags,
        summary:
          "Delete a form and its submissions; pages printing it print nothing for it; ?dry_run=1 answers the same and deletes nothing",
        params: NameParams,
        querystring: Obj(DryRunQuery),
        response: {
          200: Success({
            site_id: Int,
            deleted: Obj({ name: Type.String(), submissions: Int }),
            rebaked: Rebaked,
            warnings: Warnings,
            ...DryRunAnswer,
          }),
          ...commonErrors,
        },
      },
    },
    async (request) => {
      const dryRun = dryRunOf(request);
      const answer = await deleteForm(ctx, request.site, request.params.name, dryRun);
      return ok({ site_id: request.site.id, ...answer, ...dryRunFields(dryRun) });
    },
  );
  submissionRoutes(scope, ctx);
}

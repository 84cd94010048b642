// `POST /_forms/<name>` on a site's host (docs/forms.md, "Submitting"): a visitor's submission of
// one of the site's forms, checked and kept by forms/submit-service.ts, and answered here as its
// caller reads it. A browser is sent on (303 to the form's redirect) or shown the page the form
// was on again, with each error by its field and its input kept (422, never cached); a JSON caller
// (`Accept: application/json`, or a JSON body) gets 201 with the submission, or the error
// envelope with each error by its field. The body is read to FORM_BODY_LIMIT, no further; every
// submission also counts against the public limit, as every request to a site does (app.ts).
// This module also makes the forms' signing key that public pages' time tokens are made with.
import { Type } from "@sinclair/typebox";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ok } from "../http/ok.ts";
import { ServiceError } from "../errors.ts";
import { fail, fromServiceError, HttpError } from "../http/errors.ts";
import { submitForm, type SubmitOutcome } from "../forms/submit-service.ts";
import { redirectAfter } from "../forms/sent-from.ts";
import { FormKeys } from "../forms/token.ts";
import { formViewIn } from "../forms/view.ts";
import { escapeText, formHtml, reprintForm, type FormState } from "../markup/index.ts";
import { hostOf } from "../site/addresses.ts";
import type { ServiceContext } from "../write/context.ts";
import { HTML } from "./answers.ts";
import type { PublicSite } from "./public-site.ts";
import { tooManyPublic, type PublicGate } from "./routes.ts";
import { FORM_BODY_LIMIT, multipart, submittedBody, urlEncoded } from "./form-body.ts";

export const FORM_ROUTE = "/_forms/:name";

type Invalid = Extract<SubmitOutcome, { kind: "invalid" }>;

/** Whether the caller reads JSON: it asks for it, or sent JSON. */
function readsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? "";
  return accept.includes("application/json") || (request.headers["content-type"] ?? "").includes("json");
}

/**
 * The refused submission's state as the form prints it: the first error of each field (one about a
 * name the form does not declare, a file part's, is the submission's as a whole), and what was typed.
 */
function stateOf(outcome: Invalid): FormState {
  const declared = new Set(outcome.form.fields.map((field) => field.name));
  const errors: Record<string, string> = {};
  for (const error of outcome.errors) errors[declared.has(error.field) ? error.field : ""] ??= error.message;
  return { errors, values: outcome.input };
}

/** A page of the form alone, for a refused submission whose page is gone or no longer prints it. */
function formPage(lang: string | null, title: string, form: string): string {
  return `<!DOCTYPE html>\n<html lang="${escapeText(lang ?? "en")}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeText(title)}</title></head><body><main><h1>${escapeText(title)}</h1>${form}</main></body></html>\n`;
}

/** What a browser is shown when its submission cannot be taken at all (a full quota): not JSON. */
const NOT_TAKEN_PAGE =
  '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Not sent</title></head><body><main><h1>Not sent</h1><p>This form cannot take your message right now. Please try again later.</p></main></body></html>\n';

export function formSubmitRoutes(app: FastifyInstance, site: PublicSite, gate: PublicGate, ctx: ServiceContext): void {
  // The forms' time tokens (forms/token.ts): the key is read before the first answer.
  const keys = new FormKeys(gate.db);
  site.formKeys = keys;
  app.addHook("onReady", async () => {
    await keys.load();
  });

  /** The page the form was sent from, shown again with the refused submission in its form. */
  async function pageAgain(host: string, siteId: number, outcome: Invalid): Promise<string> {
    const { form, from } = outcome;
    const view = await formViewIn(gate.db, siteId, form, from.lang);
    const token = keys.issue(siteId, from.pageId, ctx.clock()) ?? "";
    const state = stateOf(outcome);
    if (from.address !== null) {
      const page = await site.answer(host, from.address, undefined);
      const printed = page.status === 200 ? reprintForm(page.body.toString(), view, state, token) : null;
      if (printed !== null) return printed;
    }
    return formPage(from.lang, view.invalid, formHtml(view, state, token));
  }

  async function answer(request: FastifyRequest, reply: FastifyReply, siteId: number, outcome: SubmitOutcome) {
    const json = readsJson(request);
    if (outcome.kind === "limited") {
      const wait = String(outcome.retryAfterSeconds);
      if (json)
        throw fail("form_rate_limited", { retry_after: outcome.retryAfterSeconds }, undefined, { "Retry-After": wait });
      const refused = tooManyPublic(outcome.retryAfterSeconds);
      return reply.code(refused.status).headers(refused.headers).send(refused.body);
    }
    if (outcome.kind === "invalid") {
      if (json) throw fail("form_invalid", { errors: outcome.errors });
      const html = await pageAgain(hostOf(request.headers.host), siteId, outcome);
      return reply.code(422).type(HTML).send(html);
    }
    if (json) return reply.code(201).send(ok({ ...outcome.submission }));
    return reply.redirect(await redirectAfter(gate.db, siteId, outcome.form.redirect, outcome.from), 303);
  }

  /**
   * A refusal as a browser is shown it, never a JSON envelope: for a form this host does not take
   * (none of that name, inactive, another site's) the site's own 404 page, as for any address it
   * does not serve; otherwise (a full quota) a short page, with the refusal's status.
   */
  async function browserRefusal(reply: FastifyReply, host: string, url: string, error: ServiceError | HttpError) {
    const status = error instanceof HttpError ? error.status : fromServiceError(error).status;
    if (error.code === "form_not_found") {
      const page = await site.answer(host, url, undefined);
      if (page.status === 404)
        return reply.code(404).headers(page.headers).header("cache-control", "no-store").send(page.body);
    }
    return reply.code(status).type(HTML).send(NOT_TAKEN_PAGE);
  }

  app.register(async (scope) => {
    // A browser's form bodies, read in this route's scope only.
    scope.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_request, text, done) =>
      done(null, urlEncoded(text as string)),
    );
    scope.addContentTypeParser("multipart/form-data", { parseAs: "buffer" }, (request, bytes, done) => {
      multipart(request.headers, bytes as Buffer).then((body) => done(null, body), done);
    });
    scope.post(
      FORM_ROUTE,
      {
        bodyLimit: FORM_BODY_LIMIT,
        schema: { hide: true, body: Type.Unknown({ description: "the form's fields" }) },
      },
      async (request, reply) => {
        const { name } = request.params as { name: string };
        // No answer of a submission is kept by any cache: each is one visitor's.
        reply.header("cache-control", "no-store");
        const host = hostOf(request.headers.host);
        try {
          const matched = await site.directory.match(host);
          if (!matched) throw fail("form_not_found", { name });
          const siteId = matched.site.id;
          const outcome = await submitForm(
            ctx,
            keys,
            (address, form) => gate.limits.consumeFormSubmission(address, form),
            {
              siteId,
              name,
              body: submittedBody(request.body),
              address: request.ip,
              userAgent: request.headers["user-agent"] ?? "",
            },
          );
          return await answer(request, reply, siteId, outcome);
        } catch (error) {
          if (readsJson(request) || !(error instanceof ServiceError || error instanceof HttpError)) throw error;
          return browserRefusal(reply, host, request.url, error);
        }
      },
    );
  });
}

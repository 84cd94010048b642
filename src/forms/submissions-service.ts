// The submissions API (docs/forms.md, "Submissions"): a form's submissions paged, one by its id,
// and a delete. A delete is a write through the pipeline: it frees the submission's place of quota
// `form_submissions` in its transaction, and its event (`form_submission.deleted`, the form's name
// as the object's slug) records who erased a visitor's data and when. A submission of another
// form or site is not found, as anything foreign.
import { fail } from "../errors.ts";
import type { SiteRow } from "../site/sites.ts";
import type { ListWindow } from "../store/lists.ts";
import type { ServiceContext } from "../write/context.ts";
import { runWrite } from "../write/pipeline.ts";
import type { StoredForm } from "./queries.ts";
import { formNamed } from "./service.ts";
import { allSubmissions, listSubmissions, readSubmission, type Submission } from "./submissions-queries.ts";

/** A submission's id as a path gives it: digits, else no such submission. */
function submissionIdFrom(form: string, text: string): number {
  const id = /^[1-9]\d{0,15}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(id)) throw fail("form_submission_not_found", { form, id: text });
  return id;
}

export async function submissionsOf(
  ctx: Pick<ServiceContext, "db">,
  site: SiteRow,
  rawName: string,
  window: ListWindow,
): Promise<{ form: StoredForm; total: number; submissions: Submission[] }> {
  const form = await formNamed(ctx, site, rawName);
  return { form, ...(await listSubmissions(ctx.db, site.id, form.name, window)) };
}

/** The form, and every one of its submissions a slice at a time (the form is checked before the first is read). */
export async function everySubmissionOf(
  ctx: Pick<ServiceContext, "db">,
  site: SiteRow,
  rawName: string,
): Promise<{ form: StoredForm; slices: AsyncGenerator<Submission[]> }> {
  const form = await formNamed(ctx, site, rawName);
  return { form, slices: allSubmissions(ctx.db, site.id, form.name) };
}

export async function submissionNamed(
  ctx: Pick<ServiceContext, "db">,
  site: SiteRow,
  rawName: string,
  idText: string,
): Promise<Submission> {
  const form = await formNamed(ctx, site, rawName);
  const id = submissionIdFrom(form.name, idText);
  const found = await readSubmission(ctx.db, site.id, form.name, id);
  if (!found) throw fail("form_submission_not_found", { form: form.name, id });
  return found;
}

export async function deleteSubmission(
  ctx: ServiceContext,
  site: SiteRow,
  rawName: string,
  idText: string,
  options: { dryRun?: boolean } = {},
): Promise<{ deleted: Submission; dry_run?: true; applied?: false }> {
  const form = await formNamed(ctx, site, rawName);
  const id = submissionIdFrom(form.name, idText);
  const { value } = await runWrite(ctx, {
    siteId: site.id,
    dryRun: options.dryRun === true,
    apply: async (trx) => {
      const found = await readSubmission(trx, site.id, form.name, id);
      const gone = await trx
        .deleteFrom("form_submissions")
        .where("site_id", "=", site.id)
        .where("form", "=", form.name)
        .where("id", "=", id)
        .executeTakeFirst();
      // Counted by what was deleted: a delete racing this one frees the place once.
      if (!found || Number(gone.numDeletedRows) === 0) throw fail("form_submission_not_found", { form: form.name, id });
      return {
        value: found,
        wrote: [{ kind: "form_submission", id: String(id), slug: form.name, action: "deleted" }],
        room: { form_submissions: -1 },
      };
    },
  });
  return options.dryRun ? { deleted: value, dry_run: true, applied: false } : { deleted: value };
}

// The forms API (docs/forms.md): POST /forms, GET /forms, GET/PATCH/DELETE /forms/{name}. Every
// write runs through the write pipeline and announces a `form` change, so the pages printing the
// form (`svc/form`, source `form.<name>`) are published again; deleting a form deletes its
// submissions and the e-mails still owed for it.
import { gmt } from "../clock.ts";
import { fail } from "../errors.ts";
import { resolvePageRef } from "../menus/resolve.ts";
import { languageState } from "../site/languages.ts";
import type { SiteRow } from "../site/sites.ts";
import type { Rebaked } from "../write/change.ts";
import type { ServiceContext } from "../write/context.ts";
import { runWrite } from "../write/pipeline.ts";
import { fieldsFrom, formNameFrom, notifyFrom, redirectFrom, type FormSpec } from "./input.ts";
import { formCounts, formOf, formRow, listForms, readForm, type FormCounts, type StoredForm } from "./queries.ts";

export interface FormInput {
  name?: unknown;
  fields?: unknown;
  redirect?: unknown;
  notify?: unknown;
  store?: boolean;
  active?: boolean;
}

export interface FormWriteAnswer {
  form: StoredForm;
  rebaked: Rebaked;
}

/** A page reference is kept as the page's id (it follows the page when it moves); a path as written. */
async function redirectStored(ctx: Pick<ServiceContext, "db">, siteId: number, raw: unknown): Promise<string | null> {
  const redirect = redirectFrom(raw);
  if (redirect === null) return null;
  if (typeof redirect === "string" && redirect.startsWith("/")) return redirect;
  const found = await resolvePageRef(ctx.db, siteId, redirect, null, await languageState(ctx.db, siteId));
  if (!("found" in found)) throw fail("bad_form_redirect", { field: "redirect", value: raw });
  return String(found.found.id);
}

export async function formsOf(ctx: Pick<ServiceContext, "db">, site: SiteRow): Promise<StoredForm[]> {
  return listForms(ctx.db, site.id);
}

export async function formNamed(ctx: Pick<ServiceContext, "db">, site: SiteRow, rawName: string): Promise<StoredForm> {
  const name = formNameFrom(rawName);
  const form = await readForm(ctx.db, site.id, name);
  if (!form) throw fail("form_not_found", { name });
  return form;
}

/** GET /forms/{name}: the form, with its counts of submissions kept and of bots' refused. */
export async function formWithCounts(
  ctx: Pick<ServiceContext, "db">,
  site: SiteRow,
  rawName: string,
): Promise<{ form: StoredForm; counts: FormCounts }> {
  const form = await formNamed(ctx, site, rawName);
  return { form, counts: await formCounts(ctx.db, site.id, form.name) };
}

function rowValues(spec: FormSpec) {
  return {
    fields_json: JSON.stringify(spec.fields),
    redirect: spec.redirect,
    notify_json: JSON.stringify(spec.notify),
    store: spec.store ? 1 : 0,
    active: spec.active ? 1 : 0,
  };
}

export async function createForm(ctx: ServiceContext, site: SiteRow, input: FormInput): Promise<FormWriteAnswer> {
  const name = formNameFrom(input.name);
  const spec: FormSpec = {
    fields: fieldsFrom(input.fields),
    redirect: await redirectStored(ctx, site.id, input.redirect),
    notify: notifyFrom(input.notify),
    store: input.store ?? true,
    active: input.active ?? true,
  };
  const now = gmt(ctx.clock());
  const { value, rebaked } = await runWrite(ctx, {
    siteId: site.id,
    apply: async (trx) => {
      if (await formRow(trx, site.id, name)) throw fail("form_exists", { name });
      await trx
        .insertInto("forms")
        .values({ site_id: site.id, name, ...rowValues(spec), created_at_gmt: now, updated_at_gmt: now })
        .execute();
      return {
        value: formOf((await formRow(trx, site.id, name))!),
        wrote: [{ kind: "form", id: name, action: "created" }],
        changes: [{ kind: "form", name }],
      };
    },
    taken: async () => fail("form_exists", { name }),
  });
  return { form: value, rebaked };
}

export async function patchForm(
  ctx: ServiceContext,
  site: SiteRow,
  rawName: string,
  input: FormInput,
): Promise<FormWriteAnswer> {
  const before = await formNamed(ctx, site, rawName);
  const spec: FormSpec = {
    fields: input.fields === undefined ? before.fields : fieldsFrom(input.fields),
    redirect: input.redirect === undefined ? before.redirect : await redirectStored(ctx, site.id, input.redirect),
    notify: input.notify === undefined ? before.notify : notifyFrom(input.notify),
    store: input.store ?? before.store,
    active: input.active ?? before.active,
  };
  const fields = (Object.keys(spec) as Array<keyof FormSpec>).filter((key) => input[key] !== undefined);
  const now = gmt(ctx.clock());
  const { value, rebaked } = await runWrite(ctx, {
    siteId: site.id,
    apply: async (trx) => {
      const done = await trx
        .updateTable("forms")
        .set({ ...rowValues(spec), updated_at_gmt: now })
        .where("site_id", "=", site.id)
        .where("name", "=", before.name)
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) === 0) throw fail("form_not_found", { name: before.name });
      return {
        value: formOf((await formRow(trx, site.id, before.name))!),
        wrote: [{ kind: "form", id: before.name, action: "updated", fields }],
        changes: [{ kind: "form", name: before.name }],
      };
    },
  });
  return { form: value, rebaked };
}

/**
 * DELETE /forms/{name}: the form, its submissions (freeing their places) and the e-mails owed for it.
 * `dryRun`: the same answer, and nothing goes.
 */
export async function deleteForm(
  ctx: ServiceContext,
  site: SiteRow,
  rawName: string,
  dryRun = false,
): Promise<{ deleted: { name: string; submissions: number }; rebaked: Rebaked }> {
  const name = formNameFrom(rawName);
  const { value, rebaked } = await runWrite(ctx, {
    siteId: site.id,
    dryRun,
    apply: async (trx) => {
      const gone = await trx
        .deleteFrom("forms")
        .where("site_id", "=", site.id)
        .where("name", "=", name)
        .executeTakeFirst();
      if (Number(gone.numDeletedRows) === 0) throw fail("form_not_found", { name });
      const submissions = Number(
        (
          await trx
            .deleteFrom("form_submissions")
            .where("site_id", "=", site.id)
            .where("form", "=", name)
            .executeTakeFirst()
        ).numDeletedRows,
      );
      await trx.deleteFrom("form_notifications").where("site_id", "=", site.id).where("form", "=", name).execute();
      return {
        value: submissions,
        wrote: [{ kind: "form", id: name, action: "deleted" }],
        changes: [{ kind: "form", name }],
        room: { form_submissions: -submissions },
      };
    },
  });
  return { deleted: { name, submissions: value }, rebaked };
}

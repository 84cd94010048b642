// forms/<name>.json: a declared form — fields, redirect, notify, store, active — without its
// submissions (docs/forms.md). A redirect to a page is named by the page's reference.
import { createForm, deleteForm, patchForm } from "../../forms/service.ts";
import { listForms, readForm } from "../../forms/queries.ts";
import { memoryEntry } from "../archive-write.ts";
import { jsonEntry } from "../format.ts";
import { refOrId } from "../page-names.ts";
import { isRecord, jsonOf, stemIn, type BundleKind } from "./kind.ts";

export const forms: BundleKind = {
  kind: "forms",
  async read({ ctx, site, pages }) {
    return (await listForms(ctx.db, site.id)).map((form) => {
      const redirect =
        form.redirect !== null && /^\d+$/.test(form.redirect) ? refOrId(pages, Number(form.redirect)) : form.redirect;
      const file = { fields: form.fields, redirect, notify: form.notify, store: form.store, active: form.active };
      return { name: form.name, entry: memoryEntry(`forms/${form.name}.json`, jsonEntry(file)) };
    });
  },
  nameOf: (path) => stemIn(path, "forms", ".json"),
  async put({ ctx, site }, name, bytes) {
    const file = jsonOf(bytes);
    if (!isRecord(file)) throw new Error("a form entry is a JSON object");
    const input = {
      fields: file.fields,
      redirect: file.redirect,
      notify: file.notify,
      store: file.store === true,
      active: file.active === true,
    };
    if (await readForm(ctx.db, site.id, name)) await patchForm(ctx, site, name, input);
    else await createForm(ctx, site, { name, ...input });
  },
  async remove({ ctx, site }, name) {
    await deleteForm(ctx, site, name);
  },
};

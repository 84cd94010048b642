// A form as `svc/form` prints it (markup/form-html.ts): labels in the page's language (the
// label's text for it, else the default language's, else the first given, else the name), the
// submit button's text (`t.form.submit`, else "Send").
import { SUBMIT_KEY, type FormView } from "../markup/index.ts";
import { languageState } from "../site/languages.ts";
import type { Db } from "../store/database.ts";
import { stringTexts } from "../strings/queries.ts";
import type { Label } from "./input.ts";
import { listForms, type StoredForm } from "./queries.ts";

export const DEFAULT_SUBMIT = "Send";
const DEFAULT_INVALID = "Please correct the fields marked below.";
/** The line above a refused submission's form (docs/forms.md, "Texts"). */
const INVALID_KEY = "form.invalid";

export function labelIn(label: Label, name: string, lang: string | null): string {
  if (typeof label === "string") return label;
  return (lang !== null ? label[lang] : undefined) ?? label[""] ?? Object.values(label)[0] ?? name;
}

export function formView(
  form: StoredForm,
  lang: string | null,
  submit: string | undefined,
  invalid?: string,
): FormView {
  return {
    name: form.name,
    action: `/_forms/${form.name}`,
    fields: form.fields.map((field) => ({
      name: field.name,
      label: labelIn(field.label, field.name, lang),
      type: field.type,
      required: field.required,
      max_length: field.max_length,
      ...(field.options ? { options: field.options } : {}),
    })),
    submit: submit && submit.trim() !== "" ? submit : DEFAULT_SUBMIT,
    invalid: invalid && invalid.trim() !== "" ? invalid : DEFAULT_INVALID,
  };
}

/** The forms of these names a site has, as svc/form prints them in `lang`. */
export async function formViews(
  db: Db,
  siteId: number,
  names: readonly string[],
  lang: string | null,
  submit: string | undefined,
): Promise<Array<[string, FormView]>> {
  const wanted = new Set(names);
  return (await listForms(db, siteId))
    .filter((form) => wanted.has(form.name))
    .map((form) => [form.name, formView(form, lang, submit)]);
}

/** The site's strings of these keys in `lang`, else its default language's, else its texts without a language. */
export async function textsIn(
  db: Db,
  siteId: number,
  lang: string | null,
  keys: readonly string[],
): Promise<Map<string, string>> {
  const fallback = (await languageState(db, siteId)).defaultLang;
  return stringTexts(db, siteId, keys, lang, fallback);
}

/** One form as svc/form prints it in `lang`, its submit text and error line read (a refused submission's page, printed again). */
export async function formViewIn(db: Db, siteId: number, form: StoredForm, lang: string | null): Promise<FormView> {
  const texts = await textsIn(db, siteId, lang, [SUBMIT_KEY, INVALID_KEY]);
  return formView(form, lang, texts.get(SUBMIT_KEY), texts.get(INVALID_KEY));
}

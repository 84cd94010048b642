// What `svc/form` prints (docs/forms.md): a form posting to `/_forms/<name>`, its fields labelled
// in the declared order, each with its id, name, type, `required` and `autocomplete`; a honeypot
// field hidden from people and from assistive technology (`hidden`: not shown, not in the
// accessibility tree, not reached by Tab); the time token, printed as a placeholder that every
// answer of the page fills (public/), so a static copy or a cached render still takes
// submissions; the submit button. `novalidate`: the service checks every field and answers
// each error by its field, in every browser alike (Contact Form 7 does the same).
// Printed again with the errors and the visitor's input when a submission is refused: the page the
// form was sent from with the form reprinted in place (`reprintForm`), by this same function.
import { escapeAttr, escapeText } from "./escape.ts";
import type { FormView, FormViewField } from "./types.ts";

/** Filled with a signed time token by each answer of the page (forms/token.ts). */
export const FORM_TOKEN_PLACEHOLDER = "__svc_form_token__";
export const TOKEN_FIELD = "_svc_token";
export const HONEYPOT_FIELD = "_svc_website";

/** A refused submission printed again: each error by field name ("": the submission as a whole), and what the visitor sent. */
export interface FormState {
  errors: Record<string, string>;
  values: Record<string, string>;
}

const AUTOCOMPLETE: Record<string, string> = {
  name: "name",
  full_name: "name",
  first_name: "given-name",
  last_name: "family-name",
  company: "organization",
  organization: "organization",
  email: "email",
  phone: "tel",
  tel: "tel",
  url: "url",
  website: "url",
  address: "street-address",
  city: "address-level2",
  zip: "postal-code",
  postcode: "postal-code",
  country: "country-name",
};

/** The `autocomplete` of a field: what its name or type says, else off for a message, else on. */
function autocompleteOf(field: FormViewField): string {
  const named = AUTOCOMPLETE[field.name.toLowerCase()];
  if (named) return named;
  if (field.type === "email" || field.type === "tel" || field.type === "url") return field.type;
  return field.type === "textarea" ? "off" : "on";
}

function control(field: FormViewField, attrs: string, value: string): string {
  if (field.type === "textarea") return `<textarea ${attrs}>${escapeText(value)}</textarea>`;
  if (field.type === "select") {
    const options = (field.options ?? [])
      .map((o) => `<option value="${escapeAttr(o)}"${o === value ? " selected" : ""}>${escapeText(o)}</option>`)
      .join("");
    return `<select ${attrs}><option value=""></option>${options}</select>`;
  }
  if (field.type === "checkbox") return `<input type="checkbox" ${attrs} value="on"${value !== "" ? " checked" : ""}>`;
  return `<input type="${field.type}" ${attrs} value="${escapeAttr(value)}">`;
}

function fieldHtml(form: FormView, field: FormViewField, state: FormState | null): string {
  const id = `svc-form-${form.name}-${field.name}`;
  const value = state?.values[field.name] ?? "";
  if (field.type === "hidden")
    return `<input type="hidden" id="${escapeAttr(id)}" name="${escapeAttr(field.name)}" value="${escapeAttr(value)}">`;
  const error = state?.errors[field.name];
  let attrs = `id="${escapeAttr(id)}" name="${escapeAttr(field.name)}" autocomplete="${autocompleteOf(field)}"`;
  if (field.required) attrs += " required";
  if (field.max_length !== null && field.type !== "select" && field.type !== "checkbox")
    attrs += ` maxlength="${field.max_length}"`;
  if (error) attrs += ` aria-invalid="true" aria-describedby="${escapeAttr(id)}-error"`;
  const label = `<label for="${escapeAttr(id)}">${escapeText(field.label)}</label>`;
  const input = control(field, attrs, value);
  const message = error ? `<span class="svc-form-error" id="${escapeAttr(id)}-error">${escapeText(error)}</span>` : "";
  const inner = field.type === "checkbox" ? `${input} ${label}${message}` : `${label}${input}${message}`;
  return `<p class="svc-form-field">${inner}</p>`;
}

/** The form; `state` when it is printed again with a refused submission's errors and input. */
export function formHtml(form: FormView, state: FormState | null = null, token = FORM_TOKEN_PLACEHOLDER): string {
  const fields = form.fields.map((field) => fieldHtml(form, field, state)).join("");
  const honeypot = `<p hidden><label for="svc-form-${escapeAttr(form.name)}-hp">Leave this empty</label><input type="text" id="svc-form-${escapeAttr(form.name)}-hp" name="${HONEYPOT_FIELD}" tabindex="-1" autocomplete="off" value=""></p>`;
  // An error of the submission as a whole (field "") is told after the summary's line.
  const whole = state?.errors[""] ? ` ${escapeText(state.errors[""])}` : "";
  const summary =
    state && Object.keys(state.errors).length > 0
      ? `<p class="svc-form-errors" role="alert">${escapeText(form.invalid)}${whole}</p>`
      : "";
  return `<form class="svc-form" data-svc-form="${escapeAttr(form.name)}" method="post" action="${escapeAttr(form.action)}" novalidate>${summary}<input type="hidden" name="${TOKEN_FIELD}" value="${escapeAttr(token)}">${fields}${honeypot}<button type="submit">${escapeText(form.submit)}</button></form>`;
}

/** Where the form named `name` stands in a page as formHtml printed it: its start and its end (past `</form>`). */
function printedAt(html: string, name: string): { start: number; end: number } | null {
  const start = html.indexOf(`<form class="svc-form" data-svc-form="${escapeAttr(name)}"`);
  if (start < 0) return null;
  // Every text inside is escaped, so the form's own `</form>` is the first one after its start.
  const close = html.indexOf("</form>", start);
  return close < 0 ? null : { start, end: close + "</form>".length };
}

/**
 * The page `html` with the form printed in it replaced by the form printed with `state` and a fresh
 * token; null when the page does not print that form.
 */
export function reprintForm(html: string, form: FormView, state: FormState, token: string): string | null {
  const at = printedAt(html, form.name);
  if (at === null) return null;
  return `${html.slice(0, at.start)}${formHtml(form, state, token)}${html.slice(at.end)}`;
}

// A form as written (docs/forms.md): its name, its fields, where a visitor goes after sending it,
// who is told, whether submissions are kept. The route schema checks the shape; the rules a schema
// cannot state (unique field names, a select's options, a usable redirect) are checked here, so a
// restore or a CLI push is refused the same way.
import { fail } from "../errors.ts";

export const FIELD_TYPES = [
  "text",
  "textarea",
  "email",
  "tel",
  "url",
  "number",
  "checkbox",
  "select",
  "hidden",
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** A label: one text, or texts by language code. */
export type Label = string | Record<string, string>;

export interface FormField {
  name: string;
  label: Label;
  type: FieldType;
  required: boolean;
  /** The longest value taken, in characters (null: up to the 10 KB every field is held to). */
  max_length: number | null;
  /** select: the values offered, in order. */
  options?: string[];
}

export interface FormSpec {
  fields: FormField[];
  redirect: string | null;
  notify: string[];
  store: boolean;
  active: boolean;
}

/** The most fields a form declares: a visitor's submission is held to as many. */
export const MAX_FIELDS = 20;
/** The longest value a field takes, in bytes, whatever its max_length. */
export const MAX_FIELD_BYTES = 10 * 1024;

const NAME = /^[a-z0-9][a-z0-9_-]*$/;
const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
/** The honeypot's and time token's names: no declared field may take them. */
export const RESERVED_FIELDS = new Set(["_svc_token", "_svc_website", "_svc_page", "_svc_lang"]);
// A simple address check, as browsers' own type=email does (HTML's "valid e-mail address").
export const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** Whether `raw` is a name a form may have. */
export function isFormName(raw: unknown): raw is string {
  return typeof raw === "string" && raw.length <= 64 && NAME.test(raw);
}

export function formNameFrom(raw: unknown): string {
  if (!isFormName(raw)) throw fail("invalid_form_name", { name: raw });
  return raw;
}

function bad(at: number, reason: string): never {
  throw fail("bad_form_fields", { field: `fields[${at}]`, reason });
}

function labelFrom(raw: unknown, name: string, at: number): Label {
  if (raw === undefined || raw === null) return name;
  if (typeof raw === "string") return raw.trim() === "" ? name : raw;
  if (typeof raw === "object" && !Array.isArray(raw)) {
    const texts = Object.entries(raw as Record<string, unknown>);
    if (texts.length > 0 && texts.every(([, text]) => typeof text === "string"))
      return Object.fromEntries(texts) as Record<string, string>;
  }
  return bad(at, "label is a text or an object of texts by language code");
}

function fieldFrom(raw: unknown, at: number): FormField {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) bad(at, "a field is an object");
  const f = raw as Record<string, unknown>;
  if (typeof f.name !== "string" || !FIELD_NAME.test(f.name) || RESERVED_FIELDS.has(f.name))
    bad(at, "name is a letter then letters, digits, _ or - (at most 64)");
  const type = f.type ?? "text";
  if (!FIELD_TYPES.includes(type as FieldType)) bad(at, `type is one of ${FIELD_TYPES.join(", ")}`);
  const max = f.max_length ?? null;
  if (max !== null && !(Number.isSafeInteger(max) && (max as number) >= 1 && (max as number) <= MAX_FIELD_BYTES))
    bad(at, `max_length is a whole number from 1 to ${MAX_FIELD_BYTES}`);
  const field: FormField = {
    name: f.name as string,
    label: labelFrom(f.label, f.name as string, at),
    type: type as FieldType,
    required: f.required === true,
    max_length: max as number | null,
  };
  if (field.type === "select") {
    const options = f.options;
    if (!Array.isArray(options) || options.length === 0 || !options.every((o) => typeof o === "string" && o !== ""))
      bad(at, "a select needs options: a list of texts");
    field.options = [...new Set(options as string[])];
  } else if (f.options !== undefined && f.options !== null) bad(at, "only a select has options");
  return field;
}

export function fieldsFrom(raw: unknown): FormField[] {
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_FIELDS)
    throw fail("bad_form_fields", { field: "fields", reason: `a list of 1 to ${MAX_FIELDS} fields` });
  const fields = raw.map(fieldFrom);
  const seen = new Set<string>();
  fields.forEach((field, at) => {
    if (seen.has(field.name)) bad(at, `the name ${field.name} is taken by an earlier field`);
    seen.add(field.name);
  });
  return fields;
}

export function notifyFrom(raw: unknown): string[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw) || raw.length > 20 || !raw.every((a) => typeof a === "string" && EMAIL.test(a)))
    throw fail("bad_form_notify", { field: "notify" });
  return [...new Set(raw as string[])];
}

/** The redirect as written: a path (from /, no scheme or host), a page reference, or null. */
export function redirectFrom(raw: unknown): string | number | null {
  if (raw === undefined || raw === null || raw === "") return null;
  if (typeof raw === "number" && Number.isSafeInteger(raw) && raw > 0) return raw;
  if (typeof raw !== "string" || raw.length > 2000 || raw.startsWith("//") || /[\s\\]/.test(raw))
    throw fail("bad_form_redirect", { field: "redirect", value: raw });
  return raw;
}

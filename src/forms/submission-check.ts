// What a visitor sent, checked against the form's declared fields (docs/forms.md, "Submitting"):
// at most MAX_FIELDS names sent, no file, each declared field within its size, present when
// required and of its type (an e-mail address, a web address, a number, a ticked box, one of the
// select's options); names the form does not declare are dropped. Pure: the same answer for a
// browser's form, a multipart body and a JSON caller.
import { EMAIL, MAX_FIELD_BYTES, MAX_FIELDS, RESERVED_FIELDS, type FormField } from "./input.ts";

/** A submission's body as sent: each name with its values in order, and the names of any file parts. */
export interface SubmittedBody {
  values: Record<string, string[]>;
  files: string[];
}

/** One refusal, by the field it is about ("": the submission as a whole). */
export interface FieldError {
  field: string;
  code: string;
  message: string;
}

export interface CheckedFields {
  /** The declared fields sent, by name, as text: what is kept (a ticked box is "on"). */
  fields: Record<string, string>;
  /** What the visitor typed in each declared field, to print the form again with it. */
  input: Record<string, string>;
  errors: FieldError[];
}

/**
 * The site's own texts for the refusals, by string key (`form.error.<code>`, docs/forms.md "Texts"),
 * in the submission's language; `{max}` in one is the limit it is about. Without one, English.
 */
export type ErrorTexts = ReadonlyMap<string, string>;

/** The string keys a refusal may be shown with. */
export const ERROR_TEXT_KEYS = [
  "required",
  "required_checkbox",
  "email",
  "url",
  "number",
  "option",
  "checkbox",
  "too_long",
  "too_large",
  "file",
  "too_many_fields",
].map((name) => `form.error.${name}`);

/** A refusal of `code`, told by the site's text `form.error.<text>` when it has one, else by `english`. */
function refusal(
  texts: ErrorTexts,
  code: string,
  english: string,
  text = code,
  max?: number,
): Omit<FieldError, "field"> {
  const own = texts.get(`form.error.${text}`)?.trim();
  const message = own ? (max === undefined ? own : own.replaceAll("{max}", String(max))) : english;
  return { code, message };
}

const NONE: ErrorTexts = new Map();

const TICKED = new Set(["on", "true", "1", "yes"]);
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

function isWebAddress(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
}

/** The refusal of a value of the field's type; null when it is one. */
function typeError(field: FormField, value: string, texts: ErrorTexts): Omit<FieldError, "field"> | null {
  switch (field.type) {
    case "email":
      return EMAIL.test(value) ? null : refusal(texts, "email", "Enter an e-mail address, like name@example.com.");
    case "url":
      return isWebAddress(value)
        ? null
        : refusal(texts, "url", "Enter a web address starting with http:// or https://.");
    case "number":
      return NUMBER.test(value) && Number.isFinite(Number(value)) ? null : refusal(texts, "number", "Enter a number.");
    case "select":
      return field.options?.includes(value) ? null : refusal(texts, "option", "Choose one of the options.");
    case "checkbox":
      return TICKED.has(value.toLowerCase()) ? null : refusal(texts, "checkbox", "Tick the box or leave it empty.");
    default:
      return null;
  }
}

/** The refusal of one declared field's value; null when it passes. `value` is what was sent, trimmed of nothing. */
function fieldError(field: FormField, value: string, texts: ErrorTexts): Omit<FieldError, "field"> | null {
  const kb = MAX_FIELD_BYTES / 1024;
  if (Buffer.byteLength(value, "utf8") > MAX_FIELD_BYTES)
    return refusal(texts, "too_long", `Use at most ${kb} KB.`, "too_large", kb);
  if (field.max_length !== null && [...value].length > field.max_length)
    return refusal(texts, "too_long", `Use at most ${field.max_length} characters.`, "too_long", field.max_length);
  const text = value.trim();
  if (text === "") {
    if (!field.required) return null;
    return field.type === "checkbox"
      ? refusal(texts, "required", "Tick this box.", "required_checkbox")
      : refusal(texts, "required", "Fill in this field.");
  }
  return typeError(field, text, texts);
}

/** What is kept of a value that passed: the text as typed, trimmed where the type has no use for spaces. */
function keptValue(field: FormField, value: string): string {
  if (field.type === "text" || field.type === "textarea" || field.type === "hidden") return value;
  return field.type === "checkbox" ? "on" : value.trim();
}

/** `texts`: the site's texts for the refusals in the submission's language (ERROR_TEXT_KEYS); English without. */
export function checkFields(
  declared: readonly FormField[],
  body: SubmittedBody,
  texts: ErrorTexts = NONE,
): CheckedFields {
  const errors: FieldError[] = [];
  const sent = Object.keys(body.values).filter((name) => !RESERVED_FIELDS.has(name));
  if (sent.length > MAX_FIELDS)
    errors.push({
      field: "",
      ...refusal(
        texts,
        "too_many_fields",
        `A submission has at most ${MAX_FIELDS} fields.`,
        "too_many_fields",
        MAX_FIELDS,
      ),
    });
  for (const name of body.files)
    errors.push({ field: name, ...refusal(texts, "file", "Files cannot be sent with this form.") });
  const fields: Record<string, string> = {};
  const input: Record<string, string> = {};
  for (const field of declared) {
    const value = body.values[field.name]?.[0] ?? "";
    input[field.name] = value;
    const error = fieldError(field, value, texts);
    if (error) errors.push({ field: field.name, ...error });
    else if (value.trim() !== "") fields[field.name] = keptValue(field, value);
  }
  return { fields, input, errors };
}

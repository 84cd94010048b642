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

const TICKED = new Set(["on", "true", "1", "yes"]);
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

function isWebAddress(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
}

/** The refusal of a value of the field's type; null when it is one. */
function typeError(field: FormField, value: string): Omit<FieldError, "field"> | null {
  switch (field.type) {
    case "email":
      return EMAIL.test(value) ? null : { code: "email", message: "Enter an e-mail address, like name@example.com." };
    case "url":
      return isWebAddress(value)
        ? null
        : { code: "url", message: "Enter a web address starting with http:// or https://." };
    case "number":
      return NUMBER.test(value) && Number.isFinite(Number(value))
        ? null
        : { code: "number", message: "Enter a number." };
    case "select":
      return field.options?.includes(value) ? null : { code: "option", message: "Choose one of the options." };
    case "checkbox":
      return TICKED.has(value.toLowerCase()) ? null : { code: "checkbox", message: "Tick the box or leave it empty." };
    default:
      return null;
  }
}

/** The refusal of one declared field's value; null when it passes. `value` is what was sent, trimmed of nothing. */
function fieldError(field: FormField, value: string): Omit<FieldError, "field"> | null {
  if (Buffer.byteLength(value, "utf8") > MAX_FIELD_BYTES)
    return { code: "too_long", message: `Use at most ${MAX_FIELD_BYTES / 1024} KB.` };
  if (field.max_length !== null && [...value].length > field.max_length)
    return { code: "too_long", message: `Use at most ${field.max_length} characters.` };
  const text = value.trim();
  if (text === "")
    return field.required
      ? { code: "required", message: field.type === "checkbox" ? "Tick this box." : "Fill in this field." }
      : null;
  return typeError(field, text);
}

/** What is kept of a value that passed: the text as typed, trimmed where the type has no use for spaces. */
function keptValue(field: FormField, value: string): string {
  if (field.type === "text" || field.type === "textarea" || field.type === "hidden") return value;
  return field.type === "checkbox" ? "on" : value.trim();
}

export function checkFields(declared: readonly FormField[], body: SubmittedBody): CheckedFields {
  const errors: FieldError[] = [];
  const sent = Object.keys(body.values).filter((name) => !RESERVED_FIELDS.has(name));
  if (sent.length > MAX_FIELDS)
    errors.push({ field: "", code: "too_many_fields", message: `A submission has at most ${MAX_FIELDS} fields.` });
  for (const name of body.files)
    errors.push({ field: name, code: "file", message: "Files cannot be sent with this form." });
  const fields: Record<string, string> = {};
  const input: Record<string, string> = {};
  for (const field of declared) {
    const value = body.values[field.name]?.[0] ?? "";
    input[field.name] = value;
    const error = fieldError(field, value);
    if (error) errors.push({ field: field.name, ...error });
    else if (value.trim() !== "") fields[field.name] = keptValue(field, value);
  }
  return { fields, input, errors };
}

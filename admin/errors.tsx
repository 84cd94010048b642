// Every refusal is shown with the API's message (which carries its guidance) by what it concerns
// (docs/admin.md): by its field when the answer names one (`field`), else in the screen's alert.
import { ApiError } from "../src/client/index.ts";
import type { Texts } from "./texts.ts";

export interface Shown {
  /** The field the refusal names, or null for the whole form. */
  field: string | null;
  message: string;
}

/** Refusals that concern a field without naming it in `field`. */
const FIELD_OF_CODE: Readonly<Record<string, string>> = {
  invalid_slug: "slug",
  slug_taken: "slug",
  frame_not_found: "frame",
  title_required: "title",
};

export function shownOf(error: unknown, texts: Texts): Shown {
  if (error instanceof ApiError) {
    const named = typeof error.details.field === "string" ? error.details.field : null;
    return { field: named ?? FIELD_OF_CODE[error.code] ?? null, message: error.message };
  }
  return { field: null, message: texts.failed };
}

/** The error of one field, for its `aria-describedby`; empty (and hidden) when it has none. */
export function FieldError(props: { id: string; field: string; shown: Shown | null }) {
  const message = props.shown?.field === props.field ? props.shown.message : "";
  return (
    <p id={props.id} class="field-error" hidden={message === ""}>
      {message}
    </p>
  );
}

/** What a form's alert shows: a refusal of no field of the form (`fields`), else nothing. */
export function alertOf(shown: Shown | null, fields: readonly string[]): string {
  if (shown === null) return "";
  return shown.field !== null && fields.includes(shown.field) ? "" : shown.message;
}

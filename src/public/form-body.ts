// The bodies a form submission arrives in (docs/forms.md, "Submitting"): a browser's form
// (`application/x-www-form-urlencoded`, read with URLSearchParams), a multipart form without files
// (busboy; a file part is named so the check refuses it), or a JSON object (the app's own JSON
// parser); the route (form-routes.ts) hands each its body. Each is read only up to FORM_BODY_LIMIT (the route's body limit, before any parsing)
// and made one shape: every name with its values in order, in an object without a prototype, so a
// field named `__proto__` or `constructor` is a field like any other.
import type { IncomingHttpHeaders } from "node:http";
import { fail } from "../errors.ts";
import { MAX_FIELD_BYTES } from "../forms/input.ts";
import type { SubmittedBody } from "../forms/submission-check.ts";

/** The largest submission read, all fields together. */
export const FORM_BODY_LIMIT = 64 * 1024;

/** A form's body as a parser made it (a JSON body arrives as the plain object it is). */
class FormBody implements SubmittedBody {
  readonly values: Record<string, string[]> = Object.create(null);
  readonly files: string[] = [];

  add(name: string, value: string): void {
    const values = this.values[name];
    if (values === undefined) this.values[name] = [value];
    else values.push(value);
  }
}

export function urlEncoded(text: string): SubmittedBody {
  const body = new FormBody();
  for (const [name, value] of new URLSearchParams(text)) body.add(name, value);
  return body;
}

function unreadable(error: unknown) {
  return fail(
    "invalid_body",
    { reason: "multipart" },
    `The multipart body cannot be read: ${error instanceof Error ? error.message : String(error)}; nothing was stored.`,
  );
}

export async function multipart(headers: IncomingHttpHeaders, bytes: Buffer): Promise<SubmittedBody> {
  const { default: busboy } = await import("busboy");
  const body = new FormBody();
  return new Promise((resolve, reject) => {
    let parser: ReturnType<typeof busboy>;
    try {
      // A value is cut one byte past the most a field takes, so the check sees it is too long.
      parser = busboy({ headers: headers as Record<string, string>, limits: { fieldSize: MAX_FIELD_BYTES + 1 } });
    } catch (error) {
      reject(unreadable(error));
      return;
    }
    parser.on("field", (name, value) => body.add(name, value));
    parser.on("file", (name, stream) => {
      body.files.push(name);
      stream.resume();
    });
    parser.on("close", () => resolve(body));
    parser.on("error", (error) => reject(unreadable(error)));
    parser.end(bytes);
  });
}

/** A JSON value as a form field's text: a ticked box `true`, an unticked one `false` (sent as nothing). */
function textOf(value: unknown): string | null {
  if (value === null || value === false || value === undefined) return null;
  if (value === true) return "on";
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : JSON.stringify(value);
}

/** The body of the route, whichever parser read it; a JSON body that is no object is refused. */
export function submittedBody(parsed: unknown): SubmittedBody {
  if (parsed instanceof FormBody) return parsed;
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw fail("invalid_body");
  const body = new FormBody();
  for (const [name, raw] of Object.entries(parsed)) {
    for (const value of Array.isArray(raw) ? raw : [raw]) {
      const text = textOf(value);
      if (text !== null) body.add(name, text);
    }
  }
  return body;
}

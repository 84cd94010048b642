// How a value the route schema refuses is answered (validation.ts checks; refusal.ts declares
// codes): the failure's code is the one declared on its schema or nearest ancestor, else 400
// invalid_field, with the field named by its path (`items.0.title`; under the declaration's
// `name`, `field` by default), where it was sent (`in`: body, querystring, params, headers) and,
// where the declaration asks, the value refused. A declaration that lists its failures answers all
// of them under the declaring value, each where it stands, in the order the value holds them.
import type { TSchema } from "@sinclair/typebox";
import { ValueErrorType, type ValueError } from "@sinclair/typebox/errors";
import { fail, type HttpError } from "./errors.ts";
import { declarationAt, type Declaration } from "./refusal.ts";

type Described = TSchema & {
  anyOf?: TSchema[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
};

function count(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? "" : "s"}`;
}

function integerRange(s: Described, noun: string): string {
  if (s.minimum !== undefined && s.maximum !== undefined && s.maximum < Number.MAX_SAFE_INTEGER)
    return `${noun} from ${s.minimum} to ${s.maximum}`;
  if (s.minimum !== undefined) return `${noun} of at least ${s.minimum}`;
  if (s.maximum !== undefined && s.maximum < Number.MAX_SAFE_INTEGER) return `${noun} of at most ${s.maximum}`;
  return noun;
}

function stringKind(s: Described): string {
  // A pattern is said in the schema's words where it has them ("a string of digits").
  if (s.pattern !== undefined) return s.description ?? `a string matching ${s.pattern}`;
  if (s.maxLength !== undefined) return `a string of at most ${count(s.maxLength, "character")}`;
  return s.minLength !== undefined && s.minLength > 0 ? "a non-empty string" : "a string";
}

/** What a schema accepts, in words: "a string", "an integer of at least 1, a string or null", … */
export function expected(schema: TSchema | undefined): string {
  if (!schema) return "a valid value";
  const kinds = [...new Set(kindsOf(schema as Described))];
  return kinds.length === 1 ? kinds[0] : `${kinds.slice(0, -1).join(", ")} or ${kinds.at(-1)}`;
}

/** Each kind of value a schema accepts, a union's variants flattened. */
function kindsOf(s: Described): string[] {
  if (Array.isArray(s.anyOf)) return s.anyOf.flatMap((variant) => kindsOf(variant as Described));
  return [kindOf(s)];
}

function kindOf(s: Described): string {
  if (s.const !== undefined) return JSON.stringify(s.const);
  switch (s.type) {
    case "string":
      return stringKind(s);
    case "integer":
      return integerRange(s, "an integer");
    case "number":
      return integerRange(s, "a number");
    case "boolean":
      return "true or false";
    case "null":
      return "null";
    case "array":
      return s.minItems ? `an array of at least ${count(s.minItems, "item")}` : "an array";
    case "object":
      return "an object";
    default:
      return "a valid value";
  }
}

/**
 * The failures a value answers, a union's made precise: where exactly one of its variants fits
 * the value's own shape and fails only below it (an object refused for one property, an array
 * for one item), that variant's failures stand for the union's, so `{page: -3}` as a menu item
 * fails at `page`, not at the item. Otherwise the union's own failure stands. A required property
 * that is missing is one failure, not also one of its type.
 */
export function* failuresOf(errors: Iterable<ValueError>): Generator<ValueError> {
  const missing = new Set<string>();
  for (const error of errors) {
    if (missing.has(error.path)) continue;
    if (error.type === ValueErrorType.ObjectRequiredProperty) missing.add(error.path);
    if (error.type !== ValueErrorType.Union) {
      yield error;
      continue;
    }
    const below = `${error.path}/`;
    const fitting = error.errors
      .map((variant) => [...failuresOf(variant)])
      .filter((failures) => failures.length > 0 && failures.every((f) => f.path.startsWith(below)));
    if (fitting.length === 1) yield* fitting[0];
    else yield error;
  }
}

/** A JSON pointer's segments (`/items/0/title` → items, 0, title). */
export function segmentsOf(pointer: string): string[] {
  return pointer === ""
    ? []
    : pointer
        .slice(1)
        .split("/")
        .map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"));
}

function messageOf(failure: ValueError, subject: string): string {
  return failure.type === ValueErrorType.ObjectRequiredProperty
    ? `${subject} is required: ${expected(failure.schema)}.`
    : `${subject} must be ${expected(failure.schema)}.`;
}

/**
 * How many failures a listing reads at most. Finding each costs some microseconds, and a body
 * may be 12 MiB (app.ts, BODY_LIMIT): a million bad items must not cost seconds. `total_errors`
 * counts up to this many.
 */
export const MAX_FAILURES_READ = 10_000;

/** Every failure answering the listing declaration's code, each where it stands. */
function listed(root: TSchema, first: Declaration, failures: Iterable<ValueError>) {
  const entries: Array<Record<string, string>> = [];
  let read = 0;
  for (const failure of failures) {
    if (++read > MAX_FAILURES_READ) break;
    const segments = segmentsOf(failure.path);
    const declared = read === 1 ? first : declarationAt(root, segments);
    if (declared?.code !== first.code || !declared.form.list) continue;
    const { where, subject } = declared.form.list.place(segments.slice(declared.depth));
    entries.push({ ...where, message: messageOf(failure, subject) });
  }
  const max = first.form.list!.max;
  return max === undefined ? { errors: entries } : { errors: entries.slice(0, max), total_errors: entries.length };
}

function* startingWith<T>(first: T, rest: Iterable<T>): Generator<T> {
  yield first;
  yield* rest;
}

/** The refusal of a value `root` does not accept; `part` is where it was sent (body, querystring, …). */
export function refusalOf(root: TSchema, errors: Iterable<ValueError>, part: string): HttpError {
  const failures = failuresOf(errors);
  const first = failures.next();
  if (first.done) return fail("invalid_field", { field: part, in: part }, `${part} is not valid.`);
  const failure = first.value;
  const segments = segmentsOf(failure.path);
  const declared = declarationAt(root, segments);
  if (declared?.form.list)
    return fail(declared.code, {
      ...declared.form.details,
      ...listed(root, declared, startingWith(failure, failures)),
    });
  const field = segments.join(".") || part;
  const form = declared?.form ?? {};
  const value = form.value === undefined ? {} : { [form.value]: failure.value ?? null };
  return fail(
    declared?.code ?? "invalid_field",
    { [form.name ?? "field"]: field, in: part, ...value, ...form.details },
    messageOf(failure, field),
  );
}

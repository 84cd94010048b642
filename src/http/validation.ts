// Route validation with TypeBox's own checker. Bodies are never coerced: a coercing validator
// turns a wrong type into a silently wrong value (null → "", true → 1, 5 → "5"); here it is
// refused, as 400 invalid_field naming the field or with the code the schema declares for it
// (refusal.ts; the answer is built by schema-failures.ts). Query strings, path parameters and
// headers arrive as text, so they are converted to the schema's types first (`?limit=5` → 5).
// The same schemas document every route in OpenAPI.
import type { FastifySchemaCompiler } from "fastify";
import type { TSchema } from "@sinclair/typebox";
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";
import { Value } from "@sinclair/typebox/value";
import { refusalOf } from "./schema-failures.ts";

/**
 * Compiles a schema at its first check, not when the route is registered: a start then compiles
 * none of the ~200 route schemas (about 36 ms of a ~220 ms cold start, bench/README.md), and a
 * route never called never pays. test/http/validation.test.ts compiles every registered schema,
 * so a schema TypeBox cannot compile still fails CI rather than a first request.
 */
function compiledOnFirstUse(schema: TSchema): () => TypeCheck<TSchema> {
  let checker: TypeCheck<TSchema> | undefined;
  return () => (checker ??= TypeCompiler.Compile(schema));
}

/**
 * The app's `validatorCompiler`: bodies are checked as sent; other parts converted, then checked.
 * A refusal is answered as an `HttpError`, which Fastify hands to the error handler unchanged.
 */
export const schemaValidator: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const root = schema as TSchema;
  const part = httpPart ?? "body";
  const checkerOf = compiledOnFirstUse(root);
  const checked = (value: unknown) => {
    const checker = checkerOf();
    return checker.Check(value) ? { value } : { error: refusalOf(root, checker.Errors(value), part) };
  };
  // No body at all reads as an empty object, so the route answers its own "field required" code.
  if (part === "body") return (data: unknown) => checked(data === undefined || data === null ? {} : data);
  // Text needs converting only where the schema wants something else; path parameters are
  // mostly text, and most calls send no query at all (Convert walks the schema on every call).
  const converts = !textOnly(root);
  return (data: unknown) => checked(converts && !isEmptyObject(data) ? Value.Convert(root, data) : data);
};

/** An object schema whose properties all take text as it arrives: nothing to convert. */
function textOnly(schema: TSchema): boolean {
  const properties = (schema as { properties?: Record<string, TSchema> }).properties;
  if (schema.type !== "object" || properties === undefined) return false;
  return Object.values(properties).every((property) => property.type === "string");
}

function isEmptyObject(data: unknown): boolean {
  if (data === null || typeof data !== "object") return false;
  for (const _ in data) return false;
  return true;
}

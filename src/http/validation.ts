// Route validation with TypeBox's own checker. Bodies are never coerced: a coercing validator
// turns a wrong type into a silently wrong value (null → "", true → 1, 5 → "5"); here it is
// refused as 400 invalid_field naming the field. Query strings, path parameters and headers
// arrive as text, so they are converted to the schema's types first (`?limit=5` → 5).
// The same schemas document every route in OpenAPI.
import type { FastifySchemaCompiler } from "fastify";
import type { TSchema } from "@sinclair/typebox";
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";
import { Value } from "@sinclair/typebox/value";

function expected(schema: TSchema | undefined): string {
  if (!schema) return "a valid value";
  if (typeof schema.description === "string" && schema.description.startsWith("expected: "))
    return schema.description.slice(10);
  const anyOf = (schema as { anyOf?: TSchema[] }).anyOf;
  if (Array.isArray(anyOf)) return anyOf.map(expected).join(" or ");
  switch (schema.type) {
    case "string":
      return "a string";
    case "integer":
      return "an integer";
    case "number":
      return "a number";
    case "boolean":
      return "true or false";
    case "null":
      return "null";
    case "array":
      return "an array";
    case "object":
      return "an object";
    default:
      return "a valid value";
  }
}

function refusal(checker: TypeCheck<TSchema>, data: unknown) {
  const first = checker.Errors(data).First();
  const path = first?.path ?? "";
  return {
    error: [
      {
        keyword: "type",
        instancePath: path,
        schemaPath: "",
        params: {},
        message: `must be ${expected(first?.schema)}`,
      },
    ] as never,
  };
}

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

/** The app's `validatorCompiler`: bodies are checked as sent; other parts converted, then checked. */
export const schemaValidator: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const checkerOf = compiledOnFirstUse(schema as TSchema);
  if (httpPart === "body") {
    // No body at all reads as an empty object, so the route answers its own "field required" code.
    return (data: unknown) => {
      const checker = checkerOf();
      const value = data === undefined || data === null ? {} : data;
      return checker.Check(value) ? { value } : refusal(checker, value);
    };
  }
  // Text needs converting only where the schema wants something else; path parameters are
  // mostly text, and most calls send no query at all (Convert walks the schema on every call).
  const converts = !textOnly(schema as TSchema);
  return (data: unknown) => {
    const checker = checkerOf();
    const value = converts && !isEmptyObject(data) ? Value.Convert(schema as TSchema, data) : data;
    return checker.Check(value) ? { value } : refusal(checker, value);
  };
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

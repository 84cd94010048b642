// The route validator's answers (http/validation.ts, schema-failures.ts) and the codes a schema
// declares for its failures (http/refusal.ts, `Refusing`), checked on the validator itself.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { TSchema } from "@sinclair/typebox";
import { HttpError } from "../../src/http/errors.ts";
import { REFUSAL } from "../../src/http/refusal.ts";
import { Obj, Opt, Refusing, Type } from "../../src/http/schema.ts";
import { schemaValidator } from "../../src/http/validation.ts";

/** What the validator answers for `data` sent as `part`: the value it lets through, or its refusal. */
function check(schema: TSchema, data: unknown, part = "body"): { value?: unknown; error?: HttpError } {
  const validate = schemaValidator({ schema, httpPart: part, method: "POST", url: "/test" }) as (data: unknown) => {
    value?: unknown;
    error?: HttpError;
  };
  return validate(data);
}

function refusal(schema: TSchema, data: unknown, part = "body") {
  const { error } = check(schema, data, part);
  assert.ok(error instanceof HttpError, `refused: ${JSON.stringify(data)}`);
  return { status: error.status, code: error.code, message: error.message, details: error.details };
}

/** Where a failure under a list of rows stands: the row's index and its field. */
const rowPlace = (below: readonly string[]) => ({
  where: { at: below[0] ?? "", field: below[1] ?? "row" },
  subject: below.slice(1).join(".") || "row",
});
const Rows = Refusing(
  Type.Array(Obj({ name: Type.String(), size: Opt(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])) })),
  "bad_items",
  { list: { place: rowPlace, max: 2 } },
);

describe("route validation", () => {
  it("a failure no schema declares a code for answers 400 invalid_field naming the field and where it was sent", () => {
    const schema = Obj({ name: Type.String(), nested: Opt(Obj({ count: Type.Integer() })) });
    assert.deepEqual(refusal(schema, { name: 5 }), {
      status: 400,
      code: "invalid_field",
      message: "name must be a string.",
      details: { field: "name", in: "body" },
    });
    assert.deepEqual(refusal(schema, { name: "x", nested: { count: "3" } }).details, {
      field: "nested.count",
      in: "body",
    });
  });

  it("the code declared on the failing schema wins over invalid_field, with its details", () => {
    const schema = Obj({
      order: Opt(Refusing(Type.Array(Type.Integer(), { minItems: 1 }), "bad_reorder")),
      location: Opt(Refusing(Type.String(), "unknown_location", { details: { locations: ["header"] } })),
    });
    assert.deepEqual(refusal(schema, { order: [] }), {
      status: 400,
      code: "bad_reorder",
      message: "order must be an array of at least 1 item.",
      details: { field: "order", in: "body" },
    });
    assert.deepEqual(refusal(schema, { location: 5 }).details, {
      field: "location",
      in: "body",
      locations: ["header"],
    });
  });

  it("a declaration may name the field otherwise and repeat the value refused", () => {
    const schema = Obj({
      per_page: Opt(Refusing(Type.Integer(), "invalid_parameter", { name: "parameter", value: "value" })),
    });
    assert.deepEqual(refusal(schema, { per_page: ["2", "3"] }, "querystring").details, {
      parameter: "per_page",
      in: "querystring",
      value: ["2", "3"],
    });
  });

  it("a failure inside a value answers its nearest ancestor's declared code; a nearer declaration wins", () => {
    const schema = Obj({
      order: Opt(
        Refusing(
          Obj({ ids: Type.Array(Type.Integer()), parent: Opt(Refusing(Type.Integer(), "invalid_parameter")) }),
          "bad_reorder",
        ),
      ),
    });
    const deep = refusal(schema, { order: { ids: [1, "x"] } });
    assert.equal(deep.code, "bad_reorder");
    assert.deepEqual(deep.details, { field: "order.ids.1", in: "body" });
    assert.equal(refusal(schema, { order: { ids: [], parent: "p" } }).code, "invalid_parameter");
  });

  it("a missing required property answers the code declared on that property", () => {
    const schema = Obj({ name: Refusing(Type.String(), "menu_name_required"), slug: Opt(Type.String()) });
    assert.deepEqual(refusal(schema, {}), {
      status: 400,
      code: "menu_name_required",
      message: "name is required: a string.",
      details: { field: "name", in: "body" },
    });
    assert.equal(refusal(schema, { name: null }).code, "menu_name_required", "null is no name either");
    assert.equal(refusal(Obj({ name: Type.String() }), {}).code, "invalid_field", "nothing declared: invalid_field");
  });

  it("a listing declaration answers all its failures, each where it stands, in document order; max caps the list and total_errors counts all", () => {
    const answer = refusal(Obj({ rows: Rows }), { rows: [{ name: 1 }, { name: "b", size: 0 }, "c"] });
    assert.equal(answer.code, "bad_items");
    assert.deepEqual(answer.details, {
      errors: [
        { at: "0", field: "name", message: "name must be a string." },
        { at: "1", field: "size", message: "size must be an integer of at least 1 or null." },
      ],
      total_errors: 3,
    });
    const missing = refusal(Obj({ rows: Rows }), {});
    assert.deepEqual(missing.details, {
      errors: [{ at: "", field: "row", message: "row is required: an array." }],
      total_errors: 1,
    });
  });

  it("the first failure, in the schema's order, decides the code; only failures answering it are listed", () => {
    const bad = { rows: [{ name: 1 }], lang: 5 };
    assert.equal(refusal(Obj({ lang: Opt(Type.String()), rows: Rows }), bad).code, "invalid_field");
    assert.deepEqual(refusal(Obj({ rows: Rows, lang: Opt(Type.String()) }), bad).details, {
      errors: [{ at: "0", field: "name", message: "name must be a string." }],
      total_errors: 1,
    });
  });

  it("a union's failure is named where the value fails, when one variant fits the value's shape", () => {
    const schema = Obj({
      item: Type.Union([Type.String(), Obj({ page: Type.Integer({ minimum: 1 }) }), Type.Null()]),
    });
    assert.deepEqual(refusal(schema, { item: { page: 0 } }).details, { field: "item.page", in: "body" });
    assert.deepEqual(refusal(schema, { item: 5 }), {
      status: 400,
      code: "invalid_field",
      message: "item must be a string, an object or null.",
      details: { field: "item", in: "body" },
    });
  });

  it("bodies are checked as sent (an absent one as {}); query strings are converted first", () => {
    const body = Obj({ count: Opt(Type.Integer()) });
    assert.equal(refusal(body, { count: "5" }).code, "invalid_field", "no coercion of a body");
    assert.deepEqual(check(body, undefined).value, {});
    assert.deepEqual(check(body, { count: 5 }, "querystring").value, { count: 5 });
    assert.deepEqual(check(body, { count: "5" }, "querystring").value, { count: 5 });
    assert.deepEqual(refusal(body, { count: "five" }, "querystring").details, { field: "count", in: "querystring" });
  });

  it("the declared code stays in the schema as JSON (x-refusal, for the OpenAPI document); the rest of the declaration does not", () => {
    const json = JSON.parse(JSON.stringify(Rows));
    assert.equal(json[REFUSAL], "bad_items");
    assert.deepEqual(Object.keys(json).sort(), [REFUSAL, "items", "type"].sort());
  });
});

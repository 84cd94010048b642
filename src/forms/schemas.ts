// The route schemas of the forms API (OpenAPI): a form as answered and as written.
import { Obj, Opt, Type } from "../http/schema.ts";
import { FIELD_TYPES, MAX_FIELD_BYTES, MAX_FIELDS } from "./input.ts";

const Str = Type.String();
const Label = Type.Union([Str, Type.Record(Str, Str)], {
  description: "a text, or texts by language code (default: the field's name)",
});

export const Field = Obj({
  name: Type.String({ description: "a letter, then letters, digits, _ or - (at most 64)" }),
  label: Opt(Label),
  type: Opt(
    Type.Union(
      FIELD_TYPES.map((t) => Type.Literal(t)),
      { description: "default text" },
    ),
  ),
  required: Opt(Type.Boolean()),
  max_length: Opt(
    Type.Union([Type.Integer({ minimum: 1, maximum: MAX_FIELD_BYTES }), Type.Null()], {
      description: `the longest value taken, in characters (every value is held to ${MAX_FIELD_BYTES} bytes)`,
    }),
  ),
  options: Opt(Type.Array(Str, { description: "a select's values, in order" })),
});

const AnsweredField = Obj({
  name: Str,
  label: Label,
  type: Str,
  required: Type.Boolean(),
  max_length: Type.Union([Type.Integer(), Type.Null()]),
  options: Opt(Type.Array(Str)),
});

export const Form = Obj({
  name: Str,
  fields: Type.Array(AnsweredField),
  redirect: Type.Union([Str, Type.Null()], {
    description: "a path, or a page's id as text; null: the same page with ?sent=1",
  }),
  notify: Type.Array(Str),
  store: Type.Boolean(),
  active: Type.Boolean(),
  created_at: Str,
  updated_at: Str,
});

const Redirect = Opt(
  Type.Union([Str, Type.Integer(), Type.Null()], {
    description: "a page (id, slug or path of a page) or a path from / to send the visitor to after a submission",
  }),
);

const writable = {
  fields: Type.Array(Field, { minItems: 1, maxItems: MAX_FIELDS }),
  redirect: Redirect,
  notify: Opt(Type.Array(Str, { description: "e-mail addresses told of each submission" })),
  store: Opt(Type.Boolean({ description: "keep submissions (default true)" })),
  active: Opt(Type.Boolean({ description: "false: the form takes no submissions (default true)" })),
};

export const FormCreate = Obj({ name: Type.String({ description: "^[a-z0-9][a-z0-9_-]*$" }), ...writable });
export const FormPatch = Obj({ ...writable, fields: Opt(writable.fields) });

export const NameParams = Obj({
  name: Type.String({ description: "^[a-z0-9][a-z0-9_-]*$; otherwise 400 invalid_form_name" }),
});

// Route schemas with TypeBox. They validate input types and document every route in the
// OpenAPI description. Objects stay open (additionalProperties) because unknown keys are
// reported as warnings by the services rather than stripped or refused here.
import { Type, type TProperties, type TSchema } from "@sinclair/typebox";

export { Type };
export { Refusing } from "./refusal.ts";

export const Obj = <P extends TProperties>(properties: P, description?: string) =>
  Type.Object(properties, { additionalProperties: true, ...(description ? { description } : {}) });

/** Optional in the schema: presence is checked by the service, which answers its own refusal code. */
export const Opt = <S extends TSchema>(schema: S) => Type.Optional(schema);

/** Optional, and null accepted where the service gives null a meaning (a default, its own refusal). */
export const Nullable = <S extends TSchema>(schema: S) => Opt(Type.Union([schema, Type.Null()]));

export const Warnings = Type.Array(
  Obj(
    { code: Type.String(), message: Type.String() },
    "A warning: its code, a message, and details that vary by code (field, at, …)",
  ),
);

/** A success body: `success: true`, the given fields and `warnings` (http/ok.ts: always there, maybe empty). */
export const Success = <P extends TProperties>(properties: P) =>
  Obj({ success: Type.Literal(true), warnings: Warnings, ...properties });

export const HandlerError = Obj(
  { success: Type.Literal(false), error: Type.String(), message: Type.String() },
  "Handler error: {success: false, error, message, ...details}",
);

export const PreHandlerError = Obj(
  { code: Type.String(), message: Type.String(), data: Obj({ status: Type.Integer() }) },
  "Error before a handler (token, site, body, route): {code, message, data: {status}}",
);

/** Answers documented on every API route besides its own success shape. */
export const commonErrors = {
  "4XX": Type.Union([HandlerError, PreHandlerError]),
  "5XX": Type.Union([HandlerError, PreHandlerError]),
};

/** A schema with an example value, shown by the reference page (/api/docs); validation ignores it. */
export const Example = <S extends TSchema>(schema: S, example: unknown): S => ({ ...schema, examples: [example] });

/** `dry_run` and `applied` of an answer to `?dry_run=1`: nothing was written. */
export const DryRunAnswer = {
  dry_run: Opt(Type.Literal(true, { description: "present on a dry run (?dry_run=1)" })),
  applied: Opt(Type.Literal(false, { description: "present on a dry run: nothing was written" })),
};

/** The `rebaked` report of write answers (write/change.ts, `Rebaked`). */
export const Rebaked = Obj(
  {
    status: Type.String({ description: "ok, unavailable (the renderer did not answer; the write is saved) or failed" }),
    total: Type.Integer({ description: "frames the change reached" }),
    baked: Type.Integer(),
    not_needed: Type.Integer(),
    frames: Type.Array(
      Obj({
        id: Type.String(),
        slug: Type.String(),
        because: Type.Array(Type.String()),
        bake: Type.String(),
        detail: Opt(Obj({}, "the render's report when it did not succeed")),
      }),
    ),
    pages: Type.Array(Type.Integer(), { description: "pages whose public output was rewritten or flushed" }),
    cache: Obj({
      status: Type.String(),
      scope: Type.String(),
      pages: Type.Array(Type.Integer()),
      flushed: Obj({
        urls: Obj({
          status: Type.String(),
          by: Type.String(),
          urls: Type.Array(Type.String()),
          skipped: Type.Array(Type.String()),
        }),
      }),
    }),
    skipped: Opt(
      Type.Array(Type.String(), {
        description: "frames left to a later call (POST /frames/rebake: over 25) or not baked (bake: false)",
      }),
    ),
  },
  "What the publish step rebaked and flushed",
);

/**
 * Where a route leaves a value to its service because no schema can state what it accepts (a
 * value the service reads leniently, ignoring one it cannot use with a warning), the value is
 * validated as anything (`Type.Unknown`) and documented as `documented`: the OpenAPI description
 * (http/openapi.ts) shows the typed form, so a generated client is typed where it matters. A value
 * that only needs its own refusal code is typed by its schema with `Refusing` (refusal.ts) instead.
 */
export const DOCUMENTED: unique symbol = Symbol.for("svc.openapi.documented");

export function ServiceChecked(documented: TSchema, description?: string) {
  const loose = Type.Unknown(description ? { description } : {});
  return Object.assign(loose, {
    [DOCUMENTED]: description && documented.description === undefined ? { ...documented, description } : documented,
  });
}

// Route schemas with TypeBox. They validate input types and document every route in the
// OpenAPI description. Objects stay open (additionalProperties) because unknown keys are
// reported as warnings by the services rather than stripped or refused here.
import { Type, type TProperties, type TSchema } from "@sinclair/typebox";

export { Type };

export const Obj = <P extends TProperties>(properties: P, description?: string) =>
  Type.Object(properties, { additionalProperties: true, ...(description ? { description } : {}) });

/** Optional in the schema: presence is checked by the service, which answers the spec's own code. */
export const Opt = <S extends TSchema>(schema: S) => Type.Optional(schema);

/** Optional, and null accepted where the service gives null a meaning (a default, its own refusal). */
export const Nullable = <S extends TSchema>(schema: S) => Opt(Type.Union([schema, Type.Null()]));

export const Warnings = Type.Array(Obj({ code: Type.String(), message: Type.String() }));

/** A success body: `success: true` plus the given fields. */
export const Success = <P extends TProperties>(properties: P) => Obj({ success: Type.Literal(true), ...properties });

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

export const IdParam = Type.String({ pattern: "^[^/]+$" });

/** The `rebaked` report of write answers (publish/contract.ts). */
export const Rebaked = Obj({ status: Type.String(), total: Type.Integer(), pages: Type.Array(Type.Integer()) }, "What the publish step rebaked and flushed");

/**
 * Where a route leaves a value to its service (which answers its own code, e.g. bad_items or
 * invalid_parameter, rather than the validator's invalid_field), the value is validated as
 * anything (`Type.Unknown`) and documented as `documented`: the OpenAPI description
 * (http/openapi.ts) shows the typed form, so a generated client is typed where it matters, and
 * validation refuses nothing it accepted before.
 */
export const DOCUMENTED: unique symbol = Symbol.for("svc.openapi.documented");

export function ServiceChecked(documented: TSchema, description?: string) {
  const loose = Type.Unknown(description ? { description } : {});
  return Object.assign(loose, { [DOCUMENTED]: description && documented.description === undefined ? { ...documented, description } : documented });
}

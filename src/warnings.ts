// Whatever the service did differently from the request is reported, not refused
// (docs/foundation.md, "Envelopes and codes").
// Services collect warnings in a list; the HTTP layer puts it on the success body as `warnings`.

export interface Warning {
  code: string;
  message: string;
  [detail: string]: unknown;
}

export function warning(code: string, message: string, details: Record<string, unknown> = {}): Warning {
  return { code, message, ...details };
}

/** Warns `unknown_field` for each key of the body the call does not know. */
export function unknownFields(
  body: Record<string, unknown>,
  known: readonly string[],
  into: Warning[] = [],
): Warning[] {
  for (const key of Object.keys(body)) {
    if (!known.includes(key))
      into.push(warning("unknown_field", `Field "${key}" is not known here and was ignored.`, { field: key }));
  }
  return into;
}

// The success envelope (docs/foundation.md, "Envelopes and codes"): `success: true`, the fields,
// and always a `warnings` list.
import type { Warning } from "../warnings.ts";

export function ok<T extends Record<string, unknown>>(
  fields: T,
  warnings: Warning[] = [],
): { success: true } & T & { warnings: Warning[] } {
  return { success: true, ...fields, warnings };
}

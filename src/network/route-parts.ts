// What the network's route files share: the user record's schema and the caller of a call.
import { fail } from "../errors.ts";
import { Obj, Type } from "../http/schema.ts";
import type { Caller } from "../site/callers.ts";

export const User = Obj({
  id: Type.Integer(),
  login: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  super_admin: Type.Boolean(),
  created_at_gmt: Type.String(),
});

/** The caller the gate found (every route here but sign-in needs one). */
export function caller(request: { caller: Caller | null }): Caller {
  if (!request.caller) throw fail("missing_token");
  return request.caller;
}

// Who acts in the current call: the user whose token made the API request, for the
// revisions a write records (`created_by`) and the trash (`deleted_by`). The HTTP layer runs every
// API handler inside `actingAs` (http/acting.ts); services read it where they record history, so
// the user need not be threaded through every service signature. Outside a request: null.
import { AsyncLocalStorage } from "node:async_hooks";

const actor = new AsyncLocalStorage<number | null>();

export function actingAs<T>(userId: number | null, work: () => T): T {
  return actor.run(userId, work);
}

/** The user acting in this call, or null (a start-up task, a test calling a service directly). */
export function currentActor(): number | null {
  return actor.getStore() ?? null;
}

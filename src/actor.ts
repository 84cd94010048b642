// Who acts in the current call: the user and token (or session) whose API request it is, and the
// request's id, for what a write records of it: revisions (`created_by`), the trash (`deleted_by`)
// and events (`actor`, `request_id`; docs/events.md). The HTTP layer runs every writing handler
// inside `actingAs` (http/acting.ts); services read it where they record history, so the caller
// need not be threaded through every service signature. Outside a request: nobody.
import { AsyncLocalStorage } from "node:async_hooks";

export interface Acting {
  userId: number | null;
  /** The token the call sent; null for a call signed in by the admin's session, or none. */
  tokenId: number | null;
  requestId: string | null;
}

const NOBODY: Acting = Object.freeze({ userId: null, tokenId: null, requestId: null });
const actor = new AsyncLocalStorage<Acting>();

export function actingAs<T>(acting: Acting, work: () => T): T {
  return actor.run(acting, work);
}

/** Who acts in this call (nobody: a start-up task, a test calling a service directly). */
export function currentActing(): Acting {
  return actor.getStore() ?? NOBODY;
}

/** The user acting in this call, or null. */
export function currentActor(): number | null {
  return currentActing().userId;
}

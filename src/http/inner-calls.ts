// Calls the service makes to its own API inside a call it already admitted: the REST calls an MCP
// tool is made of (docs/mcp.md). The outer call was counted against the caller's limit by the
// gate; the calls it makes are its work, so the gate does not count them again (guard.ts), and a
// tool's call costs what any API call costs, one.
import { AsyncLocalStorage } from "node:async_hooks";

const inner = new AsyncLocalStorage<true>();

/** Runs `call` (which sends requests to the app itself) as part of the call being answered. */
export function asInnerCalls<T>(call: () => Promise<T>): Promise<T> {
  return inner.run(true, call);
}

/** Whether the request now admitted was sent by a call already counted. */
export function isInnerCall(): boolean {
  return inner.getStore() === true;
}

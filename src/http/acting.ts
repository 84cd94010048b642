// Runs every route's handler as its caller (src/actor.ts): wired once, when routes are added.
import type { RouteOptions } from "fastify";
import { actingAs } from "../actor.ts";

/** Wraps a route's handler so that services see the caller as the acting user. */
export function actAsCaller(route: RouteOptions): void {
  const handler = route.handler;
  route.handler = function (this: unknown, request, reply) {
    return actingAs(request.caller?.userId ?? null, () => handler.call(this as never, request, reply));
  };
}

// Runs every writing route's handler as its caller (src/actor.ts): wired once, when routes are
// added. Only writes record who acted (revisions, the trash), so reads (GET, HEAD) are not wrapped:
// entering the caller's context costs a read about 1.4 µs (bench/README.md, "API reads").
import type { RouteOptions } from "fastify";
import { actingAs } from "../actor.ts";

const READS = new Set(["GET", "HEAD"]);

/** Wraps a writing route's handler so that services see the caller as the acting user. */
export function actAsCaller(route: RouteOptions): void {
  if ([route.method].flat().every((method) => READS.has(String(method).toUpperCase()))) return;
  const handler = route.handler;
  route.handler = function (this: unknown, request, reply) {
    const caller = request.caller;
    const acting = { userId: caller?.userId ?? null, tokenId: caller?.tokenId ?? null, requestId: request.id };
    return actingAs(acting, () => handler.call(this as never, request, reply));
  };
}

// Bodies only where a route takes one (docs/security.md "Bodies only where a
// route takes one"). Fastify reads and parses a JSON body for any method but GET and HEAD, the
// 404 handler's included: a 12 MB body POSTed to a public page or /healthz was parsed on the
// service's thread (1–1.5 s each), by anyone, and counted by no limit. Here, before a byte of
// it is read:
//   - a request that no route takes, with a body, is answered at once (405 with Allow when the
//     path has routes for other methods, else 404);
//   - a route that declares no body (no `schema.body`), sent one, answers 413 body_too_large
//     with max_bytes 0;
//   - a GET or HEAD is answered as usual (Fastify never parses their bodies).
// Node reads the rest of an unread body and throws it away once the answer is sent, so such a
// request costs what it takes to receive its bytes. Every request to the public site, whatever
// its method, counts against the public limit: GET and HEAD in their routes, the others here.
import type { FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import { fail } from "./errors.ts";
import { sendError } from "./error-handler.ts";
import { declaresBody } from "./connections.ts";
import type { RoutesIndex } from "./routes-index.ts";

/** Answers a request no route takes: 405 with Allow when other methods have routes there, else 404. */
export function answerUnrouted(routes: RoutesIndex, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = request.url.split("?")[0]!;
  const allowed = routes.methodsFor(path);
  if (allowed.length > 0) {
    reply.header("Allow", allowed.join(", "));
    return sendError(reply, fail("method_not_allowed", { allowed }));
  }
  return sendError(reply, fail("route_not_found"));
}

/** Paths of the service itself rather than of a site: the API and the health check. */
export function isServicePath(url: string): boolean {
  if (url === "/api" || url.startsWith("/api/") || url.startsWith("/api?")) return true;
  return url === "/healthz" || url.startsWith("/healthz?") || url.startsWith("/healthz/");
}

/**
 * Answers (and returns true) a request carrying a body that no route takes; false when the
 * request goes on. Runs first, before the body is read.
 */
export function refuseUnroutedBody(routes: RoutesIndex, request: FastifyRequest, reply: FastifyReply): boolean {
  if (!request.is404 || request.method === "GET" || request.method === "HEAD" || !declaresBody(request.raw))
    return false;
  answerUnrouted(routes, request, reply);
  return true;
}

const hooksOf = (hooks: RouteOptions["onRequest"]) => (hooks === undefined ? [] : [hooks].flat());

/**
 * The onRoute hook: a route that declares no body refuses one (413 body_too_large, max_bytes 0)
 * as its last onRequest step, after the token, the site and its query parameters were checked,
 * so those answer first as on every other call.
 */
export function refuseBodyWhereNoneTaken(route: RouteOptions): void {
  if (route.schema?.body !== undefined) return;
  // A GET or HEAD body is never read, so a route of those alone takes no step for it.
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  if (methods.every((method) => method === "GET" || method === "HEAD")) return;
  const refuse = async (request: FastifyRequest): Promise<void> => {
    if (request.method === "GET" || request.method === "HEAD" || !declaresBody(request.raw)) return;
    throw fail("body_too_large", { max_bytes: 0 }, "This call takes no request body; send none.");
  };
  route.onRequest = [...hooksOf(route.onRequest), refuse] as RouteOptions["onRequest"];
}

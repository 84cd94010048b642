// Public stylesheet bundles: GET and HEAD /styles/<name>.<hash>.css on a site's domains
// (docs/styles.md, "Public serving"). The host names the site as it does for pages (an unknown host
// is the main site's); the address is looked up among that site's copies only (styles/serve.ts).
//
// Registered beside `/*` (routes.ts): the router takes `/styles/*` first, and the page fast path
// (answerFromMemory) never holds such an address, which never ends in `/`. Every request is counted
// against the public limit. An address that names no copy of the site (another site's, a replaced
// one past its 24 hours, a name that never was) gets exactly the public site's answer for it: the
// same 404 as an address that never held a page, so nothing is learned of another site's stylesheets.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hostOf } from "../site/addresses.ts";
import { planStyleAnswer, styleAddressOf, type ServedStyles } from "../styles/serve.ts";
import type { PublicSite } from "./public-site.ts";
import { pageAnswerer, withinPublicLimit, type PublicGate } from "./routes.ts";

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(",") : value;
}

export function publicStyleRoutes(
  app: FastifyInstance,
  site: PublicSite,
  gate: PublicGate,
  styles: ServedStyles,
): void {
  const answerPage = pageAnswerer(site, gate);

  async function handler(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    if (!(await withinPublicLimit(gate, request, reply))) return reply;
    const moved = await site.aliasAnswer(hostOf(request.host), request.url);
    if (moved) return reply.code(moved.status).headers(moved.headers).send(moved.body);
    const address = styleAddressOf(request.url);
    if (address === null) return answerPage(request, reply);
    const host = hostOf(request.host);
    const served = site.directory.peek(host) ?? (await site.directory.resolve(host));
    const copy = served === undefined ? undefined : await styles.find(served.id, address);
    if (copy === undefined) return answerPage(request, reply);
    const plan = planStyleAnswer(copy, {
      method: request.method === "HEAD" ? "HEAD" : "GET",
      acceptEncoding: single(request.headers["accept-encoding"]),
      ifNoneMatch: single(request.headers["if-none-match"]),
    });
    return reply.code(plan.status).headers(plan.headers).send(plan.body);
  }

  app.route({ method: ["GET", "HEAD"], url: "/styles/*", schema: { hide: true }, handler });
}

// The public site: every GET that is not an API path answers from PublicSite.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { fail } from "../http/errors.ts";
import { ExecutorUnavailable } from "../publish/executor.ts";
import { hostOf, type PublicSite } from "./public-site.ts";

export function publicRoutes(app: FastifyInstance, site: PublicSite): void {
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.url === "/api" || request.url.startsWith("/api/")) throw fail("route_not_found");
    const ifNoneMatch = request.headers["if-none-match"];
    try {
      const answer = await site.answer(hostOf(request.headers.host), request.url, Array.isArray(ifNoneMatch) ? ifNoneMatch.join(",") : ifNoneMatch);
      return reply.code(answer.status).headers(answer.headers).send(answer.body);
    } catch (error) {
      if (error instanceof ExecutorUnavailable) {
        return reply.code(503).header("retry-after", "5").type("text/html; charset=utf-8").send("<!DOCTYPE html>\n<title>Temporarily unavailable</title><h1>Temporarily unavailable</h1>\n");
      }
      throw error;
    }
  };
  app.get("/*", { schema: { hide: true } }, handler);
}

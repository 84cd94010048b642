// POST /api/mcp: the Model Context Protocol over Streamable HTTP, stateless (docs/mcp.md). The
// gate has admitted the call as any API call (token, rate limit; no token: 401 missing_token
// before any MCP work); here the connection's offer is read (`?tools=`, `?read_only=1`, the
// token's read_only flag, the caller's highest role) and the SDK's transport answers the JSON-RPC
// message, JSON or, when the client puts text/event-stream first in Accept, an SSE stream. Each
// tool's REST calls are sent to this app in-process with the caller's own token (`app.inject`),
// as part of this call: the gate does not count them again (http/inner-calls.ts). GET and DELETE
// answer 405 method_not_allowed, as any method a route does not take.
import { Type } from "@sinclair/typebox";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { fail } from "../http/errors.ts";
import { presentedToken } from "../http/guard.ts";
import { asInnerCalls } from "../http/inner-calls.ts";
import { commonErrors, Obj, Opt } from "../http/schema.ts";
import { highestRoleOf } from "../site/callers.ts";
import type { ServiceContext } from "../write/context.ts";
import type { ApiDocument, Offer } from "./registry.ts";
import { mcpServer } from "./server.ts";
import { TOOL_GROUPS, type JsonObject, type Rest, type ToolGroup } from "./tool.ts";

export const MCP_PATH = "/api/mcp";

/** The groups `?tools=` names (comma-separated), null for none given; an unknown one is refused. */
function groupsOf(value: unknown): Set<ToolGroup> | null {
  if (value === undefined || value === "") return null;
  const names = String(value)
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  const unknown = names.filter((name) => !(TOOL_GROUPS as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw fail(
      "invalid_parameter",
      { parameter: "tools", value: unknown.join(","), allowed: TOOL_GROUPS },
      `tools names groups: ${TOOL_GROUPS.join(", ")}.`,
    );
  return new Set(names as ToolGroup[]);
}

/** The caller's REST calls, sent in-process with the token of the MCP call. */
function restOf(app: FastifyInstance, request: FastifyRequest, token: string): Rest {
  return async ({ method, path, query, body, bytes, headers }) => {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) search.set(name, String(value));
    const url = search.size > 0 ? `${path}?${search}` : path;
    const answer = await app.inject({
      method,
      url,
      remoteAddress: request.ip,
      headers: {
        authorization: `Bearer ${token}`,
        "x-request-id": request.id,
        ...(bytes ? { "content-type": bytes.type } : body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      ...(bytes ? { payload: bytes.data } : body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    let parsed: JsonObject = { text: answer.body };
    try {
      parsed = answer.body === "" ? {} : (JSON.parse(answer.body) as JsonObject);
    } catch {
      // not JSON: answered as text
    }
    return { status: answer.statusCode, body: parsed, headers: answer.headers };
  };
}

/** The body limit of an MCP call: a media upload of the site's limit in base64, and room for the message. */
export function mcpBodyLimit(mediaMaxBytes: number, jsonLimit: number): number {
  return Math.max(jsonLimit, Math.ceil(mediaMaxBytes / 3) * 4 + 1024 * 1024);
}

export function mcpRoutes(app: FastifyInstance, ctx: ServiceContext, options: { bodyLimit: number }): void {
  const document = () => app.swagger() as unknown as ApiDocument;
  // Stateless: no stream to open (GET) and no session to end (DELETE). Routed here, since the
  // public site's catch-all takes every other GET and would answer 404.
  app.route({
    method: ["GET", "DELETE"],
    url: MCP_PATH,
    config: { writesNothing: true },
    schema: { hide: true },
    handler: async (_request, reply) => {
      reply.header("Allow", "POST");
      throw fail("method_not_allowed", { allowed: ["POST"] }, "MCP here is stateless: send each message with POST.");
    },
  });
  app.post(
    MCP_PATH,
    {
      bodyLimit: options.bodyLimit,
      config: { writesNothing: true },
      schema: {
        operationId: "mcp",
        tags: ["mcp"],
        summary:
          "Model Context Protocol (Streamable HTTP, stateless): a JSON-RPC message in, its answer out as JSON or an SSE stream; tools over this API for agents (docs/mcp.md). ?tools=frames,pages,menus,data,revisions,media,delete offers only those groups; ?read_only=1 only the reading tools",
        querystring: Obj({
          tools: Opt(Type.String({ description: `groups of tools: ${TOOL_GROUPS.join(", ")}` })),
          read_only: Opt(Type.String({ description: "1: only the reading tools" })),
          site_id: Opt(
            Type.String({ description: "the site of the tools called without site_id (svc mcp sends SVC_SITE)" }),
          ),
        }),
        body: Type.Object({}, { additionalProperties: true, description: "a JSON-RPC 2.0 message (MCP)" }),
        response: {
          200: Type.Object({}, { additionalProperties: true, description: "the JSON-RPC answer (or an SSE stream)" }),
          202: Type.Null({ description: "a notification or response accepted" }),
          ...commonErrors,
        },
      },
    },
    async (request, reply) => {
      const token = presentedToken(request);
      if (token === null || request.caller === null) throw fail("missing_token");
      const query = request.query as { tools?: string; read_only?: string; site_id?: string };
      const offer: Offer = {
        groups: groupsOf(query.tools),
        readOnly: request.caller.readOnly || query.read_only === "1" || query.read_only === "true",
        role: await highestRoleOf(ctx.db, request.caller),
      };
      const site = /^[1-9]\d{0,9}$/.test(query.site_id ?? "") ? Number(query.site_id) : undefined;
      if (query.site_id !== undefined && site === undefined)
        throw fail("invalid_parameter", { parameter: "site_id", value: query.site_id }, "site_id is a site's id.");
      const rest = restOf(app, request, token);
      const server = await mcpServer({ offer, document, rest, site, version: "1.0.0" });
      const { StreamableHTTPServerTransport } = await import("@modelcontextprotocol/sdk/server/streamableHttp.js");
      const accept = String(request.headers.accept ?? "");
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: !accept.trimStart().startsWith("text/event-stream"),
      });
      // The gate's headers (request id, rate limit, Link) go out with the transport's answer.
      for (const [name, value] of Object.entries(reply.getHeaders()))
        if (value !== undefined) reply.raw.setHeader(name, value as string | number | string[]);
      reply.hijack();
      reply.raw.on("close", () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await asInnerCalls(() => transport.handleRequest(request.raw, reply.raw, request.body));
    },
  );
}

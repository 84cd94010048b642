// The MCP server of one request (docs/mcp.md): the SDK's low-level Server answering tools/list,
// tools/call, resources/list and resources/read for what the connection is offered. Stateless:
// made for each HTTP request and dropped with it, as the Streamable HTTP transport's stateless
// mode expects. The SDK is loaded on the first MCP call only, never on a start (bench/README.md,
// "Cold start").
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { refusal, succeeded } from "./answers.ts";
import { MARKUP_RESOURCE, MARKUP_URI, markupText } from "./markup-resource.ts";
import { inputSchemaOf, notOffered, offeredTools, TOOLS, type ApiDocument, type Offer } from "./registry.ts";
import { callerSites } from "./site-tools.ts";
import type { Rest, RestAnswer, Tool } from "./tool.ts";

export interface McpContext {
  offer: Offer;
  /** The served OpenAPI document: where the tools' input schemas come from. */
  document: () => ApiDocument;
  /** The caller's REST calls, at absolute paths. */
  rest: Rest;
  /** The site of a call without site_id (`?site_id=`), if the connection named one. */
  site?: number;
  version: string;
}

/** A REST answer as a tool's result: the answer itself, or an error carrying its code, message and details. */
export function toolResult(answer: RestAnswer): CallToolResult {
  const body = answer.body;
  const text = JSON.stringify(body);
  if (succeeded(answer)) return { content: [{ type: "text", text }], structuredContent: body };
  const code = body.error ?? body.code ?? `http_${answer.status}`;
  return {
    isError: true,
    content: [{ type: "text", text: `${code} (${answer.status}): ${body.message ?? ""}\n${text}` }],
    structuredContent: { status: answer.status, ...body },
  };
}

/** The site a call acts on: its site_id, else the one site the caller reaches; else a refusal. */
async function siteOf(
  rest: Rest,
  input: Record<string, unknown>,
  connectionSite: number | undefined,
): Promise<number | RestAnswer> {
  const given = input.site_id ?? connectionSite;
  if (typeof given === "number" && Number.isInteger(given) && given > 0) return given;
  if (given !== undefined)
    return refusal(
      "invalid_field",
      { field: "site_id", reason: "not_a_site_id" },
      "site_id is a site's id, a whole number.",
    );
  const listed = await callerSites(rest);
  if (!succeeded(listed)) return listed;
  const sites = listed.body.sites as Array<{ id: number; name: string }>;
  if (sites.length === 1) return sites[0]!.id;
  return refusal(
    "invalid_field",
    { field: "site_id", reason: "required", sites: sites.map(({ id, name }) => ({ id, name })) },
    "This token reaches more than one site (or none): name one with site_id (site_overview lists them).",
  );
}

/** Why a tool that is not offered is refused, in the API's own words. */
function refusedTool(tool: Tool, why: "read_only" | "role" | "group"): RestAnswer {
  if (why === "read_only") return refusal("read_only_token");
  if (why === "role")
    return refusal(
      "insufficient_role",
      { tool: tool.name, required_role: tool.least },
      `${tool.name} needs the role ${tool.least}.`,
    );
  return refusal(
    "invalid_field",
    { field: "name", tool: tool.name, reason: "not_offered" },
    `${tool.name} is not offered on this connection (?tools=).`,
  );
}

async function callTool(context: McpContext, name: string, args: Record<string, unknown>): Promise<RestAnswer> {
  const tool = TOOLS.find((candidate) => candidate.name === name);
  if (tool === undefined)
    return refusal("invalid_field", { field: "name", reason: "unknown_tool" }, `No tool ${name}.`);
  const why = notOffered(tool, context.offer);
  if (why !== null) return refusedTool(tool, why);
  if (tool.site === false) return tool.run({ siteId: 0, rest: context.rest }, args);
  const site = await siteOf(context.rest, args, context.site);
  if (typeof site !== "number") return site;
  const rest: Rest = (request) =>
    context.rest({
      ...request,
      path: request.path.startsWith("/api/") ? request.path : `/api/site/${site}${request.path}`,
    });
  return tool.run({ siteId: site, rest }, args);
}

export async function mcpServer(context: McpContext): Promise<Server> {
  const [{ Server }, types] = await Promise.all([
    import("@modelcontextprotocol/sdk/server/index.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]);
  const server = new Server(
    { name: "site-builder-service", version: context.version },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        "Build and change this service's sites. Start with site_overview; read svc://docs/markup before writing a frame; check_frame before put_frame; delete answers a dry run unless confirm is true.",
    },
  );
  server.setRequestHandler(types.ListToolsRequestSchema, async () => ({
    tools: offeredTools(context.offer).map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: inputSchemaOf(tool, context.document()) as { type: "object" },
      annotations: { readOnlyHint: !tool.writes, destructiveHint: tool.name === "delete" },
    })),
  }));
  server.setRequestHandler(types.CallToolRequestSchema, async (request) =>
    toolResult(await callTool(context, request.params.name, request.params.arguments ?? {})),
  );
  server.setRequestHandler(types.ListResourcesRequestSchema, async () => ({ resources: [MARKUP_RESOURCE] }));
  server.setRequestHandler(types.ReadResourceRequestSchema, async (request) => {
    if (request.params.uri !== MARKUP_URI)
      throw new types.McpError(types.ErrorCode.InvalidParams, `No resource ${request.params.uri}; see resources/list.`);
    return { contents: [{ uri: MARKUP_URI, mimeType: MARKUP_RESOURCE.mimeType, text: await markupText() }] };
  });
  return server;
}

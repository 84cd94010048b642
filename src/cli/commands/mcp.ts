// `svc mcp` (docs/mcp.md): the service's MCP server on stdio for an agent that starts it as a
// process (Claude Desktop, an IDE). Newline-delimited JSON-RPC: each line read from stdin is sent
// to the service's POST /api/mcp with the token, and its answer written to stdout as one line;
// nothing else is ever written to stdout (notes and failures go to stderr). The service stays the
// one place tools are defined; `--tools` becomes `?tools=`, `--read-only` `?read_only=1`, and a
// site named by --site, svc.json or SVC_SITE `?site_id=` (the site of tools called without one).
import { createInterface } from "node:readline";
import type { Authed } from "../target.ts";

export interface McpFlags {
  tools?: string;
  readOnly?: boolean;
  /** The site named explicitly (else the tools take site_id, or the token's one site). */
  site?: number;
}

export interface McpIo {
  stdin: NodeJS.ReadableStream;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/** The JSON-RPC error of a message the service refused before MCP answered it (401, 429, …). */
function refusedMessage(id: unknown, status: number, text: string) {
  let data: Record<string, unknown> = { status, text };
  try {
    data = { status, ...(JSON.parse(text) as Record<string, unknown>) };
  } catch {
    // not the API's JSON: kept as text
  }
  const code = (data.code ?? data.error ?? `http_${status}`) as string;
  return { jsonrpc: "2.0", id, error: { code: -32000, message: `${code}: ${String(data.message ?? text)}`, data } };
}

/** The JSON-RPC messages of an answer: a JSON body, or the data lines of an SSE stream. */
function messagesOf(type: string, text: string): string[] {
  if (!type.includes("text/event-stream")) return text.trim() === "" ? [] : [JSON.stringify(JSON.parse(text))];
  return text
    .split("\n")
    .filter((line) => line.startsWith("data:"))
    .map((line) => line.slice(5).trim())
    .filter((data) => data !== "")
    .map((data) => JSON.stringify(JSON.parse(data)));
}

export function mcpAddress(target: Authed, flags: McpFlags): string {
  const query = new URLSearchParams();
  if (flags.tools !== undefined) query.set("tools", flags.tools);
  if (flags.readOnly === true) query.set("read_only", "1");
  if (flags.site !== undefined) query.set("site_id", String(flags.site));
  return `${target.url}/api/mcp${query.size > 0 ? `?${query}` : ""}`;
}

/** Serves until stdin ends; each message is answered before the next is sent, in order. */
export async function mcpCommand(target: Authed, flags: McpFlags, io: McpIo): Promise<number> {
  const address = mcpAddress(target, flags);
  const note = (line: string) => io.stderr.write(`svc mcp: ${line}\n`);
  note(`serving ${address} on stdio`);
  for await (const line of createInterface({ input: io.stdin, crlfDelay: Number.POSITIVE_INFINITY })) {
    if (line.trim() === "") continue;
    let id: unknown = null;
    try {
      id = (JSON.parse(line) as { id?: unknown }).id ?? null;
    } catch {
      note("a line that is not JSON was sent on as it is");
    }
    let out: string[];
    try {
      const response = await fetch(address, {
        method: "POST",
        headers: {
          authorization: `Bearer ${target.token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: line,
      });
      const text = await response.text();
      const type = response.headers.get("content-type") ?? "";
      out =
        response.ok || type.includes("text/event-stream") || text.includes('"jsonrpc"')
          ? messagesOf(type, text)
          : [JSON.stringify(refusedMessage(id, response.status, text))];
    } catch (error) {
      note(`cannot reach ${target.url}: ${(error as Error).message}`);
      out = [JSON.stringify(refusedMessage(id, 0, `unreachable: ${(error as Error).message}`))];
    }
    // A notification (no id) is answered by nothing, a refusal of one included.
    for (const message of out) if (id !== null || !message.includes('"error"')) io.stdout.write(`${message}\n`);
  }
  return 0;
}

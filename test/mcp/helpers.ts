// The MCP tests' app and clients: a test app listening on a socket (the SDK's Streamable HTTP
// client reaches it as any agent would), the SDK's own Client over it, and public pages fetched
// over the same socket with a site's Host.
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { startTestApp, type TestApp } from "../support/app.ts";

export interface McpApp {
  t: TestApp;
  base: string;
  /** A connected client with `token` (default the admin's) at `/api/mcp?<query>`. */
  connect(token?: string, query?: string): Promise<Client>;
  /** A public page of the site at `host`, over the socket. */
  page(host: string, path: string): Promise<{ status: number; text: string }>;
  close(): Promise<void>;
}

export async function mcpApp(): Promise<McpApp> {
  const t = await startTestApp({ checkAnswers: false });
  await t.app.listen({ host: "127.0.0.1", port: 0 });
  const port = (t.app.server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  const clients: Client[] = [];
  return {
    t,
    base,
    async connect(token = t.adminToken, query = "") {
      const client = new Client({ name: "mcp-test", version: "1.0.0" });
      const url = new URL(`${base}/api/mcp${query ? `?${query}` : ""}`);
      await client.connect(
        new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
      );
      clients.push(client);
      return client;
    },
    page: (host, path) =>
      new Promise((resolve, reject) => {
        const req = request({ host: "127.0.0.1", port, path, headers: { host } }, (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk) => (text += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        });
        req.on("error", reject);
        req.end();
      }),
    async close() {
      for (const client of clients) await client.close();
      await t.close();
    },
  };
}

/** A tool's result: its structured answer, or a failure naming the error it carried. */
export function answered(result: unknown, what: string): any {
  const call = result as CallToolResult;
  if (call.isError) throw new Error(`${what}: ${JSON.stringify(call.content)}`);
  return call.structuredContent;
}

/** A tool error's API code and the text an agent reads. */
export function refused(result: unknown): { code: string; text: string; body: any } {
  const call = result as CallToolResult;
  if (!call.isError) throw new Error(`expected a tool error, got ${JSON.stringify(call).slice(0, 300)}`);
  const body = call.structuredContent as any;
  const text = (call.content[0] as { text: string }).text;
  return { code: body.error ?? body.code, text, body };
}

export const READING_TOOLS = [
  "site_overview",
  "list_frames",
  "get_frame",
  "check_frame",
  "preview_page",
  "list_pages",
  "get_page",
  "get_menu",
  "list_revisions",
  "list_media",
].sort();

/** A layout printing the header menu and the page's title and content. */
export const LAYOUT =
  '<!DOCTYPE html><html><head><title>site</title></head><body><nav><!-- svc/menu {"location": "header"} /--></nav><main>layout</main></body></html>';

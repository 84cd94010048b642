// `svc mcp` (docs/mcp.md): the built CLI (dist/cli.js; `npm run build` first) started by the
// SDK's own StdioClientTransport, as an agent starts it, against a listening app: every message is
// sent on to POST /api/mcp with SVC_URL, SVC_SITE and SVC_TOKEN, and stdout carries the answers only.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { makeSite } from "../support/app.ts";
import { ok } from "../seo/helpers.ts";
import { answered, LAYOUT, mcpApp, READING_TOOLS, refused, type McpApp } from "./helpers.ts";

const CLI = join(import.meta.dirname, "../../dist/cli.js");

describe("svc mcp on stdio", () => {
  let m: McpApp;
  let site: number;
  const host = `stdio-${process.pid}.localhost`;
  const clients: Client[] = [];
  before(async () => {
    m = await mcpApp();
    site = await makeSite(m.t, "Stdio site", host);
  });
  after(async () => {
    for (const client of clients) await client.close();
    await m.close();
  });

  async function svcMcp(token: string, ...args: string[]): Promise<Client> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "mcp", ...args],
      env: {
        PATH: process.env.PATH ?? "",
        HOME: m.t.dataDir,
        SVC_URL: m.base,
        SVC_SITE: String(site),
        SVC_TOKEN: token,
      },
      stderr: "pipe",
    });
    const client = new Client({ name: "stdio-test", version: "1.0.0" });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  it("lists the tools, filtered by --tools and --read-only", async () => {
    const all = await svcMcp(m.t.adminToken);
    assert.ok((await all.listTools()).tools.length >= 17);
    const pages = await svcMcp(m.t.adminToken, "--tools", "pages");
    assert.deepEqual((await pages.listTools()).tools.map((tool) => tool.name).sort(), [
      "get_page",
      "list_pages",
      "preview_page",
      "publish_page",
      "site_overview",
    ]);
    const reading = await svcMcp(m.t.adminToken, "--read-only");
    assert.deepEqual((await reading.listTools()).tools.map((tool) => tool.name).sort(), READING_TOOLS);
    assert.equal(
      refused(await reading.callTool({ name: "put_frame", arguments: { slug: "x", html: "<p>x</p>" } })).code,
      "read_only_token",
    );
  });

  it("builds a page on SVC_SITE through tools (site_id left out), served publicly; refusals carry the API's code", async () => {
    const client = await svcMcp(m.t.adminToken);
    answered(await client.callTool({ name: "put_frame", arguments: { slug: "layout", html: LAYOUT } }), "layout");
    const home = answered(
      await client.callTool({ name: "publish_page", arguments: { title: "Home", frame: "layout", status: "publish" } }),
      "home",
    ).page;
    answered(
      await client.callTool({ name: "put_menu", arguments: { name: "Main", location: "header", items: [home.id] } }),
      "menu",
    );
    await m.t.settled();
    const page = await m.page(host, "/home/");
    assert.equal(page.status, 200);
    assert.match(page.text, />Home<\/a>/);
    const stale = refused(
      await client.callTool({
        name: "put_frame",
        arguments: { slug: "layout", html: "<p>x</p>", expected_sha256: "f".repeat(64) },
      }),
    );
    assert.equal(stale.code, "precondition_failed");
    const dry = answered(
      await client.callTool({ name: "delete", arguments: { kind: "pages", ref: home.id } }),
      "dry run",
    );
    assert.equal(dry.dry_run, true);
    ok(await m.t.call("GET", `/api/site/${site}/pages/${home.id}`), "still there");
  });

  it("answers a refused token as a JSON-RPC error, not on stdout as anything else", async () => {
    await assert.rejects(svcMcp("svc_not_a_real_token_0000000000000000"), /invalid_token/);
  });
});

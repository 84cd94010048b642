// The MCP server over Streamable HTTP (docs/mcp.md), driven by the SDK's own client against a
// listening app: the tool lists and their filters, a two-page site with a menu built through
// tools alone and read back from its public pages, refusals an agent can correct itself by,
// read-only tokens, site isolation, and the HTTP answers around the protocol.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { makeSite, makeUser } from "../support/app.ts";
import { ok } from "../seo/helpers.ts";
import { answered, LAYOUT, mcpApp, READING_TOOLS, refused, type McpApp } from "./helpers.ts";

describe("MCP over Streamable HTTP", () => {
  let m: McpApp;
  let admin: Client;
  let site: number;
  const host = `mcp-${process.pid}.localhost`;
  before(async () => {
    m = await mcpApp();
    admin = await m.connect();
    site = await makeSite(m.t, "Agent site", host);
  });
  after(() => m.close());

  const names = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name).sort();

  it("lists about twenty tools whose inputs are the REST bodies' fields plus site_id, under 32,000 characters of JSON", async () => {
    const list = await admin.listTools();
    assert.ok(list.tools.length >= 17 && list.tools.length <= 22, `${list.tools.length} tools`);
    const size = JSON.stringify(list).length;
    assert.ok(size < 32_000, `tools/list is ${size} characters`);
    const publish = list.tools.find((tool) => tool.name === "publish_page")!;
    for (const field of ["site_id", "title", "slug", "status", "frame", "content", "parent"])
      assert.ok(field in (publish.inputSchema.properties ?? {}), `publish_page takes ${field}`);
    const putMenu = list.tools.find((tool) => tool.name === "put_menu")!;
    assert.deepEqual(putMenu.inputSchema.required, ["name"]);
    assert.ok(
      JSON.stringify(putMenu.inputSchema).includes("#/$defs/MenuItemInput"),
      "references resolve in the schema",
    );
    const resources = await admin.listResources();
    assert.deepEqual(
      resources.resources.map((resource) => resource.uri),
      ["svc://docs/markup"],
    );
    const markup = await admin.readResource({ uri: "svc://docs/markup" });
    assert.match(String((markup.contents[0] as { text: string }).text), /^# Frame markup/);
  });

  it("filters by group (?tools=), by ?read_only=1 and by the token's role", async () => {
    assert.deepEqual(await names(await m.connect(undefined, "tools=frames")), [
      "check_frame",
      "get_frame",
      "list_frames",
      "put_frame",
      "site_overview",
    ]);
    assert.deepEqual(await names(await m.connect(undefined, "tools=pages,menus")), [
      "get_menu",
      "get_page",
      "list_pages",
      "preview_page",
      "publish_page",
      "put_menu",
      "site_overview",
    ]);
    assert.deepEqual(await names(await m.connect(undefined, "read_only=1")), READING_TOOLS);
    const editor = await makeUser(m.t, `editor-${process.pid}`);
    ok(await m.t.call("PUT", `/api/site/${site}/users/${editor.id}`, { body: { role: "editor" } }), "editor");
    const listed = await names(await m.connect(editor.token));
    assert.ok(!listed.includes("put_frame") && listed.includes("publish_page"), listed.join(","));
    // A tool left out is refused when called.
    const framesOnly = await m.connect(undefined, "tools=frames");
    assert.equal(
      refused(await framesOnly.callTool({ name: "publish_page", arguments: { site_id: site } })).code,
      "invalid_field",
    );
    const bad = await fetch(`${m.base}/api/mcp?tools=everything`, {
      method: "POST",
      headers: { authorization: `Bearer ${m.t.adminToken}`, "content-type": "application/json" },
      body: "{}",
    });
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as any).error, "invalid_parameter");
  });

  it("builds a two-page site with a menu through tools alone; its public pages show it, and the writes appended their events", async () => {
    answered(
      await admin.callTool({ name: "put_frame", arguments: { site_id: site, slug: "layout", html: LAYOUT } }),
      "layout",
    );
    const home = answered(
      await admin.callTool({
        name: "publish_page",
        arguments: { site_id: site, title: "Home", slug: "home", frame: "layout", status: "publish" },
      }),
      "home",
    ).page;
    const about = answered(
      await admin.callTool({
        name: "publish_page",
        arguments: { site_id: site, title: "About us", slug: "about", frame: "layout", status: "publish" },
      }),
      "about",
    ).page;
    const menu = answered(
      await admin.callTool({
        name: "put_menu",
        arguments: { site_id: site, name: "Main", location: "header", items: [home.id, about.id] },
      }),
      "menu",
    );
    assert.equal(menu.menu.slug, "main");
    // The same slug replaces the menu.
    const replaced = answered(
      await admin.callTool({ name: "put_menu", arguments: { site_id: site, name: "Main", items: [about.id] } }),
      "menu replaced",
    );
    assert.equal(replaced.menu.id, menu.menu.id);
    assert.equal(replaced.items.length, 1);
    answered(
      await admin.callTool({
        name: "put_menu",
        arguments: { site_id: site, name: "Main", items: [home.id, about.id], location: "header" },
      }),
      "menu again",
    );
    await m.t.settled();
    for (const path of ["/home/", "/about/"]) {
      const page = await m.page(host, path);
      assert.equal(page.status, 200, `${path}: ${page.text.slice(0, 200)}`);
      assert.match(page.text, /href="http:\/\/[^"]*\/home\/"/, `${path} shows the menu`);
      assert.match(page.text, /About us/, `${path} shows the menu's titles`);
    }
    const overview = answered(
      await admin.callTool({ name: "site_overview", arguments: { site_id: site } }),
      "overview",
    );
    assert.equal(overview.sites.length, 1);
    assert.equal(overview.sites[0].usage.usage.pages.used, 2);
    const events = ok(await m.t.call("GET", `/api/site/${site}/events`), "events").events as any[];
    assert.ok(
      events.some((event) => event.type === "page.created" && event.object.id === String(about.id)),
      "a tool's write appended its event",
    );
  });

  it("refuses bad markup with the API's code, message and details, and check_frame writes nothing", async () => {
    const loop = '<!-- svc/layout {"frame": "loop"} /-->';
    const checked = refused(
      await admin.callTool({ name: "check_frame", arguments: { site_id: site, slug: "loop", html: loop } }),
    );
    assert.equal(checked.code, "frame_cycle");
    assert.match(checked.text, /^frame_cycle \(400\): /);
    const put = refused(
      await admin.callTool({ name: "put_frame", arguments: { site_id: site, slug: "loop", html: loop } }),
    );
    assert.equal(put.code, "frame_cycle");
    const warned = answered(
      await admin.callTool({
        name: "check_frame",
        arguments: { site_id: site, slug: "card", html: "<p>{{ nothing }}</p>" },
      }),
      "check",
    );
    assert.equal(warned.frames[0].slug, "card");
    assert.equal(ok(await m.t.call("GET", `/api/site/${site}/frames/card`), "absent", 404).error, "frame_not_found");
  });

  it("refuses put_frame with a stale expected_sha256 (412 precondition_failed), writing nothing", async () => {
    const frame = answered(
      await admin.callTool({ name: "get_frame", arguments: { site_id: site, ref: "layout" } }),
      "frame",
    ).frame;
    const stale = refused(
      await admin.callTool({
        name: "put_frame",
        arguments: { site_id: site, slug: "layout", html: "<p>changed</p>", expected_sha256: "0".repeat(64) },
      }),
    );
    assert.equal(stale.code, "precondition_failed");
    assert.equal(stale.body.status, 412);
    assert.equal(stale.body.sha256, frame.sha256);
    const after = ok(await m.t.call("GET", `/api/site/${site}/frames/layout`), "frame").frame;
    assert.equal(after.sha256, frame.sha256, "nothing written");
    const fresh = answered(
      await admin.callTool({
        name: "put_frame",
        arguments: {
          site_id: site,
          slug: "layout",
          html: LAYOUT.replace("layout<", "v2<"),
          expected_sha256: frame.sha256,
        },
      }),
      "current sha256",
    );
    assert.notEqual(fresh.frame.sha256, frame.sha256);
  });

  it("delete without confirm answers the dry run and deletes nothing; with confirm it deletes", async () => {
    answered(
      await admin.callTool({
        name: "put_data_set",
        arguments: { site_id: site, name: "team", items: [{ name: "Ada" }] },
      }),
      "data",
    );
    const dry = answered(
      await admin.callTool({ name: "delete", arguments: { site_id: site, kind: "data", ref: "team" } }),
      "dry",
    );
    assert.equal(dry.dry_run, true);
    ok(await m.t.call("GET", `/api/site/${site}/data/team`), "still there");
    answered(
      await admin.callTool({ name: "delete", arguments: { site_id: site, kind: "data", ref: "team", confirm: true } }),
      "delete",
    );
    ok(await m.t.call("GET", `/api/site/${site}/data/team`), "gone", 404);
  });

  it("uploads media from base64 with its alt text", async () => {
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    const media = answered(
      await admin.callTool({
        name: "upload_media",
        arguments: { site_id: site, filename: "dot.png", base64: png, alt: "A dot" },
      }),
      "upload",
    ).media;
    assert.equal(media.mime_type ?? media.type ?? "image/png", "image/png");
    const listed = answered(await admin.callTool({ name: "list_media", arguments: { site_id: site } }), "media");
    assert.equal(listed.media.length, 1);
  });

  it("a read-only token lists the reading tools only, and its writes are refused as tools and over REST", async () => {
    const issued = ok(await m.t.call("POST", "/api/users/me/tokens", { body: { read_only: true } }), "token", 201);
    const reader = await m.connect(issued.token);
    assert.deepEqual(await names(reader), READING_TOOLS);
    const write = refused(await reader.callTool({ name: "publish_page", arguments: { site_id: site, title: "No" } }));
    assert.equal(write.code, "read_only_token");
    answered(await reader.callTool({ name: "list_pages", arguments: { site_id: site } }), "reads");
    const rest = await m.t.call("POST", `/api/site/${site}/pages`, { token: issued.token, body: { title: "No" } });
    assert.equal(rest.status, 403);
    assert.equal(rest.body.code, "read_only_token");
  });

  it("a token of one site stays inside it: site_id optional there, any other site is site_not_found", async () => {
    const other = await makeSite(m.t, "Other", `other-${process.pid}.localhost`);
    const member = await makeUser(m.t, `member-${process.pid}`);
    ok(await m.t.call("PUT", `/api/site/${site}/users/${member.id}`, { body: { role: "administrator" } }), "member");
    const client = await m.connect(member.token);
    const pages = answered(await client.callTool({ name: "list_pages", arguments: {} }), "own site");
    assert.equal(pages.site_id ?? site, site);
    for (const id of [other, 999_999]) {
      const foreign = refused(await client.callTool({ name: "list_pages", arguments: { site_id: id } }));
      assert.equal(foreign.code, "site_not_found", `site ${id}`);
    }
    const overview = answered(await client.callTool({ name: "site_overview", arguments: {} }), "overview");
    assert.deepEqual(
      overview.sites.map((entry: any) => entry.site.id),
      [site],
    );
  });

  it("answers 401 missing_token without a token, 405 to GET and DELETE, and SSE when asked first", async () => {
    const message = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };
    const post = (headers: Record<string, string>) =>
      fetch(`${m.base}/api/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(message),
      });
    const none = await post({ accept: "application/json, text/event-stream" });
    assert.equal(none.status, 401);
    assert.equal(((await none.json()) as any).code, "missing_token");
    for (const method of ["GET", "DELETE"]) {
      const answer = await fetch(`${m.base}/api/mcp`, {
        method,
        headers: { authorization: `Bearer ${m.t.adminToken}` },
      });
      assert.equal(answer.status, 405, method);
      assert.equal(((await answer.json()) as any).code, "method_not_allowed");
    }
    const sse = await post({
      authorization: `Bearer ${m.t.adminToken}`,
      accept: "text/event-stream, application/json",
    });
    assert.equal(sse.status, 200);
    assert.match(sse.headers.get("content-type") ?? "", /text\/event-stream/);
    assert.match(await sse.text(), /"tools":\[/);
    const json = await post({
      authorization: `Bearer ${m.t.adminToken}`,
      accept: "application/json, text/event-stream",
    });
    assert.match(json.headers.get("content-type") ?? "", /application\/json/);
    assert.ok(json.headers.get("x-ratelimit-limit"), "counted as an API call");
  });
});

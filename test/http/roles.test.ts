// The editor role, route by route (docs/roles.md): every operation of the served OpenAPI document
// under /api/site/{site_id}/ is called with an editor's token. A call of a group whose least role
// (src/http/route-groups.ts, the table docs/roles.md shows) is above the editor's answers 403
// insufficient_role and writes nothing; every other call gets past the role (its answer may be
// any refusal of the call itself, but neither insufficient_role nor site_not_found). Then the
// legacy address (administrators only), and a foreign site (404 site_not_found, as an unknown one).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, makeUser, startTestApp, type Answer, type TestApp } from "../support/app.ts";
import { reaches } from "../../src/site/roles.ts";
import { routeGroupOf, SITE_ROUTE_GROUPS } from "../../src/http/route-groups.ts";

const PREFIX = "/api/site/{site_id}";
const WRITES = new Set(["post", "put", "patch", "delete"]);
/** Fields of many write bodies: a call that got past its role would write with them. */
const WRITE_BODY = {
  html: "<p>changed</p>",
  css: "p { color: red }",
  tagline: "changed",
  code: "fr",
  role: "administrator",
  description: "changed",
  title: "Changed",
  page: 1,
};
/** Tables an editor's refused call could have written. */
const TABLES = [
  "sites",
  "site_domains",
  "memberships",
  "site_settings",
  "languages",
  "frames",
  "styles",
  "site_seo",
  "site_seo_languages",
  "pages",
  "datasets",
  "menus",
  "menu_items",
  "redirects",
  "sidebars",
  "strings",
  "revisions",
  "trash",
  "preview_links",
] as const;

interface Operation {
  method: string;
  path: string;
  operationId: string;
}

/** `/frames/{ref}/revisions/{n}` as routes write it: `/frames/:ref/revisions/:n`. */
const routePath = (path: string) => path.slice(PREFIX.length).replace(/\{(\w+)\}/g, ":$1");

/** The role refusals: nothing else tells whether the role let the call through. */
function refusedByRole(answer: Answer): string | null {
  const code = answer.body?.code ?? answer.body?.error;
  return code === "insufficient_role" || code === "site_not_found" ? code : null;
}

describe("the editor role: every site route against docs/roles.md's table", () => {
  let t: TestApp;
  let site: number;
  let editor: { id: number; token: string };
  /** Values of the path's parameters, by the segment before each. */
  let values: Record<string, string>;
  let operations: Operation[];

  const as = (token: string, method: string, path: string, body?: unknown) =>
    t.call(method.toUpperCase(), path, { token, ...(body !== undefined ? { body } : {}) });

  async function fingerprint(): Promise<string> {
    const rows = await Promise.all(
      TABLES.map((table) =>
        t.store.db
          .selectFrom(table)
          .selectAll()
          .execute()
          .then((all) => all.map((row) => JSON.stringify(row)).sort()),
      ),
    );
    return JSON.stringify(rows);
  }

  /** The operation's address with this fixture's objects. */
  function address(operation: Operation): string {
    const segments = operation.path.slice(PREFIX.length).split("/");
    const filled = segments.map((segment, i) => {
      if (!segment.startsWith("{")) return segment;
      const before = segments[i - 1] ?? "";
      return before.startsWith("{") ? "999999" : (values[before] ?? "999999");
    });
    return `/api/site/${site}${filled.join("/")}`;
  }

  before(async () => {
    t = await startTestApp();
    site = await makeSite(t, "Edited", "edited-roles.localhost");
    const S = `/api/site/${site}`;
    const ok = async (method: string, path: string, body?: unknown) => {
      const r = await t.call(method, `${S}${path}`, body === undefined ? {} : { body });
      assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${r.text}`);
      return r.body;
    };
    await ok("POST", "/languages", { code: "en" });
    await ok("POST", "/languages", { code: "de" });
    await ok("POST", "/frames", { slug: "layout", html: "<!DOCTYPE html><html><body><main>x</main></body></html>" });
    const home = (await ok("POST", "/pages", { title: "Home", frame: "layout", content: "<p>home</p>" })).page.id;
    const menu = (await ok("POST", "/menus", { name: "Main", items: [home] })).menu.id;
    const item = (await ok("GET", `/menus/${menu}`)).items[0].id;
    await ok("PUT", "/data/team", { items: [{ name: "Ada" }] });
    await ok("PUT", "/styles/main", { css: "body { color: black }" });
    await ok("PUT", "/sidebars/docs", { items: [{ page: home }] });
    editor = await makeUser(t, "roles-editor");
    await ok("PUT", `/users/${editor.id}`, { role: "editor" });
    values = {
      frames: "layout",
      pages: String(home),
      menus: String(menu),
      items: String(item),
      data: "team",
      styles: "main",
      sidebars: "docs",
      languages: "de",
      users: String(editor.id),
      revisions: "1",
      trash: "pages",
    };
    const doc = (await t.call("GET", "/api/openapi.json")).body;
    operations = Object.entries(doc.paths as Record<string, Record<string, { operationId: string }>>)
      .filter(([path]) => path.startsWith(`${PREFIX}/`))
      .flatMap(([path, item]) =>
        Object.entries(item).map(([method, operation]) => ({ method, path, operationId: operation.operationId })),
      );
  });
  after(() => t.close());

  it("every operation under /api/site/{site_id}/ belongs to a route group, and every group holds an operation", () => {
    assert.ok(operations.length > 50, `${operations.length} operations`);
    const held = new Set<string>();
    for (const operation of operations) {
      const group = routeGroupOf(routePath(operation.path));
      assert.ok(group, `${operation.operationId} (${operation.path}) is in no group`);
      held.add(group.name);
    }
    assert.deepEqual(
      SITE_ROUTE_GROUPS.map((g) => g.name).filter((name) => !held.has(name)),
      [],
    );
  });

  it("an editor's write of a group editors may not write (frames, stylesheets, settings, languages, SEO defaults, cache, members) is 403 insufficient_role and writes nothing", async () => {
    const before = await fingerprint();
    const refused: string[] = [];
    for (const operation of operations) {
      const group = routeGroupOf(routePath(operation.path))!;
      if (!WRITES.has(operation.method) || reaches("editor", group.write!)) continue;
      const body = operation.method === "delete" ? undefined : WRITE_BODY;
      const r = await as(editor.token, operation.method, address(operation), body);
      assert.equal(r.status, 403, `${operation.operationId}: ${r.status} ${r.text}`);
      assert.equal(r.body.code, "insufficient_role", operation.operationId);
      assert.deepEqual([r.body.data.role, r.body.data.required_role], ["editor", "administrator"]);
      refused.push(operation.operationId);
    }
    for (const id of ["putFrame", "restoreFrameRevision", "putStyle", "patchSettings", "createLanguage"])
      assert.ok(refused.includes(id), `${id} is among the refused`);
    for (const id of ["patchSeo", "flushCache", "putSiteUser", "deleteSiteUser", "rebakeFrames"])
      assert.ok(refused.includes(id), `${id} is among the refused`);
    assert.equal(await fingerprint(), before, "nothing was written");
  });

  it("an editor's write of a group editors may write (pages, media, data sets, menus, sidebars, strings, redirects, trash, previews) gets past the role", async () => {
    const passed: string[] = [];
    for (const operation of operations) {
      const group = routeGroupOf(routePath(operation.path))!;
      if (!WRITES.has(operation.method) || !reaches("editor", group.write!)) continue;
      const body = operation.method === "delete" ? undefined : {};
      const r = await as(editor.token, operation.method, address(operation), body);
      assert.equal(refusedByRole(r), null, `${operation.operationId}: ${r.status} ${r.text}`);
      passed.push(operation.operationId);
    }
    for (const id of ["publishPage", "createMedia", "putDataset", "createMenuItem", "putSidebar", "putStrings"])
      assert.ok(passed.includes(id), `${id} is among the passed`);
    for (const id of ["createRedirect", "restorePageRevision", "restoreTrashItem", "previewPage", "patchPageSeo"])
      assert.ok(passed.includes(id), `${id} is among the passed`);
  });

  it("an editor reads every group but the administrators' own (members, events): those are 403 insufficient_role", async () => {
    for (const operation of operations) {
      if (operation.method !== "get") continue;
      const r = await as(editor.token, "get", address(operation));
      const group = routeGroupOf(routePath(operation.path))!;
      if (group.read === "administrator") {
        assert.equal(r.status, 403, `${operation.operationId}: ${r.text}`);
        assert.equal(r.body.code, "insufficient_role", operation.operationId);
      } else assert.equal(refusedByRole(r), null, `${operation.operationId}: ${r.status} ${r.text}`);
    }
    const members = await t.call("GET", `/api/site/${site}/users`);
    assert.deepEqual(
      members.body.users.map((u: { id: number; role: string }) => [u.id, u.role]),
      [[editor.id, "editor"]],
      "the administrator reads them",
    );
  });

  it("a role refusal is answered before the handler, in the pre-handler envelope, and says which role the call needs", async () => {
    const r = await as(editor.token, "put", `/api/site/${site}/frames/layout`, WRITE_BODY);
    assert.deepEqual(Object.keys(r.body).sort(), ["code", "data", "message"]);
    assert.match(r.body.message, /needs the administrator role/);
  });
});

describe("the editor role on the legacy address and on other sites", () => {
  let t: TestApp;
  let site: number;
  let other: number;
  let editor: { id: number; token: string };
  let admin: { id: number; token: string };
  let stranger: { id: number; token: string };
  before(async () => {
    t = await startTestApp();
    site = await makeSite(t, "Mine", "mine-roles.localhost");
    other = await makeSite(t, "Theirs", "theirs-roles.localhost");
    editor = await makeUser(t, "legacy-roles-editor");
    admin = await makeUser(t, "legacy-roles-admin");
    stranger = await makeUser(t, "legacy-roles-stranger");
    await t.call("PUT", `/api/site/${site}/users/${editor.id}`, { body: { role: "editor" } });
    await t.call("PUT", `/api/site/${site}/users/${admin.id}`, { body: { role: "administrator" } });
  });
  after(() => t.close());

  it("on the legacy address an editor gets 403 insufficient_role on reads and writes, whatever selects the site; its administrator and a super-administrator are served", async () => {
    for (const query of [`blog_id=${site}`, "domain=mine-roles.localhost"]) {
      for (const [method, path] of [
        ["GET", "/api/pages"],
        ["POST", "/api/pages"],
        ["GET", "/api/settings"],
      ]) {
        const r = await t.call(method, `${path}?${query}`, {
          token: editor.token,
          ...(method === "POST" ? { body: { title: "Legacy" } } : {}),
        });
        assert.deepEqual([r.status, r.body.code], [403, "insufficient_role"], `${method} ${path}?${query}`);
      }
      for (const token of [admin.token, t.adminToken]) {
        const r = await t.call("GET", `/api/pages?${query}`, { token });
        assert.equal(r.status, 200, r.text);
      }
    }
    const none = await t.call("GET", "/api/pages?blog_id=987654", { token: stranger.token });
    assert.deepEqual([none.status, none.body.code], [403, "insufficient_role"], "no role: as before");
    const superUnknown = await t.call("GET", "/api/pages?blog_id=987654");
    assert.deepEqual([superUnknown.status, superUnknown.body.code], [404, "site_not_found"]);
    assert.equal((await t.call("GET", `/api/site/${site}/pages`)).body.total, 0, "the editor wrote nothing");
  });

  it("a role on one site opens nothing on another: the other site answers 404 site_not_found exactly as an unknown site, to its editor and its administrator", async () => {
    for (const user of [editor, admin, stranger]) {
      const unknown = await t.call("GET", "/api/site/987654/pages", { token: user.token });
      assert.deepEqual([unknown.status, unknown.body.code], [404, "site_not_found"]);
      for (const [method, path] of [
        ["GET", "/pages"],
        ["POST", "/pages"],
        ["PUT", "/frames/x"],
        ["GET", "/users"],
      ]) {
        const r = await t.call(method, `/api/site/${other}${path}`, {
          token: user.token,
          ...(method === "GET" ? {} : { body: { title: "x", html: "<p>x</p>" } }),
        });
        assert.deepEqual({ status: r.status, body: r.body }, { status: 404, body: unknown.body }, `${method} ${path}`);
      }
    }
    assert.equal((await t.call("GET", `/api/site/${other}/pages`)).body.total, 0);
  });

  it("an editor reads the site it edits at /api/sites and /api/sites/{id}, and may not rename it (403); another site stays 404", async () => {
    const list = await t.call("GET", "/api/sites", { token: editor.token });
    assert.deepEqual(
      list.body.sites.map((s: { id: number }) => s.id),
      [site],
    );
    assert.equal((await t.call("GET", `/api/sites/${site}`, { token: editor.token })).status, 200);
    const rename = await t.call("PATCH", `/api/sites/${site}`, { token: editor.token, body: { name: "Renamed" } });
    assert.deepEqual([rename.status, rename.body.error], [403, "insufficient_role"]);
    const foreign = await t.call("GET", `/api/sites/${other}`, { token: editor.token });
    assert.deepEqual([foreign.status, foreign.body.error], [404, "site_not_found"]);
    assert.equal((await t.call("GET", `/api/sites/${site}`)).body.site.name, "Mine");
  });
});

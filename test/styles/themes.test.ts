// Stylesheets of another theme (docs/styles.md "The API", "What a write
// checks"): ?theme= lists and deletes that theme's, an @import reaches only the same site and
// theme, and who may call the styles API at all.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, makeUser, startTestApp, type Answer, type TestApp } from "../support/app.ts";

describe("stylesheets of another theme", () => {
  let t: TestApp;
  let n = 0;
  const site = () => makeSite(t, `Themes ${++n}`, `themes${n}.localhost`);
  const at = (id: number, path: string) => `/api/site/${id}${path}`;
  const put = (id: number, name: string, body: Record<string, unknown>, query = "") =>
    t.call("PUT", at(id, `/styles/${name}${query}`), { body });
  const names = async (id: number, query = "") =>
    (await t.call("GET", at(id, `/styles${query}`))).body.styles.map((s: any) => [s.name, s.theme]);

  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it("GET /styles?theme=<other> lists that theme's stylesheets (and names the theme); without it the site's theme's", async () => {
    const id = await site();
    await put(id, "main", { css: "a{color:red}" });
    await put(id, "main", { css: "a{color:white}", theme: "dark" });
    await put(id, "night", { css: "b{color:black}", theme: "dark" });
    const dark = await t.call("GET", at(id, "/styles?theme=dark"));
    assert.equal(dark.status, 200, dark.text);
    assert.equal(dark.body.theme, "dark");
    assert.deepEqual(
      dark.body.styles.map((s: any) => [s.name, s.theme]),
      [
        ["main", "dark"],
        ["night", "dark"],
      ],
    );
    const mainDark = dark.body.styles[0];
    assert.equal(mainDark.sha256, (await t.call("GET", at(id, "/styles/main?theme=dark"))).body.style.sha256);
    assert.deepEqual(await names(id), [["main", "default"]]);
    assert.deepEqual(await names(id, "?theme=nothing-here"), [], "a theme without stylesheets lists none");
  });

  it("DELETE /styles/{name}?theme=<other> deletes that theme's stylesheet only; no frame prints another theme's, so it is not in use", async () => {
    const id = await site();
    await put(id, "main", { css: "a{color:red}" });
    await put(id, "main", { css: "a{color:white}", theme: "dark" });
    assert.equal(
      (
        await t.call("POST", at(id, "/frames"), {
          body: { slug: "head", html: `<!-- svc/styles {"name": "main"} /-->` },
        })
      ).status,
      201,
    );
    const defaultBefore = (await t.call("GET", at(id, "/styles/main"))).body.style;
    const gone = await t.call("DELETE", at(id, "/styles/main?theme=dark"));
    assert.equal(gone.status, 200, gone.text);
    assert.deepEqual([gone.body.deleted.name, gone.body.deleted.theme], ["main", "dark"]);
    assert.deepEqual(gone.body.rebaked.frames, [], "frames print the site's theme: nothing to rebake");
    assert.deepEqual(await names(id, "?theme=dark"), []);
    const missing = await t.call("GET", at(id, "/styles/main?theme=dark"));
    assert.deepEqual([missing.status, missing.body.error, missing.body.theme], [404, "style_not_found", "dark"]);
    assert.deepEqual(
      (await t.call("GET", at(id, "/styles/main"))).body.style,
      defaultBefore,
      "the default theme's main is untouched",
    );
    const again = await t.call("DELETE", at(id, "/styles/main?theme=dark"));
    assert.deepEqual([again.status, again.body.error, again.body.theme], [404, "style_not_found", "dark"]);
    const inUse = await t.call("DELETE", at(id, "/styles/main"));
    assert.deepEqual([inUse.status, inUse.body.error], [409, "style_in_use"], "the site's theme's is linked");
  });

  it("@import of a stylesheet of another theme, or of another site, is 422 invalid_css at the @import, and nothing is stored", async () => {
    const id = await site();
    const other = await site();
    await put(id, "base", { css: "p{margin:0}" });
    await put(id, "dark-only", { css: "p{color:white}", theme: "dark" });
    await put(id, "night", { css: "a{}", theme: "dark" });
    await put(other, "theirs", { css: "p{color:red}" });
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ["main", { css: `/* dark */\n@import "dark-only";\na{}` }, "dark-only"],
      ["main", { css: `@import "theirs";` }, "theirs"],
      ["night", { css: `@import "base";`, theme: "dark" }, "base"],
    ];
    for (const [name, body, imported] of cases) {
      const r = await put(id, name, body);
      assert.equal(r.status, 422, `${name} importing ${imported}: ${r.text}`);
      assert.equal(r.body.error, "invalid_css");
      assert.equal(r.body.import, imported);
      assert.deepEqual([r.body.line, r.body.column], imported === "dark-only" ? [2, 1] : [1, 1]);
      assert.match(r.body.message, new RegExp(`has no stylesheet "${imported}"`));
      const dry = await put(id, name, body, "?dry_run=1");
      assert.deepEqual([dry.status, dry.body.error], [422, "invalid_css"], "a dry run refuses it the same way");
    }
    assert.deepEqual(await names(id), [["base", "default"]]);
    assert.deepEqual(await names(id, "?theme=dark"), [
      ["dark-only", "dark"],
      ["night", "dark"],
    ]);
    assert.equal((await t.call("GET", at(id, "/styles/night?theme=dark"))).body.style.css, "a{}");
  });
});

describe("styles API: roles", () => {
  let t: TestApp;
  let S: number;
  let editor: { id: number; token: string };
  before(async () => {
    t = await startTestApp();
    S = await makeSite(t, "Styled", "styled.localhost");
    assert.equal((await t.call("PUT", `/api/site/${S}/styles/main`, { body: { css: "a{color:red}" } })).status, 201);
    editor = await makeUser(t, "style-editor");
    assert.equal((await t.call("PUT", `/api/site/${S}/users/${editor.id}`, { body: { role: "editor" } })).status, 200);
  });
  after(() => t.close());

  const calls = (prefix: string, query: string, token: string): Array<[string, () => Promise<Answer>]> => [
    ["GET /styles", () => t.call("GET", `${prefix}/styles${query}`, { token })],
    ["GET /styles/{name}", () => t.call("GET", `${prefix}/styles/main${query}`, { token })],
    [
      "PUT /styles/{name}",
      () => t.call("PUT", `${prefix}/styles/main${query}`, { token, body: { css: "a{color:blue}" } }),
    ],
    [
      "PUT /styles/{name}?dry_run=1",
      () =>
        t.call("PUT", `${prefix}/styles/main${query ? `${query}&` : "?"}dry_run=1`, {
          token,
          body: { css: "a{color:blue}" },
        }),
    ],
    [
      "DELETE /styles/{name}",
      () => t.call("DELETE", `${prefix}/styles/main${query ? `${query}&` : "?"}force=1`, { token }),
    ],
  ];

  it("an editor of the site reads /api/site/{id}/styles… and gets 403 insufficient_role on every write, changing nothing (docs/roles.md)", async () => {
    const nowhere = await t.call("GET", "/api/site/987654/styles", { token: editor.token });
    assert.deepEqual([nowhere.status, nowhere.body.code], [404, "site_not_found"]);
    for (const [what, call] of calls(`/api/site/${S}`, "", editor.token)) {
      const r = await call();
      if (what.startsWith("GET")) {
        assert.equal(r.status, 200, `${what}: ${r.text}`);
        continue;
      }
      assert.equal(r.status, 403, `${what}: ${r.text}`);
      assert.equal(r.body.code, "insufficient_role", what);
      assert.deepEqual([r.body.data.role, r.body.data.required_role], ["editor", "administrator"], what);
    }
    assert.equal((await t.call("GET", `/api/site/${S}/styles/main`)).body.style.css, "a{color:red}");
  });

  it("on the legacy address an editor gets 403 insufficient_role, the site chosen by blog_id or domain, and changes nothing", async () => {
    for (const query of [`?blog_id=${S}`, "?domain=styled.localhost"]) {
      for (const [what, call] of calls("/api", query, editor.token)) {
        const r = await call();
        assert.equal(r.status, 403, `${query} ${what}: ${r.text}`);
        assert.equal(r.body.code, "insufficient_role", `${query} ${what}`);
      }
    }
    assert.equal((await t.call("GET", `/api/site/${S}/styles/main`)).body.style.css, "a{color:red}");
  });
});

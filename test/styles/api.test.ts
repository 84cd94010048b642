// The styles API (docs/styles.md, "The API"): GET/PUT/DELETE /styles and /styles/{name} on both
// addresses, every field, every refusal with nothing stored, ?dry_run=1, themes, isolation.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import sharp from "sharp";
import { recountUsage, usageOf } from "../../src/quotas/usage.ts";
import { makeSite, makeUser, startTestApp, type TestApp } from "../support/app.ts";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const URL_RULE = (name: string) => new RegExp(`^/styles/${name}\\.[0-9a-f]{16}\\.css$`);

describe("styles API (GET/PUT/DELETE /styles, /styles/{name})", () => {
  let t: TestApp;
  let n = 0;
  const site = () => makeSite(t, `Styles ${++n}`, `styles${n}.localhost`);
  const at = (id: number, path: string) => `/api/site/${id}${path}`;
  const put = (id: number, name: string, body: Record<string, unknown>, query = "") =>
    t.call("PUT", at(id, `/styles/${name}${query}`), { body });
  const get = (id: number, path: string) => t.call("GET", at(id, path));
  const count = async (table: "styles" | "style_copies", siteId: number) =>
    Number(
      (
        await t.store.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .where("site_id", "=", siteId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it("PUT creates (201) then replaces (200); GET lists the theme's stylesheets and reads one with its CSS exactly as uploaded", async () => {
    const id = await site();
    const css = "/* the look */\nbody {\n  color: #333;  margin: 0;\n}\n";
    const created = await put(id, "main", { css });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.success, true);
    assert.equal(created.body.site_id, id);
    const style = created.body.style;
    assert.deepEqual(
      { name: style.name, theme: style.theme, bytes: style.bytes, sha256: style.sha256, css: style.css },
      { name: "main", theme: "default", bytes: Buffer.byteLength(css), sha256: sha256(css), css },
    );
    assert.match(style.url, URL_RULE("main"));
    assert.match(style.updated_at_gmt, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.equal(created.body.rebaked.status, "ok");
    assert.deepEqual(created.body.warnings, []);

    const replaced = await put(id, "main", { css: "body{color:#444}" });
    assert.equal(replaced.status, 200);
    assert.notEqual(replaced.body.style.url, style.url, "a new bundle, a new address");
    await put(id, "Reset".toLowerCase(), { css: "*{box-sizing:border-box}" });

    const list = await get(id, "/styles");
    assert.equal(list.status, 200);
    assert.equal(list.body.theme, "default");
    assert.deepEqual(
      list.body.styles.map((s: any) => s.name),
      ["main", "reset"],
    );
    assert.deepEqual(Object.keys(list.body.styles[0]).sort(), [
      "bytes",
      "name",
      "sha256",
      "theme",
      "updated_at_gmt",
      "url",
    ]);
    assert.equal(list.body.styles[0].url, replaced.body.style.url);
    const one = await get(id, "/styles/main");
    assert.equal(one.status, 200);
    assert.deepEqual(one.body.style, { ...replaced.body.style });
    assert.equal(one.body.style.css, "body{color:#444}");
  });

  it("the legacy address reaches the same stylesheets as the site-scoped one", async () => {
    const id = await site();
    const r = await t.call("PUT", `/api/styles/legacy?blog_id=${id}`, { body: { css: "a{color:red}" } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.site_id, id);
    assert.equal((await get(id, "/styles/legacy")).body.style.css, "a{color:red}");
    const listed = await t.call("GET", `/api/styles?blog_id=${id}`);
    assert.deepEqual(
      listed.body.styles.map((s: any) => s.name),
      ["legacy"],
    );
    const gone = await t.call("DELETE", `/api/styles/legacy?blog_id=${id}`);
    assert.equal(gone.status, 200);
    assert.equal((await get(id, "/styles/legacy")).status, 404);
  });

  it("a name breaking ^[a-z0-9][a-z0-9_-]*$ (no lower-casing) is 400 invalid_style_name on every call; a missing one is 404 style_not_found", async () => {
    const id = await site();
    for (const name of ["Main", "-main", "ma in", "main.css", "_x", "a".repeat(101)]) {
      const path = `/styles/${encodeURIComponent(name)}`;
      for (const r of [
        await put(id, encodeURIComponent(name), { css: "a{}" }),
        await get(id, path),
        await t.call("DELETE", at(id, path)),
      ]) {
        assert.equal(r.status, 400, name);
        assert.equal(r.body.error, "invalid_style_name", name);
        assert.equal(r.body.pattern, "^[a-z0-9][a-z0-9_-]*$");
      }
    }
    assert.equal((await put(id, "0a_b-c", { css: "" })).status, 201);
    for (const r of [await get(id, "/styles/nothing"), await t.call("DELETE", at(id, "/styles/nothing"))]) {
      assert.equal(r.status, 404);
      assert.equal(r.body.error, "style_not_found");
      assert.deepEqual([r.body.name, r.body.theme], ["nothing", "default"]);
    }
    assert.equal(await count("styles", id), 1);
  });

  it("css must be a string of at most 1 MiB (400 invalid_field); other keys are warned about", async () => {
    const id = await site();
    for (const body of [{}, { css: null }, { css: 3 }, { css: ["a{}"] }, { css: "a{}".padEnd(1024 * 1024 + 1, " ") }]) {
      const r = await put(id, "x", body);
      assert.equal(r.status, 400, JSON.stringify(body).slice(0, 50));
      assert.equal(r.body.error, "invalid_field");
      assert.equal(r.body.field, "css");
    }
    assert.equal((await put(id, "x", { css: "a{}".padEnd(1024 * 1024, " ") })).status, 201);
    const warned = await put(id, "y", { css: "b{}", colour: "red" });
    assert.equal(warned.status, 201);
    assert.deepEqual(
      warned.body.warnings.map((w: any) => [w.code, w.field]),
      [["unknown_field", "colour"]],
    );
    assert.equal(await count("styles", id), 2);
  });

  it("invalid CSS is 422 invalid_css with the parser's message at its 1-based line and column, and nothing is stored", async () => {
    const id = await site();
    const cases: Array<[string, number, number, RegExp]> = [
      ["a { color: red }\n  ]x {}", 2, 3, /selector/i],
      ["p{}\n@media (min-width: ) { p { color: red } }", 2, 18, /media query/i],
      ["a{}\n  @import url(https://example.com/x.css);", 2, 10, /@import rules must precede/],
      ["h1{}\n/* é😀 */ ]", 2, 12, /./],
      ["x{}\n}", 2, 2, /end of input/i],
    ];
    for (const [css, line, column, message] of cases) {
      const r = await put(id, "bad", { css });
      assert.equal(r.status, 422, css);
      assert.equal(r.body.success, false);
      assert.equal(r.body.error, "invalid_css");
      assert.deepEqual([r.body.line, r.body.column], [line, column], css);
      assert.match(r.body.message, message);
    }
    assert.equal(await count("styles", id), 0);
    assert.equal(await count("style_copies", id), 0);
    // A replacement refused leaves the stored one as it was.
    await put(id, "bad", { css: "a{color:blue}" });
    assert.equal((await put(id, "bad", { css: "a{" + "}\n}" })).status, 422);
    assert.equal((await get(id, "/styles/bad")).body.style.css, "a{color:blue}");
  });

  it("@import of another stylesheet of the theme is bundled; an unknown one, a file name or a cycle is invalid_css at the @import", async () => {
    const id = await site();
    await put(id, "reset", { css: "*{margin:0}" });
    const main = await put(id, "main", { css: `@import "reset";\nbody{color:red}` }, "?dry_run=1");
    assert.equal(main.status, 200);
    assert.equal(main.body.style.css, "*{margin:0}body{color:red}", "the dry run answers the bundle as served");
    const unknown = await put(id, "main", { css: `a{}` + "" });
    assert.equal(unknown.status, 201);
    const refusals: Array<[string, Record<string, unknown>, RegExp]> = [
      [`/* x */\n@import "nope";`, { line: 2, column: 1, import: "nope" }, /no stylesheet "nope"/],
      [`@import "reset.css";`, { line: 1, column: 1, import: "reset.css" }, /names no stylesheet/],
      [`@import url(/x.css);`, { line: 1, column: 1, import: "/x.css" }, /names no stylesheet/],
      [`@import "main";`, { line: 1, column: 1, import: "main", cycle: ["main", "main"] }, /cycle/],
    ];
    for (const [css, details, message] of refusals) {
      const r = await put(id, "main", { css });
      assert.equal(r.status, 422, css);
      assert.equal(r.body.error, "invalid_css");
      for (const [key, value] of Object.entries(details)) assert.deepEqual(r.body[key], value, `${css}: ${key}`);
      assert.match(r.body.message, message);
    }
    await put(id, "a", { css: `@import "reset";` });
    await put(id, "b", { css: `@import "a";` });
    const cycle = await put(id, "reset", { css: `\n\n  @import "b";` });
    assert.equal(cycle.status, 422);
    assert.deepEqual([cycle.body.line, cycle.body.column, cycle.body.cycle], [3, 3, ["reset", "b", "a", "reset"]]);
    assert.equal((await get(id, "/styles/reset")).body.style.css, "*{margin:0}");
  });

  it("a chain of @imports deeper than 32 is invalid_css at the @import that makes it (the bundler overflows its stack about 1,000 deep), whichever end of the chain is written", async () => {
    const id = await site();
    // s0 ← s1 ← … ← s32: s32 imports s31 … s1 imports s0, a chain 32 deep.
    await put(id, "s0", { css: ".s0{color:red}" });
    for (let i = 1; i <= 32; i++)
      assert.equal((await put(id, `s${i}`, { css: `@import "s${i - 1}";` })).status, 201, `s${i}`);
    const top = await put(id, "s33", { css: `/* top */\n@import "s32";` });
    assert.equal(top.status, 422, top.text);
    assert.deepEqual(
      {
        error: top.body.error,
        import: top.body.import,
        depth: top.body.import_depth,
        max: top.body.max_import_depth,
        line: top.body.line,
      },
      { error: "invalid_css", import: "s32", depth: 33, max: 32, line: 2 },
    );
    assert.equal((await get(id, "/styles/s33")).status, 404, "nothing stored");
    // The bottom of the chain taking an import of its own lengthens every chain above it.
    await put(id, "t0", { css: ".t0{}" });
    const bottom = await put(id, "s0", { css: `@import "t0";` });
    assert.equal(bottom.status, 422, bottom.text);
    assert.deepEqual([bottom.body.import, bottom.body.import_depth], ["t0", 33]);
    assert.equal((await get(id, "/styles/s0")).body.style.css, ".s0{color:red}", "the stylesheet kept");
    // A chain of exactly 32 is bundled and served.
    const served = await t.app.inject({
      method: "GET",
      url: (await get(id, "/styles/s32")).body.style.url,
      headers: { host: `styles${n}.localhost` },
    });
    assert.equal(served.statusCode, 200);
    assert.equal(served.body, ".s0{color:red}");
  });

  it("a write of an imported stylesheet makes the bundles of every stylesheet importing it again; an http(s) import is left for the browser", async () => {
    const id = await site();
    await put(id, "base", { css: ".base{color:red}" });
    await put(id, "mid", { css: `@import url(https://fonts.example.com/f.css);\n@import "base";\n.mid{color:green}` });
    await put(id, "top", { css: `@import "mid";\n.top{color:blue}` });
    const before = new Map((await get(id, "/styles")).body.styles.map((s: any) => [s.name, s.url]));
    await put(id, "base", { css: ".base{color:purple}" });
    const afterList = new Map((await get(id, "/styles")).body.styles.map((s: any) => [s.name, s.url]));
    for (const name of ["base", "mid", "top"]) assert.notEqual(afterList.get(name), before.get(name), name);
    const served = await t.app.inject({
      method: "GET",
      url: afterList.get("top") as string,
      headers: { host: `styles${n}.localhost` },
    });
    assert.equal(served.statusCode, 200);
    assert.equal(
      served.body,
      `@import "https://fonts.example.com/f.css";.base{color:purple}.mid{color:green}.top{color:#00f}`,
    );
  });

  it("?dry_run=1 answers the bundle, its address and the frames that would be rebaked, and writes nothing (a new stylesheet is not created)", async () => {
    const id = await site();
    await put(id, "reset", { css: "p{margin:0}" });
    await put(id, "main", { css: `@import "reset";` });
    for (const [slug, html] of [
      ["links-main", `<head><!-- svc/styles {"name": "main"} /--></head>`],
      ["links-reset", `<!-- svc/styles {"names": ["reset"]} /-->`],
      ["plain", "<p>x</p>"],
      ["embeds", `<!-- svc/frame {"name": "links-main"} /-->`],
    ]) {
      assert.equal((await t.call("POST", at(id, "/frames"), { body: { slug, html } })).status, 201);
    }
    const page = await t.call("POST", at(id, "/pages"), {
      body: { title: "P", slug: "p", status: "publish", frame: "links-main" },
    });
    const copies = await count("style_copies", id);
    const before = (await get(id, "/styles/reset")).body.style;
    const dry = await put(id, "reset", { css: "p {\n  margin: 1px;\n}\n" }, "?dry_run=1");
    assert.equal(dry.status, 200);
    assert.equal(dry.body.dry_run, true);
    assert.equal(dry.body.applied, false);
    assert.equal(dry.body.style.css, "p{margin:1px}");
    assert.notEqual(dry.body.style.url, before.url);
    assert.equal(dry.body.rebaked.status, "planned");
    assert.deepEqual(
      dry.body.rebaked.frames.map((f: any) => [f.slug, f.because]),
      [
        ["embeds", ["style.main"]],
        ["links-main", ["style.main"]],
        ["links-reset", ["style.reset"]],
      ],
    );
    assert.deepEqual(dry.body.rebaked.pages, [page.body.page.id]);
    assert.deepEqual((await get(id, "/styles/reset")).body.style, before);
    assert.equal(await count("style_copies", id), copies);
    const fresh = await put(id, "brand-new", { css: "a { color: red; }\nb {}" }, "?dry_run=true");
    assert.equal(fresh.status, 200);
    assert.equal(fresh.body.style.css, "a{color:red}", "minified: white space and empty rules gone");
    assert.equal((await get(id, "/styles/brand-new")).status, 404);
    assert.equal((await put(id, "x", { css: "a{}" }, "?dry_run=maybe")).body.error, "invalid_parameter");
    // A refusal is the same in a dry run.
    assert.equal((await put(id, "reset", { css: "a{}}" }, "?dry_run=1")).body.error, "invalid_css");
  });

  it("a stylesheet belongs to `theme` if given, else the site's theme; ?theme= reads another theme's", async () => {
    const id = await site();
    assert.equal((await put(id, "main", { css: "a{color:red}" })).body.style.theme, "default");
    assert.equal(
      (await put(id, "main", { css: "a{color:blue}", theme: "dark" })).status,
      201,
      "another theme's main is another stylesheet",
    );
    assert.equal((await t.call("PATCH", at(id, "/settings"), { body: { theme: "dark" } })).status, 200);
    assert.deepEqual(
      (await get(id, "/styles")).body.styles.map((s: any) => [s.name, s.theme]),
      [["main", "dark"]],
    );
    assert.equal((await get(id, "/styles/main")).body.style.css, "a{color:blue}");
    assert.equal((await get(id, "/styles/main?theme=default")).body.style.css, "a{color:red}");
    assert.equal((await put(id, "other", { css: "b{}" })).body.style.theme, "dark");
    assert.equal((await put(id, "x", { css: "b{}", theme: "no spaces" })).body.error, "invalid_field");
    assert.equal((await t.call("GET", at(id, "/styles?theme=bad%20theme"))).body.error, "invalid_field");
  });

  it("DELETE: 409 style_in_use naming the frames linking it and the stylesheets importing it, unless ?force=1", async () => {
    const id = await site();
    await put(id, "reset", { css: "*{margin:0}" });
    await put(id, "main", { css: `@import "reset";` });
    await put(id, "lonely", { css: "i{}" });
    await t.call("POST", at(id, "/frames"), { body: { slug: "head", html: `<!-- svc/styles {"name": "main"} /-->` } });
    const refused = await t.call("DELETE", at(id, "/styles/reset"));
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error, "style_in_use");
    assert.deepEqual(
      refused.body.frames.map((f: any) => f.slug),
      ["head"],
    );
    assert.deepEqual(refused.body.imported_by, ["main"]);
    const linked = await t.call("DELETE", at(id, "/styles/main"));
    assert.deepEqual(
      [linked.status, linked.body.frames.map((f: any) => f.slug), linked.body.imported_by],
      [409, ["head"], []],
    );
    assert.equal((await get(id, "/styles/reset")).status, 200, "nothing deleted");
    assert.equal((await t.call("DELETE", at(id, "/styles/reset?force=2"))).body.error, "invalid_parameter");

    const alone = await t.call("DELETE", at(id, "/styles/lonely"));
    assert.equal(alone.status, 200);
    assert.deepEqual(alone.body.deleted, { name: "lonely", theme: "default", bytes: 3, sha256: sha256("i{}") });
    const forced = await t.call("DELETE", at(id, "/styles/reset?force=1"));
    assert.equal(forced.status, 200);
    assert.deepEqual(
      forced.body.rebaked.frames.map((f: any) => f.slug),
      ["head"],
    );
    assert.equal((await get(id, "/styles/reset")).status, 404);
    // Its importer is bundled without it, and a write of the importer is refused until the import goes.
    const main = (await get(id, "/styles")).body.styles[0];
    const served = await t.app.inject({ method: "GET", url: main.url, headers: { host: `styles${n}.localhost` } });
    assert.equal(served.body, "");
    assert.equal((await put(id, "main", { css: `@import "reset";a{}` })).body.error, "invalid_css");
  });

  it("a caller never learns whether another site's stylesheet exists; an administrator of one site is refused another's as an unknown site", async () => {
    const mine = await site();
    const theirs = await site();
    await put(theirs, "secret", { css: "a{}" });
    assert.equal((await get(mine, "/styles/secret")).body.error, "style_not_found");
    assert.deepEqual((await get(mine, "/styles")).body.styles, []);
    assert.equal((await t.call("DELETE", at(mine, "/styles/secret"))).body.error, "style_not_found");
    const user = await makeUser(t, `styler${n}`);
    assert.equal(
      (await t.call("PUT", `/api/site/${mine}/users/${user.id}`, { body: { role: "administrator" } })).status,
      200,
    );
    const asAdmin = await t.call("PUT", at(mine, "/styles/mine"), { token: user.token, body: { css: "a{}" } });
    assert.equal(asAdmin.status, 201, asAdmin.text);
    const elsewhere = await t.call("GET", at(theirs, "/styles/secret"), { token: user.token });
    const nowhere = await t.call("GET", at(987654, "/styles/secret"), { token: user.token });
    assert.equal(elsewhere.status, 404);
    assert.deepEqual(elsewhere.body, nowhere.body);
    assert.equal((await t.call("GET", at(mine, "/styles"), { token: null })).status, 401);
  });

  it("stylesheets count against stored_bytes as uploaded (counters equal a recount); past the quota 413 quota_exceeded and nothing is stored", async () => {
    const id = await site();
    await put(id, "a", { css: "a{color:red}" });
    await put(id, "b", { css: "b{color:red}/* é */" });
    await put(id, "a", { css: "a{color:green}" });
    await t.call("DELETE", at(id, "/styles/b"));
    assert.deepEqual(await usageOf(t.store.db, id), await recountUsage(t.store.db, id));
    // The live stylesheet, and each revision and trash entry of the site's stylesheets.
    const revisions = await t.store.db
      .selectFrom("revisions")
      .select(["content", "fields_json", "summary_json"])
      .where("site_id", "=", id)
      .execute();
    const trash = await t.store.db
      .selectFrom("trash")
      .select(["slug", "extra_json"])
      .where("site_id", "=", id)
      .execute();
    const history = [
      ...revisions.flatMap((r) => [r.content, r.fields_json, r.summary_json]),
      ...trash.flatMap((r) => [r.slug, r.extra_json]),
    ].reduce((sum, text) => sum + Buffer.byteLength(text), 0);
    const used = (await usageOf(t.store.db, id)).stored_bytes;
    assert.equal(used, Buffer.byteLength("a{color:green}") + history);
    assert.equal((await t.call("PATCH", `/api/sites/${id}/quotas`, { body: { stored_bytes: used + 20 } })).status, 200);
    const over = await put(id, "c", { css: "c{color:red}" });
    assert.deepEqual([over.status, over.body.error, over.body.quota], [413, "quota_exceeded", "stored_bytes"]);
    assert.equal((await get(id, "/styles/c")).status, 404);
    assert.equal(
      (await put(id, "a", { css: "a{color:green}" })).status,
      200,
      "the same stylesheet again stores nothing: accepted at the quota",
    );
  });

  it("url(media:<ref>) of a file of the site becomes its address; a ref naming no file of the site is invalid_css at the url", async () => {
    const id = await site();
    const other = await site();
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: { r: 9, g: 9, b: 9 } } })
      .png()
      .toBuffer();
    const upload = await t.call("POST", at(id, "/media?filename=hero.png"), {
      payload: png,
      headers: { "content-type": "image/png" },
    });
    assert.equal(upload.status, 201, upload.text);
    const media = upload.body.media;
    await t.call("POST", at(other, "/media?filename=theirs.png"), {
      payload: png,
      headers: { "content-type": "image/png" },
    });
    const dry = await put(
      id,
      "m",
      { css: `.a{background:url(media:hero)}\n.b{background:url("media:${media.id}")}` },
      "?dry_run=1",
    );
    assert.equal(dry.status, 200, dry.text);
    assert.equal(dry.body.style.css, `.a,.b{background:url(${media.url})}`);
    const missing = await put(id, "m", { css: `.a{}\n.b { background: url(media:theirs) }` });
    assert.equal(missing.status, 422);
    assert.deepEqual(
      [missing.body.error, missing.body.line, missing.body.column, missing.body.media],
      ["invalid_css", 2, 18, "theirs"],
    );
    assert.equal((await put(id, "m", { css: `.b{background:url(media:)}` })).body.error, "invalid_css");
  });
});

// Stylesheets' history (docs/revisions.md "Stylesheets"): every PUT and DELETE of a
// stylesheet leaves one revision whose content is the CSS as uploaded, kept under `theme:name`
// (`?theme` names another theme's); a restore is a write (the served stylesheet holds the old
// CSS); a deleted one comes back from the trash with its history, unless its imports are gone;
// DELETE ?dry_run=1 writes nothing; another site's stylesheets are not found.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { makeSite, startTestApp, type TestApp } from "../support/app.ts";
import { visit } from "../support/site.ts";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

describe("stylesheet revisions, restores and the trash", () => {
  let t: TestApp;
  let n = 0;
  let host = "";
  const site = async () => {
    n++;
    host = `stylehistory${n}.localhost`;
    return makeSite(t, `Style history ${n}`, host);
  };
  const at = (id: number, path: string) => `/api/site/${id}${path}`;
  const put = async (id: number, name: string, css: string, extra: Record<string, unknown> = {}) => {
    const r = await t.call("PUT", at(id, `/styles/${name}`), { body: { css, ...extra } });
    assert.ok(r.status === 200 || r.status === 201, `PUT /styles/${name}: ${r.status} ${r.text}`);
    return r;
  };
  const revisions = async (id: number, name: string, query?: Record<string, string>) => {
    const r = await t.call("GET", at(id, `/styles/${name}/revisions`), { query });
    assert.equal(r.status, 200, r.text);
    return r.body;
  };
  const trash = async (id: number) => (await t.call("GET", at(id, "/trash"))).body.items as any[];
  /** The stylesheet's bundle as the site serves it now. */
  const served = async (id: number, name: string) => {
    const url = (await t.call("GET", at(id, `/styles/${name}`))).body.style.url as string;
    const r = await visit(t, url, host);
    assert.equal(r.status, 200, `${url}: ${r.status}`);
    return { url, css: r.body };
  };
  /** A published page whose frame links the stylesheet. */
  const linking = async (id: number, name: string) => {
    const frame = await t.call("POST", at(id, "/frames"), {
      body: { slug: `head-${name}`, html: `<head><!-- svc/styles {"name": "${name}"} /--></head><p>styled</p>` },
    });
    assert.equal(frame.status, 201, frame.text);
    const page = await t.call("POST", at(id, "/pages"), {
      body: { title: `Styled by ${name}`, frame: `head-${name}`, status: "publish" },
    });
    assert.equal(page.status, 201, page.text);
    return { id: page.body.page.id as number, path: `${page.body.page.path}/` };
  };

  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it("each PUT that changes a stylesheet leaves exactly one revision (total); the same CSS again, and a dry run, leave none; the summary names the changed fields", async () => {
    const id = await site();
    await put(id, "main", ".v1{color:red}");
    await put(id, "main", ".v2{color:red}");
    await put(id, "main", ".v3{color:red}");
    await put(id, "main", ".v3{color:red}");
    const dry = await t.call("PUT", at(id, "/styles/main"), {
      body: { css: ".v4{color:red}" },
      query: { dry_run: "1" },
    });
    assert.equal(dry.status, 200, dry.text);
    const list = await revisions(id, "main");
    assert.deepEqual([list.kind, list.id, list.total], ["styles", "default:main", 3]);
    assert.deepEqual(
      list.revisions.map((r: any) => [r.revision, r.summary]),
      [
        [3, ["css"]],
        [2, ["css"]],
        [1, ["css", "name", "theme"]],
      ],
    );
    assert.equal(list.revisions[0].sha256, sha256(".v3{color:red}"));
    assert.ok(Number.isInteger(list.revisions[0].created_by));
  });

  it("a revision's content is the CSS exactly as uploaded, its fields name, theme and the CSS's sha256; a diff has @@ hunks", async () => {
    const id = await site();
    const first = "/* look */\nbody {\n  color: red;\n}\n";
    await put(id, "main", first);
    await put(id, "main", "/* look */\nbody {\n  color: blue;\n}\n");
    const one = await t.call("GET", at(id, "/styles/main/revisions/1"));
    assert.equal(one.status, 200, one.text);
    assert.equal(one.body.revision.content, first);
    assert.deepEqual(one.body.revision.fields, { name: "main", theme: "default", css: sha256(first) });
    const diff = await t.call("GET", at(id, "/styles/main/revisions/1/diff"), { query: { to: "2" } });
    assert.equal(diff.status, 200, diff.text);
    assert.match(diff.body.diff, /^@@ /m);
    assert.match(diff.body.diff, /^- {2}color: red;$/m);
    assert.match(diff.body.diff, /^\+ {2}color: blue;$/m);
    const missing = await t.call("GET", at(id, "/styles/main/revisions/0"));
    assert.deepEqual([missing.status, missing.body.error], [404, "revision_not_found"]);
  });

  it("another theme's stylesheet of the same name has its own history, named by ?theme (default:main, dark:main)", async () => {
    const id = await site();
    await put(id, "main", ".light{color:red}");
    await put(id, "main", ".dark1{color:red}", { theme: "dark" });
    await put(id, "main", ".dark2{color:red}", { theme: "dark" });
    const dark = await revisions(id, "main", { theme: "dark" });
    assert.deepEqual([dark.id, dark.total], ["dark:main", 2]);
    assert.deepEqual([(await revisions(id, "main")).id, (await revisions(id, "main")).total], ["default:main", 1]);
    const r = await t.call("POST", at(id, "/styles/main/revisions/1/restore"), { query: { theme: "dark" } });
    assert.equal(r.status, 200, r.text);
    assert.equal(
      (await t.call("GET", at(id, "/styles/main"), { query: { theme: "dark" } })).body.style.css,
      ".dark1{color:red}",
    );
    assert.equal((await t.call("GET", at(id, "/styles/main"))).body.style.css, ".light{color:red}");
    const none = await t.call("GET", at(id, "/styles/main/revisions"), { query: { theme: "nothing" } });
    assert.deepEqual([none.status, none.body.error], [404, "style_not_found"]);
  });

  it("a restore puts the revision's CSS back as a new revision: the served stylesheet holds it, the page links its new address, the answer carries rebaked", async () => {
    const id = await site();
    await put(id, "main", ".v1{color:red}");
    const page = await linking(id, "main");
    await put(id, "main", ".v2{color:red}");
    assert.match((await served(id, "main")).css, /\.v2/);
    const r = await t.call("POST", at(id, "/styles/main/revisions/1/restore"));
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.restored, { kind: "styles", id: "default:main", from_revision: 1, revision: 3 });
    assert.equal(r.body.style.css, ".v1{color:red}");
    assert.equal(r.body.rebaked.status, "ok");
    assert.ok(r.body.rebaked.pages.includes(page.id));
    const now = await served(id, "main");
    assert.match(now.css, /\.v1/);
    assert.doesNotMatch(now.css, /\.v2/);
    assert.ok((await visit(t, page.path, host)).body.includes(`href="${now.url}"`));
    assert.equal((await revisions(id, "main")).total, 3);
  });

  it("DELETE puts the stylesheet in the trash with its last revision; a restore from the trash brings it back with its history, served and linked again", async () => {
    const id = await site();
    await put(id, "main", ".v1{color:red}");
    await put(id, "main", ".v2{color:red}");
    const page = await linking(id, "main");
    const deleted = await t.call("DELETE", at(id, "/styles/main"), { query: { force: "1" } });
    assert.equal(deleted.status, 200, deleted.text);
    assert.doesNotMatch((await visit(t, page.path, host)).body, /\/styles\/main\./);
    const [entry, ...others] = await trash(id);
    assert.equal(others.length, 0);
    assert.deepEqual(
      { kind: entry.kind, id: entry.id, slug: entry.slug, last_revision: entry.last_revision },
      { kind: "styles", id: "default:main", slug: "main", last_revision: 2 },
    );

    const back = await t.call("POST", at(id, "/trash/styles/default:main/restore"));
    assert.equal(back.status, 200, back.text);
    assert.deepEqual(back.body.restored, { kind: "styles", id: "default:main", from_revision: 2, revision: 2 });
    assert.equal(back.body.created, true);
    assert.ok(back.body.rebaked.pages.includes(page.id));
    const now = await served(id, "main");
    assert.match(now.css, /\.v2/);
    assert.ok((await visit(t, page.path, host)).body.includes(`href="${now.url}"`));
    assert.deepEqual(await trash(id), []);
    await put(id, "main", ".v3{color:red}");
    assert.deepEqual(
      (await revisions(id, "main")).revisions.map((r: any) => r.revision),
      [3, 2, 1],
      "the next write continues the numbering",
    );
  });

  it("a PUT making a stylesheet again under a name in the trash takes it out of the trash, its history continuing", async () => {
    const id = await site();
    await put(id, "main", ".v1{color:red}");
    await t.call("DELETE", at(id, "/styles/main"));
    assert.equal((await put(id, "main", ".new{color:red}")).status, 201);
    assert.deepEqual(await trash(id), []);
    assert.deepEqual(
      (await revisions(id, "main")).revisions.map((r: any) => r.revision),
      [2, 1],
    );
  });

  it("a restore from the trash when a stylesheet stands under its name again (written around the service) is 409 slug_taken with its id, and nothing changes", async () => {
    const id = await site();
    await put(id, "main", ".v1{color:red}");
    await t.call("DELETE", at(id, "/styles/main"));
    const css = ".other{color:red}";
    const stamp = "2026-01-01 00:00:00";
    await t.store.db
      .insertInto("styles")
      .values({
        site_id: id,
        theme: "default",
        name: "main",
        css,
        bytes: css.length,
        sha256: sha256(css),
        imports_json: "[]",
        media_json: "[]",
        created_at_gmt: stamp,
        updated_at_gmt: stamp,
      })
      .execute();
    const r = await t.call("POST", at(id, "/trash/styles/default:main/restore"));
    assert.equal(r.status, 409, r.text);
    assert.deepEqual([r.body.error, r.body.id], ["slug_taken", "default:main"]);
    assert.equal((await t.call("GET", at(id, "/styles/main"))).body.style.css, css);
    assert.deepEqual(
      (await trash(id)).map((e) => e.id),
      ["default:main"],
    );
    assert.equal((await revisions(id, "main")).total, 1);
  });

  it("a stylesheet whose @import names one deleted since does not come back: the write's own 422 invalid_css, and it stays in the trash", async () => {
    const id = await site();
    await put(id, "base", ".base{color:red}");
    await put(id, "main", `@import "base";\n.main{color:red}`);
    assert.equal((await t.call("DELETE", at(id, "/styles/main"))).status, 200);
    assert.equal((await t.call("DELETE", at(id, "/styles/base"))).status, 200);
    const r = await t.call("POST", at(id, "/trash/styles/default:main/restore"));
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.error, "invalid_css");
    assert.equal((await t.call("GET", at(id, "/styles/main"))).status, 404);
    assert.deepEqual((await trash(id)).map((e) => e.id).sort(), ["default:base", "default:main"]);
    assert.equal((await t.call("POST", at(id, "/trash/styles/default:base/restore"))).status, 200);
    assert.equal(
      (await t.call("POST", at(id, "/trash/styles/default:main/restore"))).status,
      200,
      "once its import is back",
    );
  });

  it("DELETE ?dry_run=1 (or true) answers what the delete would (the frames and pages it would rebake) and writes nothing; a refusal is the same refusal", async () => {
    const id = await site();
    await put(id, "main", ".v1{color:red}");
    const page = await linking(id, "main");
    const refused = await t.call("DELETE", at(id, "/styles/main"), { query: { dry_run: "1" } });
    assert.deepEqual([refused.status, refused.body.error], [409, "style_in_use"]);
    for (const flag of ["1", "true"]) {
      const r = await t.call("DELETE", at(id, "/styles/main"), { query: { dry_run: flag, force: "1" } });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body.deleted, { name: "main", theme: "default", bytes: 14, sha256: sha256(".v1{color:red}") });
      assert.deepEqual([r.body.dry_run, r.body.applied], [true, false]);
      assert.equal(r.body.rebaked.status, "planned");
      assert.deepEqual(
        r.body.rebaked.frames.map((f: any) => f.slug),
        ["head-main"],
      );
      assert.deepEqual(r.body.rebaked.pages, [page.id]);
    }
    const { url, css } = await served(id, "main");
    assert.match(css, /\.v1/);
    assert.ok((await visit(t, page.path, host)).body.includes(`href="${url}"`));
    assert.equal((await revisions(id, "main")).total, 1);
    assert.deepEqual(await trash(id), []);
    const missing = await t.call("DELETE", at(id, "/styles/nothing"), { query: { dry_run: "1" } });
    assert.deepEqual([missing.status, missing.body.error], [404, "style_not_found"]);
  });

  it("another site's stylesheets, revisions and trash are not found: 404, nothing restored", async () => {
    const a = await site();
    const b = await site();
    await put(a, "main", ".v1{color:red}");
    await put(a, "main", ".v2{color:red}");
    for (const [method, path] of [
      ["GET", "/styles/main/revisions"],
      ["GET", "/styles/main/revisions/1"],
      ["GET", "/styles/main/revisions/1/diff"],
      ["POST", "/styles/main/revisions/1/restore"],
    ]) {
      const r = await t.call(method, at(b, path));
      assert.deepEqual([r.status, r.body.error], [404, "style_not_found"], path);
    }
    await t.call("DELETE", at(a, "/styles/main"));
    assert.deepEqual(await trash(b), []);
    const r = await t.call("POST", at(b, "/trash/styles/default:main/restore"));
    assert.deepEqual([r.status, r.body.error], [404, "trash_item_not_found"]);
    assert.equal((await t.call("GET", at(b, "/styles/main"))).status, 404);
    assert.deepEqual(
      (await trash(a)).map((e) => e.id),
      ["default:main"],
    );
  });
});

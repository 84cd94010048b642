// What a stylesheet write reaches (docs/styles.md "Linking"): frames
// linking it or a stylesheet importing it through any chain of imports are rebaked (real write
// and dry run); a dry run of a stylesheet not yet there names the frames already linking its
// name; `sources` shows style.<name>; the 409 style_in_use refusal names the frames whose own
// markup links it, and a forced delete rebakes the frames embedding them too.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, startTestApp, type TestApp } from "../support/app.ts";
import { visit } from "../support/site.ts";

describe("stylesheet writes and the frames they rebake", () => {
  let t: TestApp;
  let n = 0;
  let host = "";
  const site = async () => {
    n++;
    host = `rebake${n}.localhost`;
    return makeSite(t, `Rebake ${n}`, host);
  };
  const at = (id: number, path: string) => `/api/site/${id}${path}`;
  const put = (id: number, name: string, css: string, query = "") =>
    t.call("PUT", at(id, `/styles/${name}${query}`), { body: { css } });
  const frame = async (id: number, slug: string, html: string) => {
    const r = await t.call("POST", at(id, "/frames"), { body: { slug, html } });
    assert.equal(r.status, 201, `${slug}: ${r.text}`);
    return { id: r.body.frame.id as string, slug };
  };
  const page = async (id: number, title: string, frameSlug: string) => {
    const r = await t.call("POST", at(id, "/pages"), { body: { title, frame: frameSlug, status: "publish" } });
    assert.equal(r.status, 201, r.text);
    return { id: r.body.page.id as number, path: `${r.body.page.path}/` };
  };
  const urlOf = async (id: number, name: string) =>
    (await t.call("GET", at(id, `/styles/${name}`))).body.style.url as string;
  const slugs = (rebaked: any) => rebaked.frames.map((f: { slug: string }) => f.slug);

  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it("a write of c, where the frame links a, a imports b and b imports c, rebakes the frame (because style.a), and its page links a's new address; no other frame is rebaked", async () => {
    const id = await site();
    await put(id, "c", ".c{color:red}");
    await put(id, "b", `@import "c";\n.b{color:red}`);
    await put(id, "a", `@import "b";\n.a{color:red}`);
    await put(id, "lone", ".lone{color:red}");
    await frame(id, "head", `<head><!-- svc/styles {"name": "a"} /--></head>`);
    await frame(id, "aside", `<!-- svc/styles {"name": "lone"} /-->`);
    const on = await page(id, "Styled", "head");
    const before = await urlOf(id, "a");
    assert.ok((await visit(t, on.path, host)).body.includes(`href="${before}"`));

    const r = await put(id, "c", ".c{color:green}");
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      r.body.rebaked.frames.map((f: any) => [f.slug, f.because]),
      [["head", ["style.a"]]],
    );
    assert.ok(r.body.rebaked.pages.includes(on.id));
    const after = await urlOf(id, "a");
    assert.notEqual(after, before, "a's bundle holds c: a new address");
    const shown = (await visit(t, on.path, host)).body;
    assert.ok(shown.includes(`href="${after}"`), "the page links a's new address");
    const served = await t.app.inject({ method: "GET", url: after, headers: { host } });
    assert.equal(served.body, ".c{color:green}.b{color:red}.a{color:red}");
    const refused = await t.call("DELETE", at(id, "/styles/c"));
    assert.deepEqual(
      [refused.status, refused.body.frames.map((f: any) => f.slug), refused.body.imported_by],
      [409, ["head"], ["b"]],
      "in use by the frame linking a, which imports it through b",
    );
  });

  it("a dry run of that write names the same frame and page in rebaked (planned) and changes nothing", async () => {
    const id = await site();
    await put(id, "c", ".c{color:red}");
    await put(id, "b", `@import "c";`);
    await put(id, "a", `@import "b";`);
    await frame(id, "head", `<!-- svc/styles {"names": ["a"]} /-->`);
    await frame(id, "unrelated", "<p>x</p>");
    const on = await page(id, "Styled", "head");
    const urls = [await urlOf(id, "a"), await urlOf(id, "b"), await urlOf(id, "c")];
    const shownBefore = (await visit(t, on.path, host)).body;

    const dry = await put(id, "c", ".c{color:blue}", "?dry_run=1");
    assert.equal(dry.status, 200, dry.text);
    assert.deepEqual([dry.body.dry_run, dry.body.applied, dry.body.rebaked.status], [true, false, "planned"]);
    assert.deepEqual(
      dry.body.rebaked.frames.map((f: any) => [f.slug, f.because]),
      [["head", ["style.a"]]],
    );
    assert.deepEqual(dry.body.rebaked.pages, [on.id]);
    assert.deepEqual([await urlOf(id, "a"), await urlOf(id, "b"), await urlOf(id, "c")], urls, "no bundle changed");
    assert.equal((await t.call("GET", at(id, "/styles/c"))).body.style.css, ".c{color:red}");
    assert.equal((await visit(t, on.path, host)).body, shownBefore);
  });

  it("PUT ?dry_run=1 of a new stylesheet whose name frames already link names them (and their embedders) in rebaked and creates nothing; the real write then links it", async () => {
    const id = await site();
    const waiting = await frame(id, "waiting", `<head><!-- svc/styles {"names": ["later", "missing-too"]} /--></head>`);
    const layout = await frame(id, "layout", `<!-- svc/frame {"name": "waiting"} /-->`);
    await frame(id, "plain", "<p>x</p>");
    const on = await page(id, "Waiting", "waiting");
    assert.doesNotMatch((await visit(t, on.path, host)).body, /<link /, "a name the site does not have prints nothing");
    const copies = async () =>
      Number(
        (
          await t.store.db
            .selectFrom("style_copies")
            .select((eb) => eb.fn.countAll().as("n"))
            .where("site_id", "=", id)
            .executeTakeFirstOrThrow()
        ).n,
      );

    const dry = await put(id, "later", "body{margin:0}", "?dry_run=1");
    assert.equal(dry.status, 200, dry.text);
    assert.equal(dry.body.style.css, "body{margin:0}");
    assert.deepEqual(
      dry.body.rebaked.frames.map((f: any) => [f.id, f.slug, f.because]),
      [
        [layout.id, "layout", ["style.later"]],
        [waiting.id, "waiting", ["style.later"]],
      ],
    );
    assert.deepEqual(dry.body.rebaked.pages, [on.id]);
    const missing = await t.call("GET", at(id, "/styles/later"));
    assert.deepEqual([missing.status, missing.body.error], [404, "style_not_found"], "nothing created");
    assert.deepEqual((await t.call("GET", at(id, "/styles"))).body.styles, []);
    assert.equal(await copies(), 0);
    assert.doesNotMatch((await visit(t, on.path, host)).body, /<link /);

    const real = await put(id, "later", "body{margin:0}");
    assert.equal(real.status, 201, real.text);
    assert.deepEqual(slugs(real.body.rebaked), ["layout", "waiting"]);
    assert.ok((await visit(t, on.path, host)).body.includes(`<link rel="stylesheet" href="${real.body.style.url}">`));
  });

  it("GET /frames/{ref} of a frame with svc/styles lists style.<name> in sources for each name it links", async () => {
    const id = await site();
    await put(id, "reset", "*{margin:0}");
    const linked = await frame(
      id,
      "linked",
      `<head><!-- svc/styles {"names": ["reset", "theme"]} /--><!-- svc/styles {"name": "print"} /--></head>`,
    );
    for (const ref of ["linked", linked.id]) {
      const r = await t.call("GET", at(id, `/frames/${ref}`));
      assert.equal(r.status, 200, r.text);
      const styleSources = r.body.frame.sources.filter((s: string) => s.startsWith("style."));
      assert.deepEqual(
        styleSources.sort(),
        ["style.print", "style.reset", "style.theme"],
        "every name linked, present or not",
      );
    }
    const outer = await frame(id, "outer", `<!-- svc/frame {"name": "linked"} /-->`);
    const r = await t.call("GET", at(id, `/frames/${outer.slug}`));
    assert.deepEqual(
      r.body.frame.sources.filter((s: string) => s.startsWith("style.")),
      [],
      "an embedding frame's own sources do not repeat them",
    );
  });

  it("409 style_in_use lists the frames whose own markup links the stylesheet or a stylesheet importing it, not the frames embedding them; ?force=1 rebakes those too and their pages drop the link", async () => {
    const id = await site();
    await put(id, "reset", "*{margin:0}");
    await put(id, "main", `@import "reset";\nbody{color:#222}`);
    const direct = await frame(id, "direct", `<head><!-- svc/styles {"name": "reset"} /--></head>`);
    const viaImporter = await frame(id, "via-importer", `<head><!-- svc/styles {"name": "main"} /--></head>`);
    await frame(id, "layout", `<body><!-- svc/frame {"name": "direct"} /--></body>`);
    await frame(id, "wrapper", `<!-- svc/partial {"ref": "via-importer"} /-->`);
    await frame(id, "plain", "<p>x</p>");
    const onLayout = await page(id, "Layout", "layout");
    const onWrapper = await page(id, "Wrapper", "wrapper");
    const resetUrl = await urlOf(id, "reset");
    const mainUrl = await urlOf(id, "main");
    assert.ok((await visit(t, onLayout.path, host)).body.includes(`href="${resetUrl}"`));

    const refused = await t.call("DELETE", at(id, "/styles/reset"));
    assert.equal(refused.status, 409, refused.text);
    assert.equal(refused.body.error, "style_in_use");
    assert.deepEqual(
      refused.body.frames,
      [direct, viaImporter].map(({ id: frameId, slug }) => ({ id: frameId, slug })),
    );
    assert.deepEqual(refused.body.imported_by, ["main"]);
    assert.equal(await urlOf(id, "reset"), resetUrl, "nothing deleted");

    const forced = await t.call("DELETE", at(id, "/styles/reset?force=1"));
    assert.equal(forced.status, 200, forced.text);
    assert.deepEqual(slugs(forced.body.rebaked).sort(), ["direct", "layout", "via-importer", "wrapper"]);
    for (const p of [onLayout, onWrapper]) assert.ok(forced.body.rebaked.pages.includes(p.id), `page ${p.id}`);
    const layoutShown = (await visit(t, onLayout.path, host)).body;
    assert.doesNotMatch(layoutShown, /<link /, "the page on the embedding frame drops the link");
    const newMain = await urlOf(id, "main");
    assert.notEqual(newMain, mainUrl, "main is bundled without reset");
    const wrapperShown = (await visit(t, onWrapper.path, host)).body;
    assert.ok(
      wrapperShown.includes(`href="${newMain}"`) && !wrapperShown.includes(mainUrl),
      "the page on the frame embedding the importer's linker links main's new address",
    );
  });
});

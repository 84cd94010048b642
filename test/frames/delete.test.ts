// DELETE /frames/{ref} (docs/frames.md, "Delete") unbinds its pages (static copies removed, the pages
// answer 404), leaves embedders as written, and warns about them.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../support/app.ts";
import { assign, codes, createFrame, createPage, embed, FRAMES, getFrame, publicPage, refused } from "./helpers.ts";

describe("frames: DELETE", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("answers deleted {id, slug, block, element, modifier}, unbound_pages, referenced_by, warnings, bake", async () => {
    const doomed = await createFrame(t, "doomed__part--x", "<main>doomed</main>");
    const embedderHtml = `<div>${embed("doomed__part--x")}</div>`;
    await createFrame(t, "doomed-user", embedderHtml);
    await createFrame(t, "doomed-user-by-id", embed(doomed.frame.id, "id"));
    const p1 = await createPage(t, { title: "Doomed one", slug: "doomed-one" });
    const p2 = await createPage(t, { title: "Doomed two", slug: "doomed-two" });
    await assign(t, "doomed__part--x", p2.id);
    await assign(t, "doomed__part--x", p1.id);
    for (const path of ["/doomed-one/", "/doomed-two/"]) {
      const shown = await publicPage(t, path);
      assert.equal(shown.status, 200, path);
      assert.equal(shown.printed, "static", path);
    }

    const r = await t.call("DELETE", `${FRAMES}/doomed__part--x`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.success, true);
    assert.equal(r.body.site_id, 1);
    assert.deepEqual(r.body.deleted, {
      id: doomed.frame.id,
      slug: "doomed__part--x",
      block: "doomed",
      element: "part",
      modifier: "x",
    });
    assert.deepEqual(r.body.unbound_pages, [p1.id, p2.id]);
    assert.deepEqual(r.body.referenced_by, ["doomed-user", "doomed-user-by-id"]);
    assert.deepEqual(codes(r.body.warnings), [
      "frame_ref_missing",
      "frame_ref_missing",
      "pages_unbound",
      "pages_offline",
      "pages_offline",
    ]);
    assert.deepEqual(
      r.body.warnings.filter((w: any) => w.code === "frame_ref_missing").map((w: any) => w.frame),
      ["doomed-user", "doomed-user-by-id"],
    );
    // Both pages answered publicly: each is named with the address it answered at.
    assert.deepEqual(
      r.body.warnings.filter((w: any) => w.code === "pages_offline").map((w: any) => [w.page, new URL(w.url).pathname]),
      [
        [p1.id, "/doomed-one/"],
        [p2.id, "/doomed-two/"],
      ].sort((a, b) => (a[0] as number) - (b[0] as number)),
    );
    assert.equal(r.body.bake.status, "ok");
    // Both embedders are rebaked, the one naming the frame by id too.
    assert.deepEqual(
      r.body.rebaked.frames.map((f: any) => [f.slug, f.because]),
      [
        ["doomed-user", ["frame doomed__part--x"]],
        ["doomed-user-by-id", ["frame doomed__part--x"]],
      ],
    );

    refused(await t.call("GET", `${FRAMES}/doomed__part--x`), 404, "frame_not_found");
    refused(await t.call("GET", `${FRAMES}/${doomed.frame.id}`), 404, "frame_not_found");
    // Embedders are left as written.
    assert.equal((await getFrame(t, "doomed-user")).html, embedderHtml);
    assert.deepEqual((await getFrame(t, "doomed-user")).frame_refs, ["doomed__part--x"]);
    // The pages have no frame any more, no static copy, and answer 404.
    for (const page of [p1, p2]) {
      const read = await t.call("GET", `/api/site/1/pages/${page.id}`);
      assert.equal(read.body.page.frame, null);
      assert.equal(read.body.page.static.published, false);
    }
    for (const path of ["/doomed-one/", "/doomed-two/"]) assert.equal((await publicPage(t, path)).status, 404, path);
  });

  it("a page on a frame that embeds the deleted frame by id stops showing its output at once", async () => {
    const inner = await createFrame(t, "id-inner", "<b>inner by id</b>");
    await createFrame(t, "id-outer", `<div>${embed(inner.frame.id, "id")}</div>`);
    const page = await createPage(t, { title: "By id", slug: "by-id" });
    await assign(t, "id-outer", page.id);
    assert.match((await publicPage(t, "/by-id/")).body, /inner by id/);
    const r = await t.call("DELETE", `${FRAMES}/id-inner`);
    assert.deepEqual(r.body.rebaked.pages, [page.id]);
    const shown = await publicPage(t, "/by-id/");
    assert.equal(shown.status, 200);
    assert.doesNotMatch(shown.body, /inner by id/);
    assert.match(r.body.warnings[0].message, /by its id/);
  });

  it("a page on an on-request frame that was cached answers 404 after the delete, too", async () => {
    await createFrame(t, "live-doomed", `<h1 data-op-bind='{"text": "page.title"}'></h1>`);
    const page = await createPage(t, { title: "Live doomed", slug: "live-doomed" });
    await assign(t, "live-doomed", page.id);
    assert.equal((await publicPage(t, "/live-doomed/")).printed, "on_request");
    assert.equal((await publicPage(t, "/live-doomed/")).printed, "cache");
    const r = await t.call("DELETE", `${FRAMES}/live-doomed`);
    assert.deepEqual(r.body.unbound_pages, [page.id]);
    assert.equal((await publicPage(t, "/live-doomed/")).status, 404);
  });

  it("with bake: false the frame is deleted, bake is skipped, and the unbound pages still answer 404 at once", async () => {
    await createFrame(t, "quiet-doomed", "<main>quiet</main>");
    await createFrame(t, "quiet-user", `<div>${embed("quiet-doomed")}</div>`);
    const page = await createPage(t, { title: "Quiet", slug: "quiet" });
    const userPage = await createPage(t, { title: "Quiet user", slug: "quiet-user" });
    await assign(t, "quiet-doomed", page.id);
    await assign(t, "quiet-user", userPage.id);
    assert.equal((await publicPage(t, "/quiet/")).status, 200);
    assert.match((await publicPage(t, "/quiet-user/")).body, /quiet/);
    const r = await t.call("DELETE", `${FRAMES}/quiet-doomed`, { body: { bake: false } });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.bake, { status: "skipped" });
    assert.deepEqual(r.body.unbound_pages, [page.id]);
    assert.deepEqual(r.body.rebaked.skipped, ["quiet-user"]);
    assert.equal((await publicPage(t, "/quiet/")).status, 404);
    // The embedder's page no longer shows the deleted frame's output, even without a bake.
    const userShown = await publicPage(t, "/quiet-user/");
    assert.equal(userShown.status, 200);
    assert.doesNotMatch(userShown.body, /<main>quiet<\/main>/);
  });

  it("an unknown frame is 404 frame_not_found; deleting twice is 404 the second time", async () => {
    await createFrame(t, "twice", "<p></p>");
    assert.equal((await t.call("DELETE", `${FRAMES}/twice`)).status, 200);
    refused(await t.call("DELETE", `${FRAMES}/twice`), 404, "frame_not_found");
    refused(await t.call("DELETE", `${FRAMES}/0000000000000000`), 404, "frame_not_found");
  });

  it("after a delete the slug is free again and a waiting embedder prints the new frame", async () => {
    await createFrame(t, "reborn", "<p>first life</p>");
    await createFrame(t, "reborn-user", `<div>${embed("reborn")}</div>`);
    const page = await createPage(t, { title: "Reborn", slug: "reborn-page" });
    await assign(t, "reborn-user", page.id);
    await t.call("DELETE", `${FRAMES}/reborn`);
    assert.doesNotMatch((await publicPage(t, "/reborn-page/")).body, /first life/);
    const again = await t.call("POST", FRAMES, { body: { slug: "reborn", html: "<p>second life</p>" } });
    assert.equal(again.status, 201);
    assert.deepEqual(
      again.body.rebaked.frames.map((f: any) => f.slug),
      ["reborn-user"],
    );
    assert.match((await publicPage(t, "/reborn-page/")).body, /second life/);
  });

  it("DELETE works on the legacy address", async () => {
    await createFrame(t, "legacy-delete", "<p></p>");
    const r = await t.call("DELETE", "/api/frames/legacy-delete");
    assert.equal(r.status, 200);
    assert.equal(r.body.deleted.slug, "legacy-delete");
  });
});

// POST /frames/{ref}/assign puts a frame on a page (by id, slug or path) or
// takes it off; the answer says what became of the page's static copy and of the republish.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../support/app.ts";
import { stalledExecutor } from "../../src/publish/executor.ts";
import { codes, createFrame, createPage, FRAMES, getFrame, publicPage, refused } from "./helpers.ts";

describe("frames: assign", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("puts the frame on a page by id: page, meta_key, cleared false, static written, republish ok; the page answers", async () => {
    const frame = await createFrame(t, "layout", "<main>layout</main>");
    const page = await createPage(t, { title: "Home page", slug: "home-page" });
    assert.equal((await publicPage(t, "/home-page/")).status, 404);
    const r = await t.call("POST", `${FRAMES}/layout/assign`, { body: { page: page.id } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.success, true);
    assert.equal(r.body.site_id, 1);
    assert.equal(r.body.frame.id, frame.frame.id);
    assert.deepEqual(r.body.frame.pages, [page.id]);
    assert.deepEqual(r.body.page, { id: page.id, title: "Home page", url: "http://localhost:8080/home-page/" });
    assert.equal(r.body.meta_key, "_svc_frame");
    assert.equal(r.body.cleared, false);
    assert.deepEqual(Object.keys(r.body.static).sort(), [
      "bytes",
      "changed",
      "message",
      "published",
      "reason",
      "removed",
      "url",
      "was_published",
      "was_url",
    ]);
    assert.equal(r.body.static.published, true);
    assert.equal(r.body.static.url, "http://localhost:8080/home-page/");
    assert.equal(r.body.static.bytes, Buffer.byteLength("<main>layout</main>"));
    assert.equal(r.body.static.was_published, false);
    assert.equal(r.body.static.was_url, null);
    assert.equal(r.body.static.removed, false);
    assert.equal(r.body.static.changed, true);
    assert.equal(r.body.republish.status, "ok");
    const shown = await publicPage(t, "/home-page/");
    assert.equal(shown.status, 200);
    assert.equal(shown.printed, "static");
    assert.equal(shown.body, "<main>layout</main>");
    const read = await t.call("GET", `/api/site/1/pages/${page.id}`);
    assert.equal(read.body.page.frame, "layout");
  });

  it("dry_run (in the body, or ?dry_run=1) answers what the assignment would do and changes nothing: the page keeps its frame and answer, no revision", async () => {
    await createFrame(t, "dry-layout", "<main>dry layout</main>");
    const page = await createPage(t, { title: "Dry page", slug: "dry-page" });
    const revisions = async () => (await t.call("GET", `/api/site/1/pages/${page.id}/revisions`)).body.total;
    const kept = await revisions();
    assert.equal(typeof kept, "number", "the page's revisions are counted");
    for (const [label, url, body] of [
      ["body", `${FRAMES}/dry-layout/assign`, { page: page.id, dry_run: true }],
      ["query", `${FRAMES}/dry-layout/assign?dry_run=1`, { page: page.id }],
    ] as const) {
      const r = await t.call("POST", url, { body });
      assert.equal(r.status, 200, `${label}: ${r.text}`);
      assert.deepEqual(
        [r.body.dry_run, r.body.applied, r.body.cleared, r.body.republish.status],
        [true, false, false, "skipped"],
        label,
      );
      assert.deepEqual(
        [r.body.static.published, r.body.static.changed],
        [false, false],
        `${label}: the static copy is as it was`,
      );
      assert.equal(
        (await t.call("GET", `/api/site/1/pages/${page.id}`)).body.page.frame,
        null,
        `${label}: no frame put on the page`,
      );
      assert.equal((await publicPage(t, "/dry-page/")).status, 404, `${label}: the page does not answer`);
      assert.equal(await revisions(), kept, `${label}: no revision`);
    }
    refused(
      await t.call("POST", `${FRAMES}/nowhere/assign?dry_run=1`, { body: { page: page.id } }),
      404,
      "frame_not_found",
    );
    assert.equal(
      (await t.call("POST", `${FRAMES}/dry-layout/assign`, { body: { page: page.id } })).body.static.published,
      true,
      "then assigned for real",
    );
    const clear = await t.call("POST", `${FRAMES}/dry-layout/assign?dry_run=true`, {
      body: { page: page.id, clear: true },
    });
    assert.deepEqual(
      [clear.body.dry_run, clear.body.cleared],
      [true, true],
      "a dry run of clear says it would take the frame off",
    );
    assert.equal((await publicPage(t, "/dry-page/")).status, 200, "and the page still answers");
  });

  it("the page may be named by slug or by path; the frame by id", async () => {
    const frame = await createFrame(t, "by-ref", "<main>by ref</main>");
    const parent = await createPage(t, { title: "Company", slug: "company" });
    const child = await createPage(t, { title: "Team", slug: "team-unique", parent: parent.id });
    const bySlug = await t.call("POST", `${FRAMES}/${frame.frame.id}/assign`, { body: { page: "company" } });
    assert.equal(bySlug.status, 200);
    assert.equal(bySlug.body.page.id, parent.id);
    const byPath = await t.call("POST", `${FRAMES}/by-ref/assign`, { body: { page: "/company/team-unique" } });
    assert.equal(byPath.status, 200, byPath.text);
    assert.equal(byPath.body.page.id, child.id);
    const byIdString = await t.call("POST", `${FRAMES}/by-ref/assign`, { body: { page: String(child.id) } });
    assert.equal(byIdString.body.page.id, child.id);
    assert.equal((await publicPage(t, "/company/team-unique/")).status, 200);
  });

  it("a frame that renders on request: static.published false with reason frame_renders_on_request; the page renders per request", async () => {
    await createFrame(t, "live-layout", `<h1 data-op-bind='{"text": "page.title"}'></h1>`);
    const page = await createPage(t, { title: "Live title", slug: "live-page" });
    const r = await t.call("POST", `${FRAMES}/live-layout/assign`, { body: { page: "live-page" } });
    assert.equal(r.body.static.published, false);
    assert.equal(r.body.static.reason, "frame_renders_on_request");
    const shown = await publicPage(t, "/live-page/");
    assert.equal(shown.printed, "on_request");
    assert.match(shown.body, /<h1>Live title<\/h1>/);
    assert.equal(page.id, r.body.page.id);
  });

  it("moving a page to another frame replaces its static copy; clear takes the frame off and removes it (the page answers 404)", async () => {
    await createFrame(t, "first-layout", "<main>first</main>");
    await createFrame(t, "second-layout", "<main>second</main>");
    const page = await createPage(t, { title: "Mover", slug: "mover" });
    await t.call("POST", `${FRAMES}/first-layout/assign`, { body: { page: page.id } });
    assert.equal((await publicPage(t, "/mover/")).body, "<main>first</main>");
    const moved = await t.call("POST", `${FRAMES}/second-layout/assign`, { body: { page: page.id } });
    assert.equal(moved.body.static.was_published, true);
    assert.equal(moved.body.static.published, true);
    assert.equal(moved.body.static.changed, true);
    assert.equal((await publicPage(t, "/mover/")).body, "<main>second</main>");
    assert.equal("pages" in (await t.call("GET", FRAMES, { query: { block: "first-layout" } })).body.frames[0], false);

    const cleared = await t.call("POST", `${FRAMES}/second-layout/assign`, { body: { page: "mover", clear: true } });
    assert.equal(cleared.status, 200);
    assert.equal(cleared.body.cleared, true);
    assert.equal(cleared.body.static.published, false);
    assert.equal(cleared.body.static.was_published, true);
    assert.equal(cleared.body.static.removed, true);
    assert.equal(cleared.body.static.reason, "no_frame");
    assert.equal(cleared.body.republish.status, "ok");
    assert.equal((await t.call("GET", `/api/site/1/pages/${page.id}`)).body.page.frame, null);
    assert.equal((await publicPage(t, "/mover/")).status, 404);
    assert.deepEqual((await getFrame(t, "second-layout")).pages, []);
  });

  it("clear on a page that stands on another frame changes nothing and warns frame_not_on_page", async () => {
    await createFrame(t, "kept-layout", "<main>kept</main>");
    await createFrame(t, "other-layout", "<main>other</main>");
    const page = await createPage(t, { title: "Keeper", slug: "keeper" });
    await t.call("POST", `${FRAMES}/kept-layout/assign`, { body: { page: page.id } });
    const r = await t.call("POST", `${FRAMES}/other-layout/assign`, { body: { page: page.id, clear: true } });
    assert.equal(r.status, 200);
    assert.equal(r.body.cleared, false);
    assert.deepEqual(codes(r.body.warnings), ["frame_not_on_page"]);
    assert.equal((await t.call("GET", `/api/site/1/pages/${page.id}`)).body.page.frame, "kept-layout");
    assert.equal((await publicPage(t, "/keeper/")).body, "<main>kept</main>");
  });

  it("bake: false assigns without republishing (republish.status skipped); the page renders on request meanwhile", async () => {
    await createFrame(t, "old-look", "<main>old look</main>");
    await createFrame(t, "new-look", "<main>new look</main>");
    const page = await createPage(t, { title: "Look", slug: "look" });
    await t.call("POST", `${FRAMES}/old-look/assign`, { body: { page: page.id } });
    assert.equal((await publicPage(t, "/look/")).body, "<main>old look</main>");
    const r = await t.call("POST", `${FRAMES}/new-look/assign`, { body: { page: page.id, bake: false } });
    assert.equal(r.status, 200);
    assert.equal(r.body.republish.status, "skipped");
    const shown = await publicPage(t, "/look/");
    assert.equal(shown.body, "<main>new look</main>");
    assert.equal(shown.printed, "on_request");
  });

  it("refusals: page_required, frame_not_found, page_not_found, ambiguous_page (two pages with one slug under different parents)", async () => {
    await createFrame(t, "refusing-layout", "<main></main>");
    const url = `${FRAMES}/refusing-layout/assign`;
    refused(await t.call("POST", url, { body: {} }), 400, "page_required");
    refused(await t.call("POST", url, { body: { page: "  " } }), 400, "page_required");
    refused(await t.call("POST", url, { body: { page: null } }), 400, "page_required");
    refused(await t.call("POST", `${FRAMES}/no-such-layout/assign`, { body: { page: 1 } }), 404, "frame_not_found");
    refused(await t.call("POST", url, { body: { page: 99999 } }), 404, "page_not_found");
    refused(await t.call("POST", url, { body: { page: "no-such-page" } }), 404, "page_not_found");
    refused(await t.call("POST", url, { body: { page: "/no/such/path" } }), 404, "page_not_found");

    const blog = await createPage(t, { title: "Blog", slug: "blog" });
    const shop = await createPage(t, { title: "Shop", slug: "shop" });
    const a = await createPage(t, { title: "News", slug: "news", parent: blog.id });
    const b = await createPage(t, { title: "News", slug: "news", parent: shop.id });
    assert.notEqual(a.id, b.id);
    const ambiguous = refused(await t.call("POST", url, { body: { page: "news" } }), 409, "ambiguous_page");
    assert.deepEqual(ambiguous.candidates.map((c: any) => c.id).sort(), [a.id, b.id].sort());
    // The path tells them apart.
    assert.equal((await t.call("POST", url, { body: { page: "/shop/news" } })).body.page.id, b.id);
  });

  it("assign works on the legacy address", async () => {
    await createFrame(t, "legacy-layout", "<main>legacy</main>");
    const page = await createPage(t, { title: "Legacy page", slug: "legacy-page" });
    const r = await t.call("POST", "/api/frames/legacy-layout/assign", { body: { page: "legacy-page" } });
    assert.equal(r.status, 200);
    assert.equal(r.body.page.id, page.id);
  });
});

describe("frames: assign when the renderer does not answer", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp({ publishing: { executor: stalledExecutor, timeoutMs: 50 } })));
  after(() => t.close());

  it("a failed republish keeps the assignment: republish.status unavailable, and GET /pages/{ref} shows the frame", async () => {
    // A frame that renders on request needs no renderer to be written; a baked one does.
    await createFrame(t, "stalled-live", `<h1 data-op-bind='{"text": "page.title"}'></h1>`);
    const baked = await t.call("POST", FRAMES, {
      body: { slug: "stalled-layout", html: "<main>x</main>", bake: false },
    });
    assert.equal(baked.status, 201);
    const page = await createPage(t, { title: "Stalled", slug: "stalled" });
    const r = await t.call("POST", `${FRAMES}/stalled-layout/assign`, { body: { page: "stalled" } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.republish.status, "unavailable");
    assert.equal(r.body.cleared, false);
    assert.deepEqual(r.body.frame.pages, [page.id]);
    const read = await t.call("GET", "/api/site/1/pages/stalled");
    assert.equal(read.body.page.frame, "stalled-layout");
    assert.deepEqual((await t.call("GET", `${FRAMES}/stalled-layout`)).body.frame.pages, [page.id]);
  });
});

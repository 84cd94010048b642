// PUT /frames/{ref} replaces the markup (and may rename), rebaking every
// frame that embeds it, transitively, and the pages on them at once.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../support/app.ts";
import {
  assign,
  codes,
  createFrame,
  createPage,
  embed,
  FRAMES,
  getFrame,
  publicPage,
  refused,
  sha256,
} from "./helpers.ts";

describe("frames: PUT", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("replaces the markup: updated true, a new sha256, bytes and updated_at; id and created_at stay", async () => {
    const created = await createFrame(t, "replaced", "<p>one</p>");
    const r = await t.call("PUT", `${FRAMES}/replaced`, { body: { html: "<p>two, longer</p>" } });
    assert.equal(r.status, 200);
    assert.equal(r.body.applied, true);
    assert.equal(r.body.updated, true);
    assert.equal(r.body.frame.id, created.frame.id);
    assert.equal(r.body.frame.created_at_gmt, created.frame.created_at_gmt);
    assert.equal(r.body.frame.sha256, sha256("<p>two, longer</p>"));
    assert.equal(r.body.frame.bytes, 18);
    assert.equal("rebaked" in r.body, true);
    assert.equal(r.body.bake.status, "ok");
    const back = await getFrame(t, created.frame.id);
    assert.equal(back.html, "<p>two, longer</p>");
  });

  it("accepts the markup and content aliases and reports the analysis like POST", async () => {
    await createFrame(t, "aliased", "<p>a</p>");
    const r = await t.call("PUT", `${FRAMES}/aliased`, {
      body: { content: `<h1 data-op-bind='{"text": "page.title"}'></h1>`, type: "x" },
    });
    assert.equal(r.status, 200);
    assert.deepEqual([r.body.renders_on_request, r.body.live_reasons, r.body.binds], [true, ["bind page.title"], 1]);
    assert.deepEqual(codes(r.body.warnings), ["type_ignored"]);
  });

  it("refuses like POST: frame_html_required, frame_url_not_supported, frame_too_large, invalid_slug, frame_ref_conflict; and 404 frame_not_found", async () => {
    await createFrame(t, "refusing", "<p>r</p>");
    refused(await t.call("PUT", `${FRAMES}/refusing`, { body: {} }), 400, "frame_html_required");
    refused(
      await t.call("PUT", `${FRAMES}/refusing`, { body: { html: "<p></p>", url: "/x/" } }),
      400,
      "frame_url_not_supported",
    );
    const big = refused(
      await t.call("PUT", `${FRAMES}/refusing`, { body: { html: "x".repeat(2_097_153) } }),
      413,
      "frame_too_large",
    );
    assert.equal(big.max_bytes, 2_097_152);
    refused(
      await t.call("PUT", `${FRAMES}/refusing`, { body: { html: "<p></p>", slug: "Bad Slug" } }),
      400,
      "invalid_slug",
    );
    await createFrame(t, "ref-one", "1");
    await createFrame(t, "ref-two", "2");
    refused(
      await t.call("PUT", `${FRAMES}/refusing`, {
        body: { html: `<!-- svc/frame {"name": "ref-one", "slug": "ref-two"} /-->` },
      }),
      400,
      "frame_ref_conflict",
    );
    refused(await t.call("PUT", `${FRAMES}/nowhere`, { body: { html: "<p></p>" } }), 404, "frame_not_found");
    assert.equal((await getFrame(t, "refusing")).html, "<p>r</p>");
  });

  it("a PUT that would make the frame embed itself, by slug or through an id reference elsewhere, is 400 frame_cycle", async () => {
    const a = await createFrame(t, "cyc-a", "<p>a</p>");
    await createFrame(t, "cyc-b", embed(a.frame.id, "id"));
    const body = refused(
      await t.call("PUT", `${FRAMES}/cyc-a`, { body: { html: embed("cyc-b") } }),
      400,
      "frame_cycle",
    );
    assert.deepEqual(body.cycle, ["cyc-a", "cyc-b", "cyc-a"]);
    refused(await t.call("PUT", `${FRAMES}/cyc-a`, { body: { html: embed(a.frame.id, "id") } }), 400, "frame_cycle");
    assert.equal((await getFrame(t, "cyc-a")).html, "<p>a</p>");
  });

  it("dry_run on PUT reports without writing and without bake", async () => {
    await createFrame(t, "dry-put", "<p>before</p>");
    const r = await t.call("PUT", `${FRAMES}/dry-put`, { body: { html: "<p>after</p>", dry_run: true } });
    assert.equal(r.status, 200);
    assert.deepEqual([r.body.applied, r.body.updated, r.body.dry_run, "bake" in r.body], [false, true, true, false]);
    assert.equal(r.body.frame.sha256, sha256("<p>after</p>"));
    assert.equal((await getFrame(t, "dry-put")).html, "<p>before</p>");
  });

  it("rebaked covers every frame that embeds it, transitively (a → b → c: PUT c rebakes b and a), and the page on a shows the new text at once", async () => {
    await createFrame(t, "chain-c", "<p>old text</p>");
    await createFrame(t, "chain-b", `<section>${embed("chain-c")}</section>`);
    await createFrame(t, "chain-a", `<main><!-- svc/partial {"name": "chain-b"} /--></main>`);
    const page = await createPage(t, { title: "Chain", slug: "chain" });
    await assign(t, "chain-a", page.id);
    const before = await publicPage(t, "/chain/");
    assert.equal(before.status, 200);
    assert.match(before.body, /old text/);

    const r = await t.call("PUT", `${FRAMES}/chain-c`, { body: { html: "<p>new text</p>" } });
    assert.equal(r.status, 200);
    assert.deepEqual(
      r.body.rebaked.frames.map((f: any) => [f.slug, f.because, f.bake]),
      [
        ["chain-a", ["frame chain-c"], "baked"],
        ["chain-b", ["frame chain-c"], "baked"],
      ],
    );
    assert.equal(r.body.rebaked.total, 2);
    assert.equal(r.body.rebaked.baked, 2);
    assert.deepEqual(r.body.rebaked.pages, [page.id]);
    assert.deepEqual(r.body.rebaked.cache.pages, [page.id]);
    assert.deepEqual(r.body.rebaked.cache.flushed.urls.urls, ["/chain/"]);
    // The own bake is separate from the embedders' rebake.
    assert.equal(r.body.bake.response.frame_id, r.body.frame.id);

    const afterPut = await publicPage(t, "/chain/");
    assert.equal(afterPut.status, 200);
    assert.equal(afterPut.printed, "static");
    assert.match(afterPut.body, /new text/);
    assert.doesNotMatch(afterPut.body, /old text/);
  });

  it("PUT with a new slug renames: references in other frames follow, and the answer carries renamed", async () => {
    await createFrame(t, "put-old", "<p>x</p>");
    await createFrame(t, "put-user", `<div>${embed("put-old")}</div>`);
    const r = await t.call("PUT", `${FRAMES}/put-old`, { body: { slug: "Put-New", html: "<p>y</p>" } });
    assert.equal(r.status, 200);
    assert.equal(r.body.frame.slug, "put-new");
    assert.deepEqual(r.body.renamed, {
      from: "put-old",
      to: "put-new",
      frames_updated: ["put-user"],
      details: [{ id: (await getFrame(t, "put-user")).id, slug: "put-user", replaced: 1 }],
    });
    assert.equal((await getFrame(t, "put-user")).html, `<div>${embed("put-new")}</div>`);
    refused(await t.call("GET", `${FRAMES}/put-old`), 404, "frame_not_found");
    assert.deepEqual((await getFrame(t, "put-new")).referenced_by, ["put-user"]);
  });

  it("PUT to a taken slug is 409 slug_taken with the occupant's id; nothing changes", async () => {
    const occupant = await createFrame(t, "put-taken", "<p>t</p>");
    await createFrame(t, "put-mover", "<p>m</p>");
    const body = refused(
      await t.call("PUT", `${FRAMES}/put-mover`, { body: { slug: "put-taken", html: "<p>z</p>" } }),
      409,
      "slug_taken",
    );
    assert.equal(body.id, occupant.frame.id);
    assert.equal((await getFrame(t, "put-mover")).html, "<p>m</p>");
  });

  it("a PUT rename that would close a loop through a frame waiting for the new slug is 400 frame_cycle", async () => {
    await createFrame(t, "waits-new", embed("loop-target"));
    await createFrame(t, "loop-source", "<p>s</p>");
    refused(
      await t.call("PUT", `${FRAMES}/loop-source`, { body: { slug: "loop-target", html: embed("waits-new") } }),
      400,
      "frame_cycle",
    );
  });

  it("PUT with bake: false saves the markup, bakes nothing, and the page on an embedder still shows the new text (rendered on request)", async () => {
    await createFrame(t, "nb-inner", "<p>inner one</p>");
    await createFrame(t, "nb-outer", `<div>${embed("nb-inner")}</div>`);
    const page = await createPage(t, { title: "No bake", slug: "no-bake" });
    await assign(t, "nb-outer", page.id);
    assert.match((await publicPage(t, "/no-bake/")).body, /inner one/);
    const r = await t.call("PUT", `${FRAMES}/nb-inner`, { body: { html: "<p>inner two</p>", bake: false } });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.bake, { status: "skipped" });
    assert.deepEqual(r.body.rebaked.frames, []);
    assert.deepEqual(r.body.rebaked.skipped, ["nb-outer"]);
    assert.deepEqual(r.body.rebaked.pages, [page.id]);
    const shown = await publicPage(t, "/no-bake/");
    assert.equal(shown.status, 200);
    assert.match(shown.body, /inner two/);
    assert.equal(shown.printed, "on_request");
    // POST /frames/rebake brings the static copy back.
    const rebake = await t.call("POST", `${FRAMES}/rebake`, { body: { frames: ["nb-inner"] } });
    assert.deepEqual(
      rebake.body.rebaked.frames.map((f: any) => f.slug),
      ["nb-inner", "nb-outer"],
    );
    const again = await publicPage(t, "/no-bake/");
    assert.equal(again.printed, "static");
    assert.match(again.body, /inner two/);
  });

  it("PUT works on the legacy address, by id", async () => {
    const created = await createFrame(t, "legacy-put", "<p>1</p>");
    const r = await t.call("PUT", `/api/frames/${created.frame.id}`, { body: { html: "<p>2</p>" } });
    assert.equal(r.status, 200);
    assert.equal((await getFrame(t, "legacy-put")).html, "<p>2</p>");
  });
});

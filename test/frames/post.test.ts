// POST /frames — aliases, dry runs, bake: false, ignored inputs and refusals (docs/frames.md).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../support/app.ts";
import { codes, createFrame, embed, FRAMES, refused, sha256 } from "./helpers.ts";

describe("frames: POST", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("answers 201 with applied true, updated false, the record, the report, bake and rebaked", async () => {
    const r = await t.call("POST", FRAMES, { body: { slug: "created", html: "<p>hi</p>" } });
    assert.equal(r.status, 201);
    assert.equal(r.body.success, true);
    assert.equal(r.body.site_id, 1);
    assert.equal(r.body.applied, true);
    assert.equal(r.body.updated, false);
    assert.equal("html" in r.body.frame, false);
    for (const key of [
      "inserts",
      "inserts_total",
      "sources",
      "frame_refs",
      "binds",
      "renders_on_request",
      "has_doctype",
      "has_body",
      "warnings",
      "frame_refs_missing",
      "bake",
      "rebaked",
    ]) {
      assert.ok(key in r.body, key);
    }
    assert.equal(r.body.bake.status, "ok");
    assert.equal(r.body.rebaked.status, "ok");
    assert.deepEqual(r.body.warnings, []);
  });

  it("`markup` and `content` are aliases of `html`", async () => {
    const viaMarkup = await t.call("POST", FRAMES, { body: { slug: "via-markup", markup: "<p>m</p>" } });
    assert.equal(viaMarkup.status, 201);
    assert.equal(viaMarkup.body.frame.sha256, sha256("<p>m</p>"));
    const viaContent = await t.call("POST", FRAMES, { body: { slug: "via-content", content: "<p>c</p>" } });
    assert.equal(viaContent.status, 201);
    assert.equal((await t.call("GET", `${FRAMES}/via-content`)).body.frame.html, "<p>c</p>");
  });

  it("dry_run returns the full report with dry_run true, applied false, no bake key, and writes nothing", async () => {
    const r = await t.call("POST", FRAMES, {
      body: { slug: "dry", html: `<p data-op-bind='{"text": "page.title"}'></p>${embed("nowhere")}`, dry_run: true },
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.dry_run, true);
    assert.equal(r.body.applied, false);
    assert.equal(r.body.updated, false);
    assert.equal("bake" in r.body, false);
    assert.equal(r.body.frame.slug, "dry");
    assert.equal(r.body.renders_on_request, true);
    assert.deepEqual(r.body.live_reasons, ["bind page.title"]);
    assert.deepEqual(r.body.frame_refs_missing, ["nowhere"]);
    assert.equal(r.headers.etag, undefined);
    refused(await t.call("GET", `${FRAMES}/dry`), 404, "frame_not_found");
    const list = await t.call("GET", FRAMES, { query: { q: "dry" } });
    assert.equal(list.body.total, 0);
  });

  it("?dry_run=1 (as every other write of the API takes it) is a dry run of POST, PUT and PATCH too; ?dry_run=0 writes; another value is 400 invalid_parameter", async () => {
    const post = await t.call("POST", `${FRAMES}?dry_run=1`, { body: { slug: "dry-query", html: "<p>q</p>" } });
    assert.equal(post.status, 200, post.text);
    assert.deepEqual([post.body.dry_run, post.body.applied, "bake" in post.body], [true, false, false]);
    refused(await t.call("GET", `${FRAMES}/dry-query`), 404, "frame_not_found");
    const query = await t.call("POST", `${FRAMES}?dry_run=1`, {
      body: { slug: "dry-query", html: "<p>q</p>", dry_run: false },
    });
    assert.equal(query.body.dry_run, true, "either the query or the body asking is a dry run");

    assert.equal(
      (await t.call("POST", `${FRAMES}?dry_run=0`, { body: { slug: "dry-query", html: "<p>q</p>" } })).status,
      201,
    );
    const put = await t.call("PUT", `${FRAMES}/dry-query?dry_run=true`, { body: { html: "<p>changed</p>" } });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual([put.body.dry_run, put.body.applied], [true, false]);
    const patch = await t.call("PATCH", `${FRAMES}/dry-query?dry_run=1`, { body: { slug: "dry-renamed" } });
    assert.equal(patch.status, 200, patch.text);
    assert.deepEqual([patch.body.dry_run, patch.body.applied, patch.body.frame.slug], [true, false, "dry-renamed"]);
    const stored = await t.call("GET", `${FRAMES}/dry-query`);
    assert.equal(stored.status, 200, "not renamed");
    assert.equal(stored.body.frame.html, "<p>q</p>", "not replaced");
    refused(
      await t.call("PUT", `${FRAMES}/dry-query?dry_run=yes`, { body: { html: "<p>x</p>" } }),
      400,
      "invalid_parameter",
    );
  });

  it("a dry run still refuses what the write would refuse", async () => {
    refused(
      await t.call("POST", FRAMES, { body: { slug: "dry-bad", html: "", dry_run: true } }),
      400,
      "frame_html_required",
    );
    refused(
      await t.call("POST", FRAMES, { body: { slug: "dry-self", html: embed("dry-self"), dry_run: true } }),
      400,
      "frame_cycle",
    );
  });

  it("bake: false answers bake {status: skipped}, bakes nothing, and the frame is saved", async () => {
    const r = await t.call("POST", FRAMES, { body: { slug: "unbaked", html: "<p>u</p>", bake: false } });
    assert.equal(r.status, 201);
    assert.deepEqual(r.body.bake, { status: "skipped" });
    assert.equal(r.body.rebaked.total, 0);
    assert.deepEqual(r.body.rebaked.frames, []);
    assert.equal((await t.call("GET", `${FRAMES}/unbaked`)).status, 200);
  });

  it("type, default/is_default and name are ignored with warnings type_ignored, default_ignored, name_ignored", async () => {
    const r = await t.call("POST", FRAMES, {
      body: { slug: "ignoring", html: "<p></p>", type: "page", default: true, is_default: true, name: "Ignoring" },
    });
    assert.equal(r.status, 201);
    assert.deepEqual(codes(r.body.warnings).sort(), ["default_ignored", "name_ignored", "type_ignored"]);
    const f = (await t.call("GET", `${FRAMES}/ignoring`)).body.frame;
    for (const key of ["type", "default", "is_default", "name", "url"]) assert.equal(key in f, false, key);
  });

  it("an unknown body key is ignored with warning unknown_field", async () => {
    const r = await t.call("POST", FRAMES, { body: { slug: "unknown-key", html: "<p></p>", colour: "red" } });
    assert.equal(r.status, 201);
    assert.deepEqual(
      r.body.warnings.map((w: any) => [w.code, w.field]),
      [["unknown_field", "colour"]],
    );
  });

  it("a call without any body answers the spec's own code, not a validation error", async () => {
    refused(await t.call("POST", FRAMES), 400, "invalid_slug");
    await createFrame(t, "bodiless", "<p></p>");
    refused(await t.call("PUT", `${FRAMES}/bodiless`), 400, "frame_html_required");
    refused(await t.call("PATCH", `${FRAMES}/bodiless`), 400, "nothing_to_update");
    refused(await t.call("POST", `${FRAMES}/bodiless/assign`), 400, "page_required");
  });

  it("a field of the wrong type is 400 invalid_field naming it", async () => {
    const r = refused(await t.call("POST", FRAMES, { body: { slug: "typed", html: 5 } }), 400, "invalid_field");
    assert.equal(r.field, "html");
    refused(
      await t.call("POST", FRAMES, { body: { slug: "typed", html: "<p></p>", bake: "no" } }),
      400,
      "invalid_field",
    );
  });

  it("no markup is 400 frame_html_required (absent, empty or null under every alias)", async () => {
    for (const body of [
      { slug: "no-html" },
      { slug: "no-html", html: "" },
      { slug: "no-html", markup: null },
      { slug: "no-html", content: "" },
    ]) {
      refused(await t.call("POST", FRAMES, { body }), 400, "frame_html_required");
    }
  });

  it("`url` is refused with 400 frame_url_not_supported", async () => {
    refused(
      await t.call("POST", FRAMES, { body: { slug: "with-url", html: "<p></p>", url: "/x/" } }),
      400,
      "frame_url_not_supported",
    );
    refused(await t.call("GET", `${FRAMES}/with-url`), 404, "frame_not_found");
  });

  it("two reference keys naming different frames in one insert are 400 frame_ref_conflict with [key, value] pairs", async () => {
    await createFrame(t, "conf-a", "<p>a</p>");
    await createFrame(t, "conf-b", "<p>b</p>");
    const r = await t.call("POST", FRAMES, {
      body: { slug: "conflicted", html: `<div><!-- svc/frame {"name": "conf-a", "ref": "conf-b"} /--></div>` },
    });
    const body = refused(r, 400, "frame_ref_conflict");
    assert.deepEqual(body.conflicts, [
      ["name", "conf-a"],
      ["ref", "conf-b"],
    ]);
    refused(await t.call("GET", `${FRAMES}/conflicted`), 404, "frame_not_found");
  });

  it("a slug and the id of the same frame do not conflict", async () => {
    const a = await createFrame(t, "agree", "<p>a</p>");
    const r = await t.call("POST", FRAMES, {
      body: { slug: "agreeing", html: `<!-- svc/frame {"name": "Agree", "id": "${a.frame.id}"} /-->` },
    });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body.frame_refs, ["agree"]);
  });

  it("a taken slug is 409 slug_taken with the occupant's id and slug", async () => {
    const first = await createFrame(t, "occupied", "<p>1</p>");
    const body = refused(
      await t.call("POST", FRAMES, { body: { slug: "OCCUPIED", html: "<p>2</p>" } }),
      409,
      "slug_taken",
    );
    assert.equal(body.id, first.frame.id);
    assert.equal(body.slug, "occupied");
    assert.equal((await t.call("GET", `${FRAMES}/occupied`)).body.frame.html, "<p>1</p>");
  });

  it("markup over 2 MB is 413 frame_too_large with max_bytes 2097152; exactly 2 MB is accepted", async () => {
    const over = "a".repeat(2_097_153);
    const body = refused(
      await t.call("POST", FRAMES, { body: { slug: "too-big", html: over } }),
      413,
      "frame_too_large",
    );
    assert.equal(body.max_bytes, 2_097_152);
    // Multi-byte characters count as bytes, not characters: 699,051 × "€" (3 bytes) = 2,097,153 bytes.
    const multibyte = "€".repeat(699_051);
    refused(await t.call("POST", FRAMES, { body: { slug: "too-big", html: multibyte } }), 413, "frame_too_large");
    refused(await t.call("GET", `${FRAMES}/too-big`), 404, "frame_not_found");
    const exact = await t.call("POST", FRAMES, {
      body: { slug: "just-fits", html: "a".repeat(2_097_152), bake: false },
    });
    assert.equal(exact.status, 201);
    assert.equal(exact.body.frame.bytes, 2_097_152);
  });

  it("the size is checked before parsing: oversized markup full of broken inserts is still just frame_too_large", async () => {
    const html = `<!-- svc/frame {"name": "x", "ref": "y"} /-->`.repeat(50_000);
    assert.ok(Buffer.byteLength(html) > 2_097_152);
    refused(await t.call("POST", FRAMES, { body: { slug: "too-big-refs", html } }), 413, "frame_too_large");
  });

  it("a frame that embeds itself is 400 frame_cycle", async () => {
    const body = refused(
      await t.call("POST", FRAMES, { body: { slug: "selfish", html: embed("selfish") } }),
      400,
      "frame_cycle",
    );
    assert.deepEqual(body.cycle, ["selfish", "selfish"]);
    refused(
      await t.call("POST", FRAMES, {
        body: { slug: "selfish-partial", html: `<!-- svc/partial {"slug": "Selfish-Partial"} /-->` },
      }),
      400,
      "frame_cycle",
    );
  });

  it("a new frame closing a loop through frames that already wait for its slug is 400 frame_cycle", async () => {
    // loop-x waits for loop-y (missing); loop-w embeds loop-x. A new loop-y that embeds loop-w would close y → w → x → y.
    await createFrame(t, "loop-x", embed("loop-y"));
    await createFrame(t, "loop-w", `<!-- svc/partial {"name": "loop-x"} /-->`);
    const body = refused(
      await t.call("POST", FRAMES, { body: { slug: "loop-y", html: embed("loop-w") } }),
      400,
      "frame_cycle",
    );
    assert.deepEqual(body.cycle, ["loop-y", "loop-w", "loop-x", "loop-y"]);
    refused(await t.call("GET", `${FRAMES}/loop-y`), 404, "frame_not_found");
  });

  it("rebaked on POST lists the frames that waited for the new slug and now embed it", async () => {
    await createFrame(t, "waiter", `<div>${embed("late")}</div>`);
    await createFrame(t, "waiter-outer", embed("waiter"));
    const r = await t.call("POST", FRAMES, { body: { slug: "late", html: "<p>late</p>" } });
    assert.equal(r.status, 201);
    assert.deepEqual(
      r.body.rebaked.frames.map((f: any) => [f.slug, f.because, f.bake]),
      [
        ["waiter", ["frame late"], "baked"],
        ["waiter-outer", ["frame late"], "baked"],
      ],
    );
    assert.equal(r.body.rebaked.total, 2);
  });

  it("POST works on the legacy address too", async () => {
    const r = await t.call("POST", "/api/frames", { body: { slug: "legacy-post", html: "<p>legacy</p>" } });
    assert.equal(r.status, 201);
    assert.equal(r.headers["x-svc-blog-source"], "default");
    assert.equal(r.body.site_id, 1);
    assert.equal((await t.call("GET", `${FRAMES}/legacy-post`)).status, 200);
  });
});

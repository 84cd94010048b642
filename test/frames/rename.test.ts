// PATCH /frames/{ref} renames a frame; svc/frame and svc/partial references in
// every other frame follow, byte for byte otherwise; pages keep their frame.
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

describe("frames: PATCH renames", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("rewrites references in every other frame under `name`, alias keys moved, every other byte unchanged", async () => {
    const target = await createFrame(t, "card", "<article>card</article>");
    const users: Record<string, [string, string]> = {
      "u-name": [
        `\uFEFF<div>\r\n  <!--   svc/frame   {  "name" :  "card" ,"class":"x" }   /-->\r\n</div>\t`,
        `\uFEFF<div>\r\n  <!--   svc/frame   {  "name" :  "card-v2" ,"class":"x" }   /-->\r\n</div>\t`,
      ],
      "u-ref": [
        `<p>é</p><!-- svc/frame {"ref": "card"} /--><p>ü</p>`,
        `<p>é</p><!-- svc/frame {"name": "card-v2"} /--><p>ü</p>`,
      ],
      "u-frame": [`<!-- svc/frame {"frame":"CARD"} /-->`, `<!-- svc/frame {"name":"card-v2"} /-->`],
      "u-slug": [
        `<!-- svc/partial {"slug": "card", "with": {"title": "card"}} /-->`,
        `<!-- svc/partial {"name": "card-v2", "with": {"title": "card"}} /-->`,
      ],
      "u-repeat": [
        `<ul><!-- svc/repeat {"source": "pages"} --><li><!-- svc/partial {"name": "card"} /--></li><!-- /svc/repeat --></ul>`,
        `<ul><!-- svc/repeat {"source": "pages"} --><li><!-- svc/partial {"name": "card-v2"} /--></li><!-- /svc/repeat --></ul>`,
      ],
      "u-untouched": [
        `<!-- svc/frame {"id": "${target.frame.id}"} /--><!-- card --><script>"<!-- svc/frame {\\"name\\": \\"card\\"} /-->"</script><p title='svc/frame card'>card</p>`,
        `<!-- svc/frame {"id": "${target.frame.id}"} /--><!-- card --><script>"<!-- svc/frame {\\"name\\": \\"card\\"} /-->"</script><p title='svc/frame card'>card</p>`,
      ],
      "u-twice": [`${embed("card")}<hr>${embed("card", "slug")}`, `${embed("card-v2")}<hr>${embed("card-v2", "name")}`],
    };
    for (const [slug, [html]] of Object.entries(users)) await createFrame(t, slug, html);
    const before = Object.fromEntries(
      await Promise.all(Object.keys(users).map(async (slug) => [slug, await getFrame(t, slug)] as const)),
    );

    const r = await t.call("PATCH", `${FRAMES}/card`, { body: { slug: "Card-V2" } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.success, true);
    assert.equal(r.body.site_id, 1);
    assert.equal(r.body.frame.slug, "card-v2");
    assert.equal(r.body.frame.id, target.frame.id);
    assert.equal(r.body.renamed.from, "card");
    assert.equal(r.body.renamed.to, "card-v2");
    assert.deepEqual(r.body.renamed.frames_updated, ["u-frame", "u-name", "u-ref", "u-repeat", "u-slug", "u-twice"]);
    assert.deepEqual(
      r.body.renamed.details.map((d: any) => [d.slug, d.replaced, d.id]),
      ["u-frame", "u-name", "u-ref", "u-repeat", "u-slug", "u-twice"].map((slug) => [
        slug,
        slug === "u-twice" ? 2 : 1,
        before[slug].id,
      ]),
    );
    assert.equal(typeof r.body.bake.status, "string");
    assert.equal("rebaked" in r.body, true);

    for (const [slug, [, expected]] of Object.entries(users)) {
      const after = await getFrame(t, slug);
      assert.equal(after.html, expected, slug);
      assert.equal(after.sha256, sha256(expected), slug);
      assert.equal(after.bytes, Buffer.byteLength(expected, "utf8"), slug);
      assert.deepEqual(after.frame_refs, ["card-v2"], slug);
    }
    // The untouched frame was not rewritten at all: its record did not change.
    assert.equal((await getFrame(t, "u-untouched")).updated_at_gmt, before["u-untouched"].updated_at_gmt);
    assert.equal((await getFrame(t, "u-untouched")).sha256, before["u-untouched"].sha256);
    // The renamed frame's own markup is unchanged.
    assert.equal((await getFrame(t, "card-v2")).html, "<article>card</article>");
    refused(await t.call("GET", `${FRAMES}/card`), 404, "frame_not_found");
    assert.deepEqual((await getFrame(t, "card-v2")).referenced_by, [
      "u-frame",
      "u-name",
      "u-ref",
      "u-repeat",
      "u-slug",
      "u-twice",
      "u-untouched",
    ]);
  });

  it("pages keep their frame (they store its id) and the public page keeps answering", async () => {
    await createFrame(t, "page-frame", "<main>kept</main>");
    const page = await createPage(t, { title: "Kept", slug: "kept" });
    await assign(t, "page-frame", page.id);
    const r = await t.call("PATCH", `${FRAMES}/page-frame`, { body: { slug: "page-frame--renamed" } });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.frame.pages, [page.id]);
    assert.deepEqual(
      [r.body.frame.block, r.body.frame.element, r.body.frame.modifier],
      ["page-frame", null, "renamed"],
    );
    const read = await t.call("GET", `/api/site/1/pages/${page.id}`);
    assert.equal(read.body.page.frame, "page-frame--renamed");
    const shown = await publicPage(t, "/kept/");
    assert.equal(shown.status, 200);
    assert.match(shown.body, /kept/);
  });

  it("a frame that waited for the new slug now embeds the renamed frame and is rebaked", async () => {
    await createFrame(t, "waiting-for-hero", `<div>${embed("hero")}</div>`);
    await createFrame(t, "banner", "<p>banner</p>");
    const r = await t.call("PATCH", `${FRAMES}/banner`, { body: { slug: "hero" } });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.renamed.frames_updated, []);
    assert.ok(
      r.body.rebaked.frames.some((f: any) => f.slug === "waiting-for-hero" && f.because.includes("frame hero")),
      JSON.stringify(r.body.rebaked.frames),
    );
    const waiting = await getFrame(t, "waiting-for-hero");
    assert.deepEqual(waiting.frame_refs, ["hero"]);
    assert.deepEqual((await getFrame(t, "hero")).referenced_by, ["waiting-for-hero"]);
  });

  it("with bake: false the rename bakes nothing, lists the embedders left for a rebake, and their pages still show the truth", async () => {
    await createFrame(t, "quiet-waiter", `<div>${embed("quiet-hero")}</div>`);
    await createFrame(t, "quiet-banner", "<p>quiet banner</p>");
    const page = await createPage(t, { title: "Quiet waiter", slug: "quiet-waiter" });
    await assign(t, "quiet-waiter", page.id);
    assert.doesNotMatch((await publicPage(t, "/quiet-waiter/")).body, /quiet banner/);
    const r = await t.call("PATCH", `${FRAMES}/quiet-banner`, { body: { slug: "quiet-hero", bake: false } });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.bake, { status: "skipped" });
    assert.deepEqual(r.body.rebaked.frames, []);
    assert.deepEqual(r.body.rebaked.skipped, ["quiet-waiter"]);
    assert.deepEqual(r.body.rebaked.pages, [page.id]);
    const shown = await publicPage(t, "/quiet-waiter/");
    assert.equal(shown.printed, "on_request");
    assert.match(shown.body, /quiet banner/);
  });

  it("dry_run reports the planned rename with real counts and writes nothing", async () => {
    await createFrame(t, "dry-target", "<p>t</p>");
    await createFrame(t, "dry-user", `${embed("dry-target")}${embed("dry-target", "ref")}`);
    const r = await t.call("PATCH", `${FRAMES}/dry-target`, { body: { slug: "dry-renamed", dry_run: true } });
    assert.equal(r.status, 200);
    assert.equal(r.body.applied, false);
    assert.equal(r.body.dry_run, true);
    assert.equal("bake" in r.body, false);
    assert.deepEqual(r.body.renamed.frames_updated, ["dry-user"]);
    assert.equal(r.body.renamed.details[0].replaced, 2);
    assert.equal((await getFrame(t, "dry-target")).slug, "dry-target");
    assert.equal((await getFrame(t, "dry-user")).html, `${embed("dry-target")}${embed("dry-target", "ref")}`);
  });

  it("name is ignored with name_ignored; type and default too, next to a slug", async () => {
    await createFrame(t, "warned-rename", "<p></p>");
    const r = await t.call("PATCH", `${FRAMES}/warned-rename`, {
      body: { slug: "warned-renamed", name: "N", type: "t", default: true },
    });
    assert.equal(r.status, 200);
    assert.deepEqual(codes(r.body.warnings).sort(), ["default_ignored", "name_ignored", "type_ignored"]);
  });

  it("refusals: nothing_to_update, gone, invalid_slug, slug_taken (with the occupant), frame_url_not_supported, frame_not_found", async () => {
    const occupant = await createFrame(t, "rn-occupied", "<p>o</p>");
    await createFrame(t, "rn-subject", "<p>s</p>");
    const url = `${FRAMES}/rn-subject`;
    refused(await t.call("PATCH", url, { body: {} }), 400, "nothing_to_update");
    refused(await t.call("PATCH", url, { body: { name: "New name" } }), 400, "nothing_to_update");
    refused(await t.call("PATCH", url, { body: { slug: "RN-Subject" } }), 400, "nothing_to_update");
    refused(await t.call("PATCH", url, { body: { default: true } }), 410, "gone");
    refused(await t.call("PATCH", url, { body: { is_default: true } }), 410, "gone");
    refused(await t.call("PATCH", url, { body: { default: true, is_default: false } }), 410, "gone");
    const bad = refused(await t.call("PATCH", url, { body: { slug: "bad__slug__twice" } }), 400, "invalid_slug");
    assert.ok(bad.pattern && bad.hint);
    const taken = refused(await t.call("PATCH", url, { body: { slug: "rn-occupied" } }), 409, "slug_taken");
    assert.equal(taken.id, occupant.frame.id);
    refused(await t.call("PATCH", url, { body: { slug: "rn-new", url: "/x/" } }), 400, "frame_url_not_supported");
    refused(await t.call("PATCH", url, { body: { url: "/x/" } }), 400, "frame_url_not_supported");
    refused(await t.call("PATCH", `${FRAMES}/rn-nowhere`, { body: { slug: "rn-new" } }), 404, "frame_not_found");
    refused(await t.call("PATCH", url, { body: { slug: "defaults" } }), 400, "invalid_slug");
    assert.equal((await getFrame(t, "rn-subject")).slug, "rn-subject");
  });

  it("a rename that would close an embedding loop is 400 frame_cycle, and nothing is rewritten", async () => {
    // r-outer waits for "r-goal"; r-mid embeds r-outer. Renaming r-mid to r-goal would make r-goal → r-outer → r-goal.
    await createFrame(t, "r-outer", embed("r-goal"));
    await createFrame(t, "r-mid", `<!-- svc/partial {"name": "r-outer"} /-->`);
    const body = refused(await t.call("PATCH", `${FRAMES}/r-mid`, { body: { slug: "r-goal" } }), 400, "frame_cycle");
    assert.deepEqual(body.cycle, ["r-goal", "r-outer", "r-goal"]);
    assert.equal((await getFrame(t, "r-mid")).slug, "r-mid");
  });

  it("the legacy address renames by id", async () => {
    const created = await createFrame(t, "legacy-rename", "<p></p>");
    const r = await t.call("PATCH", `/api/frames/${created.frame.id}`, { body: { slug: "legacy-renamed" } });
    assert.equal(r.status, 200);
    assert.equal(r.body.frame.slug, "legacy-renamed");
  });
});

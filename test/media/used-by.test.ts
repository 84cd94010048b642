// used_by of a media record (src/media/used-by.ts, docs/media.md "Records"): `frames` are the
// frames whose own markup reads the file; `pages` every page showing it, on such a frame or on a
// frame embedding one (svc/frame, svc/partial, transitively) — the pages a media change rebakes.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, startTestApp, type TestApp } from "../support/app.ts";
import { visit } from "../support/site.ts";
import { noisyPng } from "./serving-helpers.ts";
import { refusal, site, uploadRaw } from "./upload-helpers.ts";

describe("used_by through embedded frames", () => {
  let t: TestApp;
  let S: number;
  const host = "embeds.localhost";
  const pages: Record<string, { id: number; path: string }> = {};
  let inner: { id: string; slug: string };

  const frame = async (slug: string, html: string) => {
    const r = await t.call("POST", `${site(S)}/frames`, { body: { slug, html } });
    assert.equal(r.status, 201, `${slug}: ${r.text}`);
    return { id: r.body.frame.id as string, slug };
  };
  const page = async (title: string, frameSlug: string, status = "publish") => {
    const r = await t.call("POST", `${site(S)}/pages`, { body: { title, frame: frameSlug, status } });
    assert.equal(r.status, 201, r.text);
    return { id: r.body.page.id as number, path: r.body.page.path as string };
  };

  before(async () => {
    t = await startTestApp();
    S = await makeSite(t, "Embeds", host);
    assert.equal((await uploadRaw(t, S, await noisyPng(400, 200), { filename: "hero.png" })).status, 201);
    inner = await frame("inner", '<figure><!-- svc/image {"media": "hero"} /--></figure>');
    await frame("outer", '<main><!-- svc/frame {"name": "inner"} /--></main>');
    await frame("top", '<body><!-- svc/partial {"ref": "outer", "with": {"a": 1}} /--></body>');
    await frame("plain", "<p>nothing to show</p>");
    pages.onInner = await page("On inner", "inner");
    pages.onOuter = await page("On outer", "outer");
    pages.onTop = await page("On top", "top", "draft");
    pages.plain = await page("Plain", "plain");
  });
  after(() => t.close());

  it("GET /media/{ref}: used_by.frames is the frame whose own markup reads the file; used_by.pages adds the pages on frames embedding it, through svc/frame and svc/partial", async () => {
    const r = await t.call("GET", `${site(S)}/media/hero`);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.media.used_by, {
      frames: [inner],
      pages: [pages.onInner, pages.onOuter, pages.onTop],
    });
    const listed = await t.call("GET", `${site(S)}/media`);
    assert.deepEqual(listed.body.media[0].used_by, r.body.media.used_by, "the list answers the same used_by");
  });

  it("the pages listed are the pages a write of the file rebakes: PATCH alt reaches inner, outer and top, and the public page on outer shows the new alt", async () => {
    const r = await t.call("PATCH", `${site(S)}/media/hero`, { body: { alt: "A wide sea" } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.rebaked.frames.map((f: { slug: string }) => f.slug).sort(), ["inner", "outer", "top"]);
    const published = [pages.onInner.id, pages.onOuter.id];
    for (const id of published) assert.ok(r.body.rebaked.pages.includes(id), `page ${id} rebaked`);
    const shown = await visit(t, `${pages.onOuter.path}/`, host);
    assert.equal(shown.status, 200);
    assert.match(shown.body, /<img [^>]*alt="A wide sea"/);
    assert.deepEqual(r.body.media.used_by.pages, [pages.onInner, pages.onOuter, pages.onTop]);
  });

  it("DELETE is 409 media_in_use with the same used_by, embedding pages included; ?force=1 answers it and the embedding page stops showing the file", async () => {
    const expected = (await t.call("GET", `${site(S)}/media/hero`)).body.media.used_by;
    assert.deepEqual(
      expected.pages.map((p: { id: number }) => p.id),
      [pages.onInner.id, pages.onOuter.id, pages.onTop.id],
    );
    const refused = await t.call("DELETE", `${site(S)}/media/hero`);
    refusal(refused, 409, "media_in_use");
    assert.deepEqual(refused.body.used_by, expected);
    assert.equal((await t.call("GET", `${site(S)}/media/hero`)).status, 200, "refused: still there");
    const forced = await t.call("DELETE", `${site(S)}/media/hero?force=1`);
    assert.equal(forced.status, 200, forced.text);
    assert.deepEqual(forced.body.media.used_by, expected);
    assert.deepEqual(forced.body.rebaked.frames.map((f: { slug: string }) => f.slug).sort(), ["inner", "outer", "top"]);
    const shown = await visit(t, `${pages.onOuter.path}/`, host);
    assert.equal(shown.status, 200);
    assert.doesNotMatch(shown.body, /<img /);
  });

  it("a frame embedding a reader of the file by its id counts too; a frame that stops embedding takes its pages out of used_by", async () => {
    assert.equal((await uploadRaw(t, S, await noisyPng(300, 300), { filename: "logo.png" })).status, 201);
    const reader = await frame("logo-reader", '<!-- svc/image {"media": "logo"} /-->');
    await frame("by-id", `<div><!-- svc/frame {"ref": "${reader.id}"} /--></div>`);
    const onById = await page("By id", "by-id");
    assert.deepEqual((await t.call("GET", `${site(S)}/media/logo`)).body.media.used_by, {
      frames: [reader],
      pages: [onById],
    });
    const edited = await t.call("PUT", `${site(S)}/frames/by-id`, { body: { html: "<div>no logo</div>" } });
    assert.equal(edited.status, 200, edited.text);
    assert.deepEqual((await t.call("GET", `${site(S)}/media/logo`)).body.media.used_by, {
      frames: [reader],
      pages: [],
    });
  });
});

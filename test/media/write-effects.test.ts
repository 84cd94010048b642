// What a media write does besides its row (docs/media.md, "Use in frames",
// "Dependencies" and "Records"): PUT (new bytes) and PATCH of alt or title rebake the frame
// showing the file, named in rebaked.frames, and its page shows the change; every write records
// who wrote it (updated_by) and when (updated_at_gmt, on the mocked clock).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, makeUser, startTestApp, type TestApp } from "../support/app.ts";
import { visit } from "../support/site.ts";
import { jpeg, noisyPng } from "./serving-helpers.ts";
import { site, uploadRaw } from "./upload-helpers.ts";

describe("media writes rebake the frame showing the file", () => {
  let t: TestApp;
  let S: number;
  let pagePath: string;
  let pageId: number;
  const host = "shows.localhost";
  const slugs = (r: { body: any }) => r.body.rebaked.frames.map((f: { slug: string }) => f.slug).sort();

  before(async () => {
    t = await startTestApp();
    S = await makeSite(t, "Shows", host);
    assert.equal((await uploadRaw(t, S, await noisyPng(500, 250), { filename: "photo.png" })).status, 201);
    assert.equal((await uploadRaw(t, S, await noisyPng(20, 20), { filename: "unused.png" })).status, 201);
    for (const [slug, html] of [
      ["shows", '<article><!-- svc/image {"media": "photo", "sizes": "100vw"} /--></article>'],
      ["other", "<p>no media</p>"],
    ])
      assert.equal((await t.call("POST", `${site(S)}/frames`, { body: { slug, html } })).status, 201);
    const page = await t.call("POST", `${site(S)}/pages`, {
      body: { title: "Gallery", frame: "shows", status: "publish" },
    });
    assert.equal(page.status, 201, page.text);
    pageId = page.body.page.id;
    pagePath = `${page.body.page.path}/`;
    assert.match((await visit(t, pagePath, host)).body, /<img [^>]*width="500"/);
  });
  after(() => t.close());

  it("PUT of new bytes names the frame showing the file in rebaked.frames (and no other); its page shows the new url and size", async () => {
    const r = await uploadRaw(t, S, await jpeg(800, 200), {
      method: "PUT",
      path: `${site(S)}/media/photo`,
      type: "image/jpeg",
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(slugs(r), ["shows"]);
    assert.deepEqual(r.body.rebaked.frames[0].because, ["media.photo"]);
    assert.ok(r.body.rebaked.pages.includes(pageId));
    const shown = (await visit(t, pagePath, host)).body;
    assert.ok(shown.includes(`src="${r.body.media.url}"`), "the page shows the new address");
    assert.match(shown, /<img [^>]*width="800"[^>]*height="200"|<img [^>]*height="200"[^>]*width="800"/);
  });

  it("PATCH of alt names the frame in rebaked.frames; its page shows the new alt", async () => {
    const r = await t.call("PATCH", `${site(S)}/media/photo`, { body: { alt: "Dunes at noon" } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(slugs(r), ["shows"]);
    assert.ok(r.body.rebaked.pages.includes(pageId));
    assert.match((await visit(t, pagePath, host)).body, /<img [^>]*alt="Dunes at noon"/);
  });

  it("PATCH of title alone names the frame in rebaked.frames too", async () => {
    const r = await t.call("PATCH", `${site(S)}/media/photo`, { body: { title: "Dunes" } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.media.title, { "": "Dunes" });
    assert.deepEqual(slugs(r), ["shows"]);
    assert.deepEqual(r.body.rebaked.frames[0].because, ["media.photo"]);
  });

  it("a write of a file no frame shows rebakes no frame", async () => {
    const r = await t.call("PATCH", `${site(S)}/media/unused`, { body: { alt: "x", title: "y" } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.rebaked.frames, []);
  });
});

describe("updated_by and updated_at_gmt", () => {
  let t: TestApp;
  let S: number;
  let second: { id: number; token: string };
  before(async () => {
    t = await startTestApp();
    S = await makeSite(t, "Authors", "authors.localhost");
    second = await makeUser(t, "second-admin");
    assert.equal(
      (await t.call("PUT", `${site(S)}/users/${second.id}`, { body: { role: "administrator" } })).status,
      200,
    );
  });
  after(() => t.close());

  it("updated_by is the user who wrote last (a second administrator's PATCH and PUT); updated_at_gmt moves to the time of each write, created_at_gmt stays", async (c) => {
    c.mock.timers.enable({ apis: ["Date"], now: Date.parse("2031-03-04T05:06:07Z") });
    const created = (await uploadRaw(t, S, await noisyPng(30, 30), { filename: "signed.png" })).body.media;
    assert.deepEqual(
      [created.updated_by, created.created_at_gmt, created.updated_at_gmt],
      [1, "2031-03-04 05:06:07", "2031-03-04 05:06:07"],
    );

    c.mock.timers.tick(90 * 60 * 1000);
    const patched = await t.call("PATCH", `${site(S)}/media/signed`, { token: second.token, body: { alt: "Signed" } });
    assert.equal(patched.status, 200, patched.text);
    assert.notEqual(second.id, 1);
    assert.deepEqual(
      [patched.body.media.updated_by, patched.body.media.created_at_gmt, patched.body.media.updated_at_gmt],
      [second.id, "2031-03-04 05:06:07", "2031-03-04 06:36:07"],
    );
    assert.deepEqual(
      (await t.call("GET", `${site(S)}/media/signed`)).body.media,
      patched.body.media,
      "read back the same",
    );

    c.mock.timers.tick(24 * 60 * 60 * 1000);
    const replaced = await uploadRaw(t, S, await noisyPng(31, 30), {
      method: "PUT",
      path: `${site(S)}/media/signed`,
      type: "image/png",
    });
    assert.equal(replaced.status, 200, replaced.text);
    assert.deepEqual(
      [replaced.body.media.updated_by, replaced.body.media.updated_at_gmt],
      [1, "2031-03-05 06:36:07"],
      "the administrator token's user wrote it",
    );

    c.mock.timers.tick(1000);
    const byHim = await uploadRaw(t, S, await noisyPng(32, 30), {
      method: "PUT",
      path: `${site(S)}/media/signed`,
      type: "image/png",
      token: second.token,
    });
    assert.equal(byHim.status, 200, byHim.text);
    const read = (await t.call("GET", `${site(S)}/media/signed`)).body.media;
    assert.deepEqual(
      [read.updated_by, read.created_at_gmt, read.updated_at_gmt, read.alt],
      [second.id, "2031-03-04 05:06:07", "2031-03-05 06:36:08", { "": "Signed" }],
    );
  });
});

// GET /media lists, PATCH, PUT and DELETE /media/{ref}, used_by and the media_bytes quota
// (docs/media.md), through the real app.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { makeSite, startTestApp, type TestApp } from "../support/app.ts";
import { recountUsage, usageOf } from "../../src/quotas/usage.ts";
import { jpeg, noisyPng } from "./serving-helpers.ts";
import { refusal, site, storedBlobs, uploadMultipart, uploadRaw } from "./upload-helpers.ts";

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

describe("GET /media", () => {
  let t: TestApp;
  let S: number;
  before(async () => {
    t = await startTestApp();
    S = await makeSite(t, "List", "list.localhost");
    for (let i = 1; i <= 7; i++)
      assert.equal((await uploadRaw(t, S, await noisyPng(10 + i, 10), { filename: `photo-${i}.png` })).status, 201);
    await uploadRaw(t, S, Buffer.from("%PDF-1.4\n%%EOF\n"), { filename: "Annual Report.pdf" });
    await uploadMultipart(t, S, [
      ["file", { data: await jpeg(30, 20), filename: "beach.jpg" }],
      ["alt", "Sand and sea"],
      ["title", "Summer"],
    ]);
  });
  after(() => t.close());

  it("lists the site's files newest first, paged as GET /pages: per_page, page, Link, X-WP-Total", async () => {
    const all = await t.call("GET", `${site(S)}/media`);
    assert.equal(all.status, 200);
    assert.equal(all.body.total, 9);
    assert.deepEqual(all.body.media.map((m: { filename: string }) => m.filename).slice(0, 3), [
      "beach.jpg",
      "Annual Report.pdf",
      "photo-7.png",
    ]);
    const first = await t.call("GET", `${site(S)}/media?per_page=4`);
    assert.deepEqual(
      [first.body.total, first.body.media.length, first.headers["x-wp-total"], first.headers["x-wp-totalpages"]],
      [9, 4, "9", "3"],
    );
    assert.match(String(first.headers.link), /[?&]page=2>; rel="next"/);
    const last = await t.call("GET", `${site(S)}/media?per_page=4&page=3`);
    assert.deepEqual(
      last.body.media.map((m: { filename: string }) => m.filename),
      ["photo-1.png"],
    );
    assert.match(String(last.headers.link), /page=2>; rel="prev"/);
    const ids = new Set<number>();
    for (let page = 1; page <= 3; page++)
      for (const m of (await t.call("GET", `${site(S)}/media?per_page=4&page=${page}`)).body.media) ids.add(m.id);
    assert.equal(ids.size, 9, "no file on two pages, none missing");
    assert.deepEqual((await t.call("GET", `${site(S)}/media?page=9`)).body.media, []);
    for (const bad of ["per_page=0", "per_page=501", "per_page=x", "page=0", "page=-1"])
      refusal(await t.call("GET", `${site(S)}/media?${bad}`), 400, "invalid_parameter");
  });

  it("?type groups by detected type (PDF is document); ?search looks in file name, title and alt, ignoring case; bad values are 400 invalid_parameter", async () => {
    const names = async (query: string) =>
      (await t.call("GET", `${site(S)}/media?${query}`)).body.media.map((m: { filename: string }) => m.filename);
    assert.equal((await names("type=image")).length, 8);
    assert.deepEqual(await names("type=document"), ["Annual Report.pdf"]);
    assert.deepEqual(await names("type=video"), []);
    assert.deepEqual(await names("search=REPORT"), ["Annual Report.pdf"]);
    assert.deepEqual(await names("search=summer"), ["beach.jpg"]);
    assert.deepEqual(await names("search=sand%20and"), ["beach.jpg"]);
    assert.deepEqual(await names("search=photo-3"), ["photo-3.png"]);
    assert.deepEqual(await names("search=%25"), [], "% is a character, not a wildcard");
    assert.deepEqual(await names("search=photo&type=document"), []);
    const paged = await t.call("GET", `${site(S)}/media?type=image&per_page=5`);
    assert.deepEqual([paged.body.total, paged.body.media.length], [8, 5]);
    refusal(await t.call("GET", `${site(S)}/media?type=picture`), 400, "invalid_parameter");
    refusal(await t.call("GET", `${site(S)}/media?type=image&type=video`), 400, "invalid_parameter");
  });
});

describe("PATCH, PUT and DELETE /media/{ref}", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("PATCH sets alt and title per language (a plain string is the default language's, null removes) and answers {success, site_id, media, rebaked}", async () => {
    const S = await makeSite(t, "Alt", "alt.localhost");
    for (const code of ["en", "fr"])
      assert.equal((await t.call("POST", `${site(S)}/languages`, { body: { code } })).status, 201);
    const id = (await uploadRaw(t, S, await noisyPng(20, 20), { filename: "sea.png" })).body.media.id;
    const r = await t.call("PATCH", `${site(S)}/media/${id}`, {
      body: { alt: "The sea", title: { fr: "La mer", en: "The sea" } },
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(Object.keys(r.body).sort(), ["media", "rebaked", "site_id", "success", "warnings"]);
    assert.deepEqual([r.body.media.alt, r.body.media.title], [{ en: "The sea" }, { fr: "La mer", en: "The sea" }]);
    const more = await t.call("PATCH", `${site(S)}/media/sea`, {
      body: { alt: { fr: "La mer" }, title: { en: null } },
    });
    assert.deepEqual([more.body.media.alt, more.body.media.title], [{ en: "The sea", fr: "La mer" }, { fr: "La mer" }]);
    assert.deepEqual((await t.call("PATCH", `${site(S)}/media/sea`, { body: { alt: null } })).body.media.alt, {});
    refusal(
      await t.call("PATCH", `${site(S)}/media/sea`, { body: { alt: { de: "Das Meer" } } }),
      400,
      "unknown_language",
    );
    refusal(await t.call("PATCH", `${site(S)}/media/sea`, { body: { alt: 5 } }), 400, "invalid_field");
    refusal(await t.call("PATCH", `${site(S)}/media/sea`, { body: { alt: "x".repeat(1001) } }), 400, "invalid_field");
    refusal(await t.call("PATCH", `${site(S)}/media/sea`, { body: {} }), 400, "nothing_to_update");
    const noLanguages = (await uploadRaw(t, 1, await noisyPng(21, 20), { filename: "plain.png" })).body.media.id;
    refusal(
      await t.call("PATCH", `${site(1)}/media/${noLanguages}`, { body: { alt: { fr: "x" } } }),
      409,
      "multilang_inactive",
    );
    const unknown = await t.call("PATCH", `${site(S)}/media/sea`, { body: { title: "T", colour: "red" } });
    assert.deepEqual(
      unknown.body.warnings.map((w: { field: string }) => w.field),
      ["colour"],
    );
  });

  it("PATCH slug follows the slug rules; the old slug stops answering; a taken slug is 409 slug_taken", async () => {
    const png = await noisyPng(22, 20);
    const a = (await uploadRaw(t, 1, png, { filename: "first.png" })).body.media;
    await uploadRaw(t, 1, png, { filename: "second.png" });
    const r = await t.call("PATCH", `${site(1)}/media/first`, { body: { slug: "  Renamed-File " } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.media.slug, "renamed-file");
    refusal(await t.call("GET", `${site(1)}/media/first`), 404, "media_not_found");
    assert.equal((await t.call("GET", `${site(1)}/media/renamed-file`)).body.media.id, a.id);
    refusal(await t.call("PATCH", `${site(1)}/media/renamed-file`, { body: { slug: "second" } }), 409, "slug_taken");
    for (const bad of ["two words", "123", "a--b", "-a", "", "x".repeat(201), 7]) {
      const refused = await t.call("PATCH", `${site(1)}/media/renamed-file`, { body: { slug: bad } });
      refusal(refused, 400, "invalid_slug");
    }
    assert.equal(
      (await t.call("PATCH", `${site(1)}/media/renamed-file`, { body: { slug: "renamed-file" } })).status,
      200,
      "its own slug is no conflict",
    );
  });

  it("PUT replaces the bytes: same id and slug, new sha256 and url; the old blob goes when nothing else names it; the quota follows the new size", async () => {
    const S = await makeSite(t, "Replace", "replace.localhost");
    const oldBytes = await noisyPng(60, 40);
    const before = (
      await uploadMultipart(t, S, [
        ["file", { data: oldBytes, filename: "logo.png" }],
        ["alt", "Logo"],
      ])
    ).body.media;
    const newBytes = await jpeg(300, 100);
    const r = await uploadRaw(t, S, newBytes, { method: "PUT", path: `${site(S)}/media/logo`, type: "image/jpeg" });
    assert.equal(r.status, 200, r.text);
    const after = r.body.media;
    assert.deepEqual(
      [after.id, after.slug, after.filename, after.alt],
      [before.id, "logo", "logo.png", { "": "Logo" }],
      "no new name: the old one stays; alt stays",
    );
    assert.deepEqual(
      [after.sha256, after.mime, after.width, after.height, after.bytes],
      [sha256(newBytes), "image/jpeg", 300, 100, newBytes.length],
    );
    assert.notEqual(after.url, before.url);
    assert.ok(!storedBlobs(t.dataDir).includes(before.sha256) && storedBlobs(t.dataDir).includes(after.sha256));
    assert.equal((await t.call("GET", `${site(S)}/usage`)).body.usage.media_bytes.used, newBytes.length);
    const renamed = await uploadMultipart(
      t,
      S,
      [
        ["file", { data: oldBytes, filename: "logo-v2.png" }],
        ["title", "v2"],
      ],
      { method: "PUT", path: `${site(S)}/media/${before.id}` },
    );
    assert.deepEqual(
      [renamed.body.media.filename, renamed.body.media.slug, renamed.body.media.title, renamed.body.media.sha256],
      ["logo-v2.png", "logo", { "": "v2" }, before.sha256],
    );
    refusal(
      await uploadRaw(t, S, Buffer.from("text"), { method: "PUT", path: `${site(S)}/media/logo` }),
      415,
      "unsupported_media_type",
    );
    assert.equal(
      (await t.call("GET", `${site(S)}/media/logo`)).body.media.sha256,
      before.sha256,
      "a refused PUT changes nothing",
    );
  });

  it("DELETE is 409 media_in_use with used_by while frames show the file (by id or slug), unless ?force=1; its pages are named; the blob goes with the last row naming it", async () => {
    const S = await makeSite(t, "Delete", "delete.localhost");
    const bytes = await noisyPng(80, 60);
    const hero = (await uploadRaw(t, S, bytes, { filename: "hero.png" })).body.media;
    const copy = (await uploadRaw(t, S, bytes, { filename: "copy.png" })).body.media;
    assert.equal(
      (
        await t.call("POST", `${site(S)}/frames`, {
          body: { slug: "by-slug", html: '<div><!-- svc/image {"media": "hero"} /--></div>' },
        })
      ).status,
      201,
    );
    assert.equal(
      (
        await t.call("POST", `${site(S)}/frames`, {
          body: { slug: "by-id", html: `<img src="x"><!-- svc/image {"media": ${hero.id}} /-->` },
        })
      ).status,
      201,
    );
    const page = await t.call("POST", `${site(S)}/pages`, { body: { title: "Home", frame: "by-slug" } });
    assert.equal(page.status, 201, page.text);
    const usedBy = (await t.call("GET", `${site(S)}/media/hero`)).body.media.used_by;
    assert.deepEqual(
      usedBy.frames.map((f: { slug: string }) => f.slug),
      ["by-id", "by-slug"],
    );
    assert.deepEqual(usedBy.pages, [{ id: page.body.page.id, path: page.body.page.path }]);

    const refused = await t.call("DELETE", `${site(S)}/media/hero`);
    refusal(refused, 409, "media_in_use");
    assert.deepEqual(refused.body.used_by, usedBy);
    refusal(await t.call("DELETE", `${site(S)}/media/hero?force=maybe`), 400, "invalid_parameter");
    assert.equal((await t.call("GET", `${site(S)}/media/hero`)).status, 200, "refused: still there");

    const forced = await t.call("DELETE", `${site(S)}/media/hero?force=1`);
    assert.equal(forced.status, 200, forced.text);
    assert.deepEqual([forced.body.media.id, forced.body.media.used_by], [hero.id, usedBy]);
    assert.ok(
      forced.body.rebaked.frames.some((f: { slug: string }) => f.slug === "by-slug"),
      "the frames that showed it are rebaked",
    );
    refusal(await t.call("GET", `${site(S)}/media/hero`), 404, "media_not_found");
    refusal(await t.call("DELETE", `${site(S)}/media/hero?force=1`), 404, "media_not_found");
    assert.ok(storedBlobs(t.dataDir).includes(hero.sha256), "copy.png still names the bytes");
    assert.equal(
      (await t.call("DELETE", `${site(S)}/media/${copy.id}`)).status,
      200,
      "a file no frame shows needs no force",
    );
    assert.ok(!storedBlobs(t.dataDir).includes(hero.sha256), "the last row gone, the blob goes");
  });
});

describe("quota media_bytes", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("an upload or a replacement past media_bytes is 413 quota_exceeded and stores nothing; a delete frees its bytes; the counter equals a recount", async () => {
    const S = await makeSite(t, "Quota", "quota.localhost");
    const small = await noisyPng(30, 30);
    const large = await noisyPng(90, 90);
    const first = (await uploadRaw(t, S, small, { filename: "small.png" })).body.media;
    assert.equal(
      (await t.call("PATCH", `/api/sites/${S}/quotas`, { body: { media_bytes: small.length + 100 } })).status,
      200,
    );
    const blobs = storedBlobs(t.dataDir);
    const r = await uploadRaw(t, S, large, { filename: "large.png" });
    refusal(r, 413, "quota_exceeded");
    assert.deepEqual([r.body.quota, r.body.limit, r.body.used], ["media_bytes", small.length + 100, small.length]);
    refusal(await uploadRaw(t, S, large, { method: "PUT", path: `${site(S)}/media/small` }), 413, "quota_exceeded");
    assert.deepEqual(storedBlobs(t.dataDir), blobs, "the refused bytes are not kept");
    assert.equal((await t.call("GET", `${site(S)}/media`)).body.total, 1);
    assert.deepEqual((await t.call("GET", `${site(S)}/usage`)).body.usage.media_bytes, {
      used: small.length,
      limit: small.length + 100,
    });
    assert.equal((await t.call("DELETE", `${site(S)}/media/${first.id}`)).status, 200);
    // A smaller image, so it fits whatever the noise compresses to (31 by 30 did not always).
    assert.equal(
      (await uploadRaw(t, S, await noisyPng(20, 20), { filename: "fits.png" })).status,
      201,
      "the freed bytes can be used again",
    );
    assert.deepEqual(await usageOf(t.store.db, S), await recountUsage(t.store.db, S));
  });
});

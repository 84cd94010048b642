// POST /media (docs/media.md, "Uploads"): real files made with sharp, uploaded raw and multipart
// through the real app, their records, their bytes read back, the refusals in their order with
// nothing stored, and isolation between sites.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import sharp from "sharp";
import { makeSite, startTestApp, type TestApp } from "../support/app.ts";
import { fileUrl, variantsOf } from "../../src/media/addresses.ts";
import { jpeg, noisyPng } from "./serving-helpers.ts";
import { refusal, site, storedBlobs, storedFiles, uploadMultipart, uploadRaw } from "./upload-helpers.ts";

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");
const webp = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: "#2e8b57" } })
    .webp()
    .toBuffer();
const SVG =
  '<?xml version="1.0"?>\n<!-- a drawing -->\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 150"><rect width="300" height="150" fill="teal"/></svg>';

describe("POST /media", () => {
  let t: TestApp;
  let png: Buffer;
  before(async () => {
    t = await startTestApp();
    png = await noisyPng(700, 400);
  });
  after(() => t.close());

  it("a raw PNG is stored and answered 201 with every field of the record; GET by id and by slug answer the same record; the public url serves the same bytes", async () => {
    const r = await uploadRaw(t, 1, png, { type: "image/png", filename: "Holiday Photo.png" });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.success, true);
    assert.equal(r.body.site_id, 1);
    const media = r.body.media;
    const file = { sha256: sha256(png), filename: "Holiday Photo.png", mime: "image/png", width: 700, height: 400 };
    assert.deepEqual(Object.keys(media).sort(), [
      "alt",
      "bytes",
      "created_at_gmt",
      "filename",
      "height",
      "id",
      "mime",
      "sha256",
      "slug",
      "title",
      "updated_at_gmt",
      "updated_by",
      "url",
      "used_by",
      "variants",
      "width",
    ]);
    assert.deepEqual(
      { ...media, id: undefined, created_at_gmt: undefined, updated_at_gmt: undefined },
      {
        ...file,
        id: undefined,
        slug: "holiday-photo",
        bytes: png.length,
        alt: {},
        title: {},
        url: fileUrl(file),
        variants: variantsOf(file),
        created_at_gmt: undefined,
        updated_at_gmt: undefined,
        updated_by: 1,
        used_by: { frames: [], pages: [] },
      },
    );
    assert.ok(Number.isInteger(media.id));
    assert.match(media.created_at_gmt, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.ok(r.body.rebaked && Array.isArray(r.body.rebaked.pages));
    for (const ref of [media.id, "holiday-photo", "Holiday-Photo"]) {
      const read = await t.call("GET", `${site(1)}/media/${ref}`);
      assert.equal(read.status, 200, read.text);
      assert.deepEqual(read.body.media, media);
    }
    const served = await t.app.inject({ method: "GET", url: media.url, headers: { host: "localhost" } });
    assert.equal(served.statusCode, 200);
    assert.ok(served.rawPayload.equals(png), "the public address answers the uploaded bytes");
    assert.deepEqual(storedBlobs(t.dataDir), [sha256(png)]);
  });

  it("multipart: one file part named file with alt and title before or after it; a plain string is the default language's", async () => {
    const photo = await jpeg(1200, 800);
    const r = await uploadMultipart(t, 1, [
      ["alt", "A red wall"],
      ["file", { data: photo, filename: "wall.jpg", type: "image/jpeg" }],
      ["title", "The wall"],
    ]);
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(
      {
        mime: r.body.media.mime,
        width: r.body.media.width,
        height: r.body.media.height,
        alt: r.body.media.alt,
        title: r.body.media.title,
        slug: r.body.media.slug,
        sha256: r.body.media.sha256,
      },
      {
        mime: "image/jpeg",
        width: 1200,
        height: 800,
        alt: { "": "A red wall" },
        title: { "": "The wall" },
        slug: "wall",
        sha256: sha256(photo),
      },
      'a site without languages keeps them under ""',
    );
    const S = await makeSite(t, "Languages", "languages.localhost");
    assert.equal((await t.call("POST", `${site(S)}/languages`, { body: { code: "en" } })).status, 201);
    assert.equal((await t.call("POST", `${site(S)}/languages`, { body: { code: "de" } })).status, 201);
    const withLanguages = await uploadMultipart(t, S, [
      ["file", { data: photo, filename: "wall.jpg" }],
      ["alt", "A red wall"],
    ]);
    assert.equal(withLanguages.status, 201, withLanguages.text);
    assert.deepEqual(withLanguages.body.media.alt, { en: "A red wall" });
    assert.equal(withLanguages.body.media.mime, "image/jpeg", "application/octet-stream on the part means: sniff it");
  });

  it("WebP sent as application/octet-stream is sniffed, with its size; SVG takes its size from the viewBox; a PDF has none", async () => {
    const w = await uploadRaw(t, 1, await webp(900, 300), { filename: "banner.webp" });
    assert.equal(w.status, 201, w.text);
    assert.deepEqual(
      [
        w.body.media.mime,
        w.body.media.width,
        w.body.media.height,
        w.body.media.variants.map((v: { width: number }) => v.width),
      ],
      ["image/webp", 900, 300, [320, 640]],
    );
    const s = await uploadRaw(t, 1, Buffer.from(SVG), { type: "image/svg+xml", filename: "logo.svg" });
    assert.equal(s.status, 201, s.text);
    assert.deepEqual(
      [s.body.media.mime, s.body.media.width, s.body.media.height, s.body.media.variants],
      ["image/svg+xml", 300, 150, []],
    );
    const sized = await uploadRaw(
      t,
      1,
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="64px" height="32"></svg>'),
      { filename: "icon.svg" },
    );
    assert.deepEqual([sized.body.media.width, sized.body.media.height], [64, 32]);
    const pdf = await uploadRaw(t, 1, Buffer.from("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"), {
      type: "application/pdf",
      filename: "brochure.pdf",
    });
    assert.equal(pdf.status, 201, pdf.text);
    assert.deepEqual(
      [pdf.body.media.mime, pdf.body.media.width, pdf.body.media.variants],
      ["application/pdf", null, []],
    );
  });

  it("every allowed type is accepted, sniffed and grouped for ?type (GIF, AVIF, MP4, WebM, MP3, WOFF2 here); QuickTime, a kind of MP4 box, is not", async () => {
    const box = (brand: string) =>
      Buffer.concat([
        Buffer.from([0, 0, 0, 0x18]),
        Buffer.from(`ftyp${brand}`),
        Buffer.from([0, 0, 2, 0]),
        Buffer.from(`${brand}iso2`),
        Buffer.alloc(256),
      ]);
    const webm = Buffer.concat([
      Buffer.from([
        0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0xf7, 0x81, 0x01, 0x42, 0xf2, 0x81, 0x04, 0x42,
        0xf3, 0x81, 0x08, 0x42, 0x82, 0x84,
      ]),
      Buffer.from("webm"),
      Buffer.from([0x42, 0x87, 0x81, 0x04, 0x42, 0x85, 0x81, 0x02]),
      Buffer.alloc(256),
    ]);
    const frame = Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(413)]);
    const files: Array<[Buffer, string, string, string]> = [
      [
        await sharp({ create: { width: 40, height: 30, channels: 3, background: "#ff0" } })
          .gif()
          .toBuffer(),
        "a.gif",
        "image/gif",
        "image",
      ],
      [
        await sharp({ create: { width: 40, height: 30, channels: 3, background: "#0ff" } })
          .avif()
          .toBuffer(),
        "a.avif",
        "image/avif",
        "image",
      ],
      [box("isom"), "a.mp4", "video/mp4", "video"],
      [webm, "a.webm", "video/webm", "video"],
      [Buffer.concat([frame, frame]), "a.mp3", "audio/mpeg", "audio"],
      [
        Buffer.concat([Buffer.from("wOF2"), Buffer.from([0, 1, 0, 0]), Buffer.alloc(256)]),
        "a.woff2",
        "font/woff2",
        "font",
      ],
    ];
    const S = await makeSite(t, "Types", "types.localhost");
    for (const [bytes, filename, mime, kind] of files) {
      const r = await uploadRaw(t, S, bytes, { filename });
      assert.equal(r.status, 201, `${filename}: ${r.text}`);
      assert.equal(r.body.media.mime, mime);
      const listed = await t.call("GET", `${site(S)}/media?type=${kind}`);
      assert.ok(
        listed.body.media.some((m: { id: number }) => m.id === r.body.media.id),
        `${filename} is listed under ${kind}`,
      );
    }
    const gif = (await t.call("GET", `${site(S)}/media/a`)).body.media;
    assert.deepEqual([gif.width, gif.height], [40, 30]);
    const avif = (await t.call("GET", `${site(S)}/media/a-2`)).body.media;
    assert.deepEqual([avif.mime, avif.width, avif.height], ["image/avif", 40, 30]);
    const mov = Buffer.concat([
      Buffer.from([0, 0, 0, 0x14]),
      Buffer.from("ftypqt  "),
      Buffer.from([0, 0, 2, 0]),
      Buffer.from("qt  "),
      Buffer.alloc(256),
    ]);
    const refused = await uploadRaw(t, S, mov, { filename: "a.mov" });
    refusal(refused, 415, "unsupported_media_type");
    assert.equal(refused.body.detected, "video/quicktime");
  });

  it("slugs come from the file name, lower-case, made unique with -2, -3; digits alone get file- before them", async () => {
    const S = await makeSite(t, "Slugs", "slugs.localhost");
    const slugs: string[] = [];
    for (const name of [
      "holiday-photo.png",
      "Holiday Photo.PNG",
      "holiday_photo.png",
      "2024.png",
      ".png",
      "Éte à Nice.png",
    ]) {
      const r = await uploadRaw(t, S, png, { filename: name });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.media.filename, name);
      slugs.push(r.body.media.slug);
    }
    assert.deepEqual(slugs, ["holiday-photo", "holiday-photo-2", "holiday-photo-3", "file-2024", "png", "ete-a-nice"]);
    assert.equal((await t.call("GET", `${site(S)}/media/file-2024`)).body.media.filename, "2024.png");
  });

  it("a path in the file name keeps its last segment; a raw upload without a file name is 400 invalid_field before its body is read", async () => {
    const r = await uploadRaw(t, 1, png, { filename: "C:\\Users\\me\\..\\beach.png" });
    assert.equal(r.body.media.filename, "beach.png");
    const nameless = await uploadRaw(t, 1, png, {});
    refusal(nameless, 400, "invalid_field");
    assert.equal(nameless.body.field, "filename");
  });

  it("two uploads of the same bytes share one blob, on one site or two", async () => {
    const bytes = await noisyPng(50, 50);
    const S = await makeSite(t, "Sharing", "sharing.localhost");
    const a = await uploadRaw(t, 1, bytes, { filename: "a.png" });
    const b = await uploadRaw(t, S, bytes, { filename: "b.png" });
    assert.equal(a.body.media.sha256, b.body.media.sha256);
    assert.equal(storedBlobs(t.dataDir).filter((key) => key === sha256(bytes)).length, 1);
  });
});

describe("upload refusals, in order, nothing stored", () => {
  const MAX = 300_000;
  let t: TestApp;
  let png: Buffer;
  let big: Buffer;
  before(async () => {
    t = await startTestApp({ env: { SVC_MEDIA_MAX_BYTES: String(MAX) } });
    png = await noisyPng(100, 100);
    big = await noisyPng(400, 400);
    assert.ok(big.length > MAX && png.length < MAX);
  });
  after(() => t.close());

  const nothingStored = async () => {
    assert.deepEqual(storedFiles(t.dataDir), []);
    assert.equal((await t.call("GET", `${site(1)}/media`)).body.total, 0);
    assert.equal((await t.call("GET", `${site(1)}/usage`)).body.usage.media_bytes.used, 0);
  };

  it("over SVC_MEDIA_MAX_BYTES is 413 media_too_large with max_bytes, raw or multipart, whatever its type", async () => {
    const raw = await uploadRaw(t, 1, big, { type: "image/png", filename: "big.png" });
    refusal(raw, 413, "media_too_large");
    assert.equal(raw.body.max_bytes, MAX);
    assert.equal(raw.headers.connection, "close", "the rest of the body is not read: the connection closes");
    refusal(
      await uploadMultipart(t, 1, [["file", { data: big, filename: "big.png", type: "image/png" }]]),
      413,
      "media_too_large",
    );
    const text = Buffer.alloc(MAX + 1, "a");
    refusal(await uploadRaw(t, 1, text, { type: "text/plain", filename: "big.txt" }), 413, "media_too_large");
    refusal(await uploadRaw(t, 1, text, { type: "image/png", filename: "big.png" }), 413, "media_too_large");
    await nothingStored();
  });

  it("exactly SVC_MEDIA_MAX_BYTES is allowed; one byte more is not", async () => {
    // Kept as sent: without ?keep_metadata=1 the zeros after the PNG's end would not be stored.
    const exact = Buffer.concat([png, Buffer.alloc(MAX - png.length)]);
    const r = await uploadRaw(t, 1, exact, { filename: "exact.png", path: `${site(1)}/media?keep_metadata=1` });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.media.bytes, MAX);
    refusal(
      await uploadRaw(t, 1, Buffer.concat([exact, Buffer.alloc(1)]), { filename: "over.png" }),
      413,
      "media_too_large",
    );
    assert.equal((await t.call("DELETE", `${site(1)}/media/${r.body.media.id}`)).status, 200);
    await nothingStored();
  });

  it("a sniffed type not allowed is 415 unsupported_media_type in the handler envelope, before a mismatch: text, HTML, JSON, ZIP, an XML that is not SVG, an empty file", async () => {
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(60)]);
    const cases: Array<[Buffer, string]> = [
      [Buffer.from("just some text"), "text/plain"],
      [Buffer.from("<!doctype html><html><body><svg></svg></body></html>"), "text/html"],
      [Buffer.from('{"a": 1}'), "application/json"],
      [zip, "application/zip"],
      [Buffer.from('<?xml version="1.0"?><feed><svg/></feed>'), "image/svg+xml"],
      [Buffer.from("text first <svg xmlns='http://www.w3.org/2000/svg'/>"), "image/svg+xml"],
      [Buffer.alloc(0), "image/png"],
      [Buffer.from("just some text"), "image/png"],
    ];
    for (const [bytes, type] of cases) {
      const r = await uploadRaw(t, 1, bytes, { type, filename: "x.bin" });
      refusal(r, 415, "unsupported_media_type");
      assert.ok(Array.isArray(r.body.allowed) && r.body.allowed.includes("image/png"));
    }
    await nothingStored();
  });

  it("an allowed type other than the claimed Content-Type is 400 media_type_mismatch with claimed and detected; octet-stream and no type mean sniff it; aliases count", async () => {
    const r = await uploadRaw(t, 1, png, { type: "image/jpeg", filename: "x.jpg" });
    refusal(r, 400, "media_type_mismatch");
    assert.deepEqual([r.body.claimed, r.body.detected], ["image/jpeg", "image/png"]);
    refusal(await uploadRaw(t, 1, png, { type: "text/plain", filename: "x.png" }), 400, "media_type_mismatch");
    refusal(
      await uploadMultipart(t, 1, [["file", { data: png, filename: "x.png", type: "image/gif" }]]),
      400,
      "media_type_mismatch",
    );
    await nothingStored();
    const aliased = await uploadRaw(t, 1, await jpeg(20, 20), { type: "image/jpg; charset=binary", filename: "x.jpg" });
    assert.equal(aliased.status, 201, aliased.text);
    const untyped = await t.app.inject({
      method: "POST",
      url: `${site(1)}/media?filename=y.png`,
      payload: png,
      headers: { authorization: `Bearer ${t.adminToken}` },
    });
    assert.equal(untyped.statusCode, 201, untyped.body);
    assert.equal(JSON.parse(untyped.body).media.mime, "image/png");
  });

  it("multipart without a file part named file, with too many parts, a text too long or holding U+0000 is 400 invalid_field; a broken multipart body is 400 invalid_body; other parts, a second file included, are ignored with a warning", async () => {
    const before = storedFiles(t.dataDir);
    const total = (await t.call("GET", `${site(1)}/media`)).body.total;
    refusal(await uploadMultipart(t, 1, [["alt", "x"]]), 400, "invalid_field");
    refusal(await uploadMultipart(t, 1, [["upload", { data: png, filename: "x.png" }]]), 400, "invalid_field");
    const broken = await t.call("POST", `${site(1)}/media`, {
      payload: Buffer.from("no boundary"),
      headers: { "content-type": "multipart/form-data" },
    });
    assert.equal(broken.status, 400, broken.text);
    assert.equal(broken.body.code, "invalid_body");
    const tooMany = await uploadMultipart(t, 1, [
      ["file", { data: png, filename: "ok.png" }],
      ...Array.from({ length: 20 }, (_, i) => [`f${i}`, "x"] as [string, string]),
    ]);
    refusal(tooMany, 400, "invalid_field");
    // A text field after the file is read once the file is stored: the refusal then removes it.
    refusal(
      await uploadMultipart(t, 1, [
        ["file", { data: await noisyPng(12, 12), filename: "fresh.png" }],
        ["alt", "x".repeat(1001)],
      ]),
      400,
      "invalid_field",
    );
    assert.deepEqual(storedFiles(t.dataDir), before, "a refusal after the bytes were stored removes them");
    assert.equal((await t.call("GET", `${site(1)}/media`)).body.total, total);
    // U+0000 in a text field is refused as in a JSON body (it cannot be stored in PostgreSQL text).
    for (const [name, text] of [
      ["alt", "a\u0000b"],
      ["title", "\u0000"],
    ]) {
      const nul = await uploadMultipart(t, 1, [
        ["file", { data: await noisyPng(11, 11), filename: "nul.png" }],
        [name, text],
      ]);
      refusal(nul, 400, "invalid_field");
      assert.deepEqual([nul.body.field, nul.body.reason], [name, "nul_character"], nul.text);
    }
    assert.deepEqual(storedFiles(t.dataDir), before, "nothing of a refused upload is kept");
    assert.equal((await t.call("GET", `${site(1)}/media`)).body.total, total);
    const second = await noisyPng(10, 10);
    const extra = await uploadMultipart(t, 1, [
      ["file", { data: png, filename: "ok.png" }],
      ["colour", "red"],
      ["other", { data: second, filename: "o.png" }],
      ["file", { data: second, filename: "again.png" }],
    ]);
    assert.equal(extra.status, 201, extra.text);
    assert.deepEqual(extra.body.warnings.map((w: { field: string }) => w.field).sort(), ["colour", "file", "other"]);
    assert.ok(
      !storedBlobs(t.dataDir).includes(createHash("sha256").update(second).digest("hex")),
      "the ignored file parts are stored nowhere",
    );
  });

  it("the rest of the API stays JSON-only: a raw body elsewhere is 415 in the pre-handler envelope", async () => {
    const r = await t.call("POST", `${site(1)}/pages`, { payload: png, headers: { "content-type": "image/png" } });
    assert.equal(r.status, 415);
    assert.equal(r.body.code, "unsupported_media_type");
  });
});

describe("media of another site", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("another site's id or slug is 404 media_not_found on every call, at both addresses, and nothing changes", async () => {
    const other = await makeSite(t, "Other", "other.localhost");
    const png = await noisyPng(40, 40);
    const theirs = (await uploadRaw(t, other, png, { filename: "secret.png" })).body.media;
    const before = await t.call("GET", `${site(other)}/media/${theirs.id}`);
    for (const ref of [theirs.id, theirs.slug, 999999, "nothing"]) {
      for (const prefix of [site(1), "/api"]) {
        refusal(await t.call("GET", `${prefix}/media/${ref}`), 404, "media_not_found");
        refusal(await t.call("PATCH", `${prefix}/media/${ref}`, { body: { alt: "mine" } }), 404, "media_not_found");
        refusal(await t.call("DELETE", `${prefix}/media/${ref}?force=1`), 404, "media_not_found");
        refusal(
          await uploadRaw(t, 1, png, { method: "PUT", path: `${prefix}/media/${ref}`, filename: "x.png" }),
          404,
          "media_not_found",
        );
      }
    }
    assert.equal((await t.call("GET", `${site(1)}/media`)).body.total, 0);
    assert.deepEqual((await t.call("GET", `${site(other)}/media/${theirs.id}`)).body, before.body);
  });

  it("the legacy address uploads to the site it selects", async () => {
    const other = await makeSite(t, "Legacy", "legacy.localhost");
    const r = await uploadRaw(t, other, await noisyPng(30, 30), {
      path: `/api/media?blog_id=${other}`,
      filename: "legacy.png",
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.site_id, other);
    assert.equal((await t.call("GET", `${site(other)}/media/legacy`)).status, 200);
  });
});

// Responsive variants (docs/media.md): WebP at the listed widths, made with sharp on first request and
// kept in the blob store; read back with sharp over a real socket.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import sharp from "sharp";
import { startTestApp, type TestApp } from "../support/app.ts";
import { VARIANT_WIDTHS } from "../../src/media/addresses.ts";
import { derivedName, DEFAULT_VARIANT_LIMITS, VariantMaker } from "../../src/media/variants.ts";
import { variantKeeper } from "../../src/media/variant-charges.ts";
import type { BlobStore } from "../../src/blobs/blob-store.ts";
import {
  addSite,
  animatedGif,
  fetchRaw,
  header,
  jpeg,
  noisyPng,
  removeFile,
  storeFile,
  type Stored,
} from "./serving-helpers.ts";

/** The blob store of a test app, counting the variants it is given. */
function countingPuts(blobs: BlobStore): { store: BlobStore; puts: string[] } {
  const puts: string[] = [];
  const store: BlobStore = Object.create(blobs);
  store.putDerived = (sha256, name, data) => {
    puts.push(`${sha256}/${name}`);
    return blobs.putDerived(sha256, name, data);
  };
  return { store, puts };
}

describe("image variants", () => {
  let t: TestApp;
  let port = 0;
  let wide: Stored;
  const get = (path: string, headers: Record<string, string> = {}) => fetchRaw(port, path, { headers });

  before(async () => {
    t = await startTestApp();
    wide = await storeFile(t, 1, await noisyPng(2000, 1333), "wide.png", "image/png");
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    port = (t.app.server.address() as { port: number }).port;
  });
  after(() => t.close());

  it("each listed variant answers WebP of its width and height, the original's aspect ratio, none wider than the original", async () => {
    assert.deepEqual(
      wide.variants.map((v) => v.width),
      [320, 640, 1024, 1600],
    );
    for (const variant of wide.variants) {
      assert.equal(
        await t.deps.blobs.size(wide.sha256, derivedName(variant.width)),
        undefined,
        "not made before it is asked for",
      );
      const answer = await get(variant.url);
      assert.equal(answer.status, 200, variant.url);
      assert.equal(header(answer, "content-type"), "image/webp");
      assert.equal(header(answer, "etag"), `"${wide.sha256}-${variant.width}w"`);
      assert.equal(header(answer, "cache-control"), "public, max-age=31536000, immutable");
      assert.equal(header(answer, "x-content-type-options"), "nosniff");
      assert.equal(header(answer, "accept-ranges"), "bytes");
      assert.equal(header(answer, "content-length"), String(answer.body.length));
      const meta = await sharp(answer.body).metadata();
      assert.equal(meta.format, "webp");
      assert.equal(meta.width, variant.width);
      assert.equal(meta.height, variant.height);
      assert.equal(variant.height, Math.round((variant.width * 1333) / 2000));
      assert.ok(Math.abs(meta.width / meta.height - 2000 / 1333) < 0.01, "same aspect ratio");
      assert.equal(
        await t.deps.blobs.size(wide.sha256, derivedName(variant.width)),
        answer.body.length,
        "kept in the blob store",
      );
      const again = await get(variant.url);
      assert.ok(again.body.equals(answer.body), "the kept variant is served again");
    }
    const tooWide = wide.variants[0].url.replace("-320w.webp", "-2400w.webp");
    assert.equal((await get(tooWide)).status, 404, "no variant wider than the original");
    assert.equal(
      (await get(wide.variants[0].url.replace("-320w.webp", "-321w.webp"))).status,
      404,
      "only the listed widths",
    );
    await addSite(t, "other.example");
    assert.equal(
      (await fetchRaw(port, wide.variants[0].url, { host: "other.example" })).status,
      404,
      "on its own site's domains only",
    );
  });

  it("a variant answers 304 and ranges as a file does", async () => {
    const variant = wide.variants[1];
    const whole = await get(variant.url);
    assert.equal((await get(variant.url, { "if-none-match": header(whole, "etag")! })).status, 304);
    const part = await get(variant.url, { range: "bytes=-100" });
    assert.equal(part.status, 206);
    assert.equal(
      header(part, "content-range"),
      `bytes ${whole.body.length - 100}-${whole.body.length - 1}/${whole.body.length}`,
    );
    assert.ok(part.body.equals(whole.body.subarray(whole.body.length - 100)));
    const head = await fetchRaw(port, variant.url, { method: "HEAD" });
    assert.equal(head.status, 200);
    assert.equal(header(head, "content-length"), String(whole.body.length));
  });

  it("a 2600×1300 PNG lists WebP variants at 320, 640, 1024, 1600 and 2400 (half as high), and each answers at its size", async () => {
    const png = await sharp({ create: { width: 2600, height: 1300, channels: 3, background: "#2a9d8f" } })
      .png()
      .toBuffer();
    const large = await storeFile(t, 1, png, "panorama.png", "image/png");
    assert.deepEqual([large.width, large.height], [2600, 1300]);
    assert.deepEqual(
      large.variants.map((v) => [v.width, v.height, v.mime]),
      [
        [320, 160, "image/webp"],
        [640, 320, "image/webp"],
        [1024, 512, "image/webp"],
        [1600, 800, "image/webp"],
        [2400, 1200, "image/webp"],
      ],
    );
    assert.deepEqual(
      (await t.call("GET", `/api/site/1/media/${large.id}`)).body.media.variants,
      large.variants,
      "GET lists the same",
    );
    for (const variant of large.variants) {
      const answer = await get(variant.url);
      assert.equal(answer.status, 200, variant.url);
      assert.equal(header(answer, "content-type"), "image/webp");
      const meta = await sharp(answer.body).metadata();
      assert.deepEqual([meta.format, meta.width, meta.height], ["webp", variant.width, variant.height]);
    }
  });

  it("a smaller JPEG gets only the widths it has; SVG and PDF get none", async () => {
    const photo = await storeFile(t, 1, await jpeg(700, 500), "photo.jpg", "image/jpeg");
    assert.deepEqual(
      photo.variants.map((v) => [v.width, v.height]),
      [
        [320, 229],
        [640, 457],
      ],
    );
    for (const variant of photo.variants) {
      const meta = await sharp((await get(variant.url)).body).metadata();
      assert.deepEqual([meta.width, meta.height], [variant.width, variant.height]);
    }
    const svg = await storeFile(
      t,
      1,
      Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="3000" height="2000"/>`),
      "big.svg",
      "image/svg+xml",
    );
    const pdf = await storeFile(t, 1, Buffer.from("%PDF-1.4\n%%EOF\n"), "doc.pdf", "application/pdf");
    for (const file of [svg, pdf]) {
      assert.deepEqual(file.variants, []);
      const prefix = file.url.split("/")[2];
      const stem = file.url.split("/")[3].replace(/\.[a-z]+$/, "");
      for (const width of VARIANT_WIDTHS)
        assert.equal((await get(`/media/${prefix}/${stem}-${width}w.webp`)).status, 404);
    }
  });

  it("EXIF orientation is applied: a variant stands as the photo is shown", async () => {
    const sideways = await sharp({ create: { width: 800, height: 400, channels: 3, background: "#888888" } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const photo = await storeFile(t, 1, sideways, "portrait.jpg", "image/jpeg");
    assert.deepEqual([photo.width, photo.height], [400, 800]);
    const meta = await sharp((await get(photo.variants[0].url)).body).metadata();
    assert.deepEqual([meta.width, meta.height], [320, 640]);
  });

  it("an animated GIF gives a still WebP of its first frame", async () => {
    const gif = await storeFile(t, 1, await animatedGif(400, 300), "spinner.gif", "image/gif");
    assert.deepEqual(
      gif.variants.map((v) => v.width),
      [320],
    );
    const answer = await get(gif.variants[0].url);
    assert.equal(answer.status, 200);
    const meta = await sharp(answer.body).metadata();
    assert.equal(meta.pages ?? 1, 1, "one frame");
    const { data } = await sharp(answer.body).raw().toBuffer({ resolveWithObject: true });
    assert.ok(
      data[0] > 200 && data[1] < 50 && data[2] < 50,
      `the first frame (red), got ${data[0]},${data[1]},${data[2]}`,
    );
  });

  it("a corrupt image: its variants answer 404 (never 500), the original is served as stored", async () => {
    const real = await noisyPng(900, 600);
    const corrupt = Buffer.concat([real.subarray(0, 200), Buffer.alloc(5000, 0x5a)]);
    const stored = await storeFile(t, 1, corrupt, "broken.png", "image/png");
    // Its header reads (the record has a size and lists variants); its pixels do not.
    assert.deepEqual([stored.width, stored.height, stored.variants.length], [900, 600, 2]);
    const url = stored.url.replace("broken.png", "broken-320w.webp");
    const never = await get("/no-such-page/");
    for (let i = 0; i < 2; i++) {
      const answer = await get(url);
      assert.equal(answer.status, 404);
      assert.equal(answer.body.toString(), never.body.toString(), "the public site's 404");
    }
    const original = await get(stored.url);
    assert.equal(original.status, 200);
    assert.ok(original.body.equals(corrupt));
  });

  it("a deleted image's variants answer 404 and its derived files go with its blob", async () => {
    const stored = await storeFile(t, 1, await noisyPng(700, 400), "gone.png", "image/png");
    for (const variant of stored.variants) assert.equal((await get(variant.url)).status, 200);
    await removeFile(t, stored);
    for (const variant of stored.variants) {
      assert.equal((await get(variant.url)).status, 404);
      assert.equal(await t.deps.blobs.size(stored.sha256, derivedName(variant.width)), undefined);
    }
  });

  describe("the maker", () => {
    it("concurrent first requests of one variant make it once, and all get it", async () => {
      const stored = await storeFile(t, 1, await noisyPng(1100, 700), "busy.png", "image/png");
      const { store, puts } = countingPuts(t.deps.blobs);
      const maker = new VariantMaker(store, variantKeeper(t.store.db));
      const job = (width: number, height: number) => ({
        siteId: 1,
        mediaId: stored.id,
        sha256: stored.sha256,
        width,
        height,
      });
      const outcomes = await Promise.all(Array.from({ length: 8 }, () => maker.variant(job(640, 407))));
      assert.deepEqual(puts, [`${stored.sha256}/w640.webp`]);
      const sizes = outcomes.map((o) => (typeof o === "object" && "bytes" in o ? o.bytes : -1));
      assert.ok(
        sizes.every((s) => s > 0 && s === sizes[0]),
        JSON.stringify(outcomes),
      );
      // Two widths at once are made one after the other, each once.
      await Promise.all([maker.variant(job(320, 204)), maker.variant(job(1024, 652)), maker.variant(job(320, 204))]);
      assert.equal(puts.length, 3);
    });

    it("an image over the pixel limit is refused by sharp before it is decoded, and the refusal is remembered", async () => {
      const stored = await storeFile(t, 1, await noisyPng(400, 300), "limit.png", "image/png");
      const reported: number[] = [];
      const maker = new VariantMaker(
        t.deps.blobs,
        variantKeeper(t.store.db),
        { ...DEFAULT_VARIANT_LIMITS, maxInputPixels: 100 * 100 },
        (_sha, width) => reported.push(width),
      );
      const job = { siteId: 1, mediaId: stored.id, sha256: stored.sha256, width: 320, height: 240 };
      const first = await maker.variant(job);
      assert.ok(typeof first === "object" && "failed" in first, JSON.stringify(first));
      assert.match(first.failed.message, /pixel limit/i);
      const second = await maker.variant(job);
      assert.ok(typeof second === "object" && "failed" in second);
      assert.deepEqual(reported, [320], "told once");
      assert.equal(await t.deps.blobs.size(stored.sha256, "w320.webp"), undefined);
    });

    it("a blob that is gone is `gone`", async () => {
      assert.equal(
        await new VariantMaker(t.deps.blobs, variantKeeper(t.store.db)).variant({
          siteId: 1,
          mediaId: 1,
          sha256: "f".repeat(64),
          width: 320,
          height: 200,
        }),
        "gone",
      );
    });
  });
});

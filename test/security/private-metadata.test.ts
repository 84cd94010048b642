// Private by default (docs/media.md): an uploaded JPEG, PNG, WebP or AVIF is stored without
// the metadata that says where, by whom and with what it was taken, unless the upload asks to keep
// it (?keep_metadata=1); its ICC profile and orientation stay, and its pixels are the uploaded ones
// (the files are rewritten at the container level, never re-encoded). Photos made with sharp carry
// EXIF (GPS position, camera make and model, body serial number, artist, copyright, a comment),
// XMP (dc:creator), a Display P3 ICC profile and orientation 6 (shown rotated a quarter turn);
// the JPEG also an IPTC block (APP13), a comment (COM) and bytes after its end, the PNG a tEXt
// Author and bytes after its end. Read back over the public address and the API.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { crc32 } from "node:zlib";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import sharp from "sharp";
import { startTestApp, type TestApp } from "../support/app.ts";
import { withoutPersonalMetadata } from "../../src/media/metadata/private.ts";
import { fetchRaw } from "../media/serving-helpers.ts";
import { refusal, site, storeState, uploadMultipart, uploadRaw } from "../media/upload-helpers.ts";

type Format = "jpeg" | "png" | "webp" | "avif";
const FORMATS: Format[] = ["jpeg", "png", "webp", "avif"];
/** What must not be stored: every personal value the photos carry, by where it is. */
const PERSONAL = [
  "Jane Doe",
  "SN-123456",
  "Acme",
  "Snap 9",
  "at home",
  "Jane Doe XMP",
  "Jane Doe IPTC",
  "Jane Doe comment",
  "Jane Doe trailer",
  "Jane Doe PNG",
];

const XMP = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>Jane Doe XMP</dc:creator></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;
const EXIF = {
  IFD0: { Artist: "Jane Doe", Copyright: "Jane Doe 2026", Make: "Acme", Model: "Snap 9" },
  IFD2: { BodySerialNumber: "SN-123456", UserComment: "at home" },
  IFD3: { GPSLatitudeRef: "N", GPSLatitude: "51/1 30/1 0/1", GPSLongitudeRef: "W", GPSLongitude: "0/1 7/1 0/1" },
};

const segment = (marker: number, payload: string) => {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, Buffer.from(payload, "latin1")]);
};

function pngChunk(type: string, data: string): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type + data, 4, "latin1");
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** A 60×40 photo of `format`, shown 40×60, with every kind of personal metadata the format takes. */
async function photo(format: Format): Promise<Buffer> {
  const made = await sharp({
    create: {
      width: 60,
      height: 40,
      channels: 3,
      background: "#3a6ea5",
      noise: { type: "gaussian", mean: 120, sigma: 40 },
    },
  })
    [format]()
    .withExif(EXIF)
    .withMetadata({ orientation: 6 })
    .withXmp(XMP)
    .withIccProfile("p3")
    .toBuffer();
  if (format === "jpeg") {
    const extra = Buffer.concat([
      segment(0xed, "Photoshop 3.0\0" + "8BIM\x04\x04\0\0\0\0\0\x14\x1c\x02\x50\0\x0dJane Doe IPTC"),
      segment(0xfe, "Jane Doe comment"),
    ]);
    return Buffer.concat([made.subarray(0, 2), extra, made.subarray(2), Buffer.from("Jane Doe trailer")]);
  }
  if (format === "png") {
    const afterHeader = 8 + 25; // signature, IHDR
    return Buffer.concat([
      made.subarray(0, afterHeader),
      pngChunk("tEXt", "Author\0Jane Doe PNG"),
      made.subarray(afterHeader),
      Buffer.from("Jane Doe trailer"),
    ]);
  }
  return made;
}

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");
const pixels = (image: Buffer) => sharp(image).raw().toBuffer();

describe("private by default: uploaded images lose their personal metadata", () => {
  let t: TestApp;
  let port: number;
  const photos = new Map<Format, Buffer>();
  const served = async (url: string) => {
    const answer = await fetchRaw(port, url);
    assert.equal(answer.status, 200, url);
    return answer.body;
  };

  before(async () => {
    t = await startTestApp();
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
    for (const format of FORMATS) photos.set(format, await photo(format));
  });
  after(() => t.close());

  it("the test photos do carry the metadata, ICC profile and orientation", async () => {
    for (const [format, original] of photos) {
      const meta = await sharp(original).metadata();
      assert.ok(meta.exif !== undefined && meta.xmp !== undefined && meta.icc !== undefined, format);
      assert.ok(
        PERSONAL.slice(0, 4).every((text) => original.includes(text)),
        format,
      );
      assert.deepEqual(meta.autoOrient, { width: 40, height: 60 }, format);
    }
  });

  for (const format of FORMATS) {
    it(`${format}: GPS, camera, serial number, author, comments, XMP${format === "jpeg" ? ", IPTC" : ""} are not stored; the ICC profile, orientation and pixels are; sha256, bytes and media_bytes are the stored file's`, async () => {
      const original = photos.get(format)!;
      const usedBefore = (await t.call("GET", `${site(1)}/usage`)).body.usage.media_bytes.used;
      const upload =
        format === "png" || format === "avif"
          ? await uploadMultipart(t, 1, [
              ["file", { data: original, filename: `photo.${format}`, type: `image/${format}` }],
            ])
          : await uploadRaw(t, 1, original, { filename: `photo.${format}`, type: `image/${format}` });
      assert.equal(upload.status, 201, upload.text);
      const media = upload.body.media;
      const stored = await served(media.url);
      for (const text of PERSONAL) assert.ok(!stored.includes(text), `${format}: "${text}" is not stored`);
      const meta = await sharp(stored).metadata();
      const originalMeta = await sharp(original).metadata();
      assert.ok(meta.icc?.equals(originalMeta.icc!), "the ICC profile is kept as it was");
      assert.deepEqual(meta.autoOrient, { width: 40, height: 60 }, "it stands as it was shown");
      if (format === "avif") {
        // AVIF's orientation is its own (irot); its EXIF and XMP items are emptied where they stand.
        assert.ok(
          meta.exif!.subarray(0, 10).equals(Buffer.from([0x4d, 0x4d, 0, 42, 0, 0, 0, 8, 0, 0])),
          "an EXIF of no tags",
        );
        assert.ok(meta.exif!.subarray(10).every((byte) => byte === 0));
        assert.ok(!meta.xmp!.includes("creator"));
      } else {
        assert.equal(meta.orientation, 6, "the orientation tag is kept");
        assert.ok(meta.exif!.length <= 32, `the EXIF holds the orientation only (${meta.exif!.length} bytes)`);
        assert.equal(meta.xmp, undefined);
        assert.equal(meta.iptc, undefined);
      }
      assert.ok(
        (await pixels(stored)).equals(await pixels(original)),
        "the pixels are the uploaded ones: nothing was encoded again",
      );
      assert.ok(
        format === "avif" ? stored.length === original.length : stored.length < original.length,
        "AVIF's items keep their length",
      );
      assert.deepEqual([media.sha256, media.bytes, media.width, media.height], [sha256(stored), stored.length, 40, 60]);
      assert.equal(
        (await t.call("GET", `${site(1)}/usage`)).body.usage.media_bytes.used,
        usedBefore + stored.length,
        "media_bytes counts the stored bytes",
      );
      const variant = await fetchRaw(port, media.variants[0]?.url ?? "/none");
      assert.equal(media.variants.length, 0, "40 pixels wide: no variant");
      assert.equal(variant.status, 404);
    });
  }

  it("?keep_metadata=1 stores the file as sent, on POST and PUT; PUT without it removes the metadata", async () => {
    const original = photos.get("jpeg")!;
    const kept = await uploadRaw(t, 1, original, { filename: "kept.jpg", path: `${site(1)}/media?keep_metadata=1` });
    assert.equal(kept.status, 201, kept.text);
    assert.ok((await served(kept.body.media.url)).equals(original));
    assert.deepEqual([kept.body.media.sha256, kept.body.media.bytes], [sha256(original), original.length]);

    const replaced = await uploadRaw(t, 1, photos.get("webp")!, {
      filename: "kept.webp",
      method: "PUT",
      path: `${site(1)}/media/${kept.body.media.id}?keep_metadata=true`,
    });
    assert.equal(replaced.status, 200, replaced.text);
    assert.ok((await served(replaced.body.media.url)).equals(photos.get("webp")!));

    const stripped = await uploadMultipart(
      t,
      1,
      [["file", { data: original, filename: "again.jpg", type: "image/jpeg" }]],
      { method: "PUT", path: `${site(1)}/media/${kept.body.media.id}` },
    );
    assert.equal(stripped.status, 200, stripped.text);
    const bytes = await served(stripped.body.media.url);
    assert.ok(!bytes.includes("Jane Doe") && bytes.length === stripped.body.media.bytes);
  });

  it("?keep_metadata takes 1, true, 0 or false: anything else is 400 invalid_parameter before the body is read, nothing stored", async () => {
    const before = await storeState(t);
    const answer = await uploadRaw(t, 1, photos.get("jpeg")!, {
      filename: "odd.jpg",
      path: `${site(1)}/media?keep_metadata=yes`,
    });
    refusal(answer, 400, "invalid_parameter");
    assert.equal(answer.body.parameter, "keep_metadata");
    assert.deepEqual(await storeState(t), before);
  });
});

describe("metadata removal, as a stream", () => {
  async function strip(mime: string, file: Buffer, cuts: number[] = []): Promise<Buffer> {
    const ends = [...new Set(cuts.map((cut) => cut % (file.length + 1)))].sort((a, b) => a - b);
    const chunks = (async function* () {
      let from = 0;
      for (const end of [...ends, file.length]) {
        if (end > from) yield file.subarray(from, end);
        from = Math.max(from, end);
      }
    })();
    const out: Buffer[] = [];
    for await (const piece of withoutPersonalMetadata(mime, chunks)) out.push(Buffer.from(piece));
    return Buffer.concat(out);
  }

  it("whatever chunks the bytes arrive in, the stored file is the same; removing again changes nothing", async () => {
    const files = await Promise.all(FORMATS.map(async (format) => [`image/${format}`, await photo(format)] as const));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...files), fc.array(fc.nat(), { maxLength: 40 }), async ([mime, file], cuts) => {
        const whole = await strip(mime, file);
        assert.ok((await strip(mime, file, cuts)).equals(whole));
        assert.ok((await strip(mime, whole, cuts)).equals(whole), "idempotent");
      }),
      { numRuns: 200 },
    );
  });

  it("images without metadata are stored byte for byte: baseline and progressive JPEG, PNG with a palette, lossy and lossless WebP, AVIF", async () => {
    const base = () =>
      sharp({
        create: {
          width: 64,
          height: 48,
          channels: 3,
          background: "#3a6ea5",
          noise: { type: "gaussian", mean: 120, sigma: 40 },
        },
      });
    const made: Array<[string, Buffer]> = [
      ["image/jpeg", await base().jpeg().toBuffer()],
      ["image/jpeg", await base().jpeg({ progressive: true }).toBuffer()],
      ["image/png", await base().png({ palette: true }).toBuffer()],
      ["image/webp", await base().webp().toBuffer()],
      ["image/webp", await base().webp({ lossless: true }).toBuffer()],
      ["image/avif", await base().avif().toBuffer()],
    ];
    for (const [mime, file] of made) assert.ok((await strip(mime, file, [1, 2, 3, 7, 100])).equals(file), mime);
  });

  it("a JPEG or PNG cut short at any byte gives the start of what the whole one gives, and none of its metadata", async () => {
    for (const format of ["jpeg", "png"] as const) {
      const file = await photo(format);
      const whole = await strip(`image/${format}`, file);
      for (let cut = 0; cut <= file.length; cut += format === "png" ? 7 : 1) {
        const partial = await strip(`image/${format}`, file.subarray(0, cut), [cut >> 1]);
        assert.ok(whole.subarray(0, partial.length).equals(partial), `${format} cut at ${cut}`);
        for (const text of PERSONAL) assert.ok(!partial.includes(text), `${format} cut at ${cut}: "${text}"`);
      }
    }
  });
});

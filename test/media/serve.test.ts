// Public serving of media files (docs/media.md, "Serving and variants"): over a real socket, on the
// site's own domain, byte for byte, with every header, 304, Range, SVG's policy, isolation between
// sites, deleted files, and the public rate limit.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { startTestApp, type TestApp } from "../support/app.ts";
import { assign, bind, frame, page } from "../support/site.ts";
import {
  addSite,
  fetchRaw,
  header,
  noisyPng,
  removeFile,
  storeFile,
  type Fetched,
  type Stored,
} from "./serving-helpers.ts";

const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>document.title="ran"</script><rect width="10" height="10" fill="red"/></svg>`;
const PDF = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");

describe("public media files", () => {
  let t: TestApp;
  let port = 0;
  let png: Buffer;
  let image: Stored;
  const get = (path: string, headers: Record<string, string> = {}, method = "GET", host = "localhost:8080") =>
    fetchRaw(port, path, { headers, method, host });

  before(async () => {
    t = await startTestApp();
    png = await noisyPng(200, 150);
    image = await storeFile(t, 1, png, "holiday photo.png", "image/png");
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    port = (t.app.server.address() as { port: number }).port;
  });
  after(() => t.close());

  it("answers the file byte for byte at its url, with every header", async () => {
    assert.match(image.url, /^\/media\/[0-9a-f]{16}\/holiday%20photo\.png$/);
    const answer = await get(image.url);
    assert.equal(answer.status, 200);
    assert.ok(answer.body.equals(png), "the bytes as uploaded");
    assert.equal(header(answer, "etag"), `"${createHash("sha256").update(png).digest("hex")}"`);
    assert.equal(header(answer, "cache-control"), "public, max-age=31536000, immutable");
    assert.equal(header(answer, "content-type"), "image/png");
    assert.equal(header(answer, "content-length"), String(png.length));
    assert.equal(header(answer, "accept-ranges"), "bytes");
    assert.equal(header(answer, "x-content-type-options"), "nosniff");
    assert.equal(header(answer, "content-security-policy"), undefined, "a raster image needs no policy");
  });

  it("HEAD answers the same headers and no body", async () => {
    const got = await get(image.url);
    const head = await get(image.url, {}, "HEAD");
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    for (const name of [
      "etag",
      "cache-control",
      "content-type",
      "content-length",
      "accept-ranges",
      "x-content-type-options",
    ]) {
      assert.equal(header(head, name), header(got, name), name);
    }
  });

  it("If-None-Match with the ETag answers 304 without a body, in any form a client sends it", async () => {
    const etag = header(await get(image.url), "etag")!;
    for (const ifNoneMatch of [etag, `"other", ${etag}`, `W/${etag}`, "*"]) {
      const answer = await get(image.url, { "if-none-match": ifNoneMatch });
      assert.equal(answer.status, 304, ifNoneMatch);
      assert.equal(answer.body.length, 0);
      assert.equal(header(answer, "etag"), etag);
      assert.equal(header(answer, "cache-control"), "public, max-age=31536000, immutable");
    }
    assert.equal((await get(image.url, { "if-none-match": '"other"' })).status, 200);
  });

  describe("Range", () => {
    const ranged = async (range: string, extra: Record<string, string> = {}): Promise<Fetched> =>
      get(image.url, { range, ...extra });
    const size = () => png.length;

    it("the first byte", async () => {
      const answer = await ranged("bytes=0-0");
      assert.equal(answer.status, 206);
      assert.equal(header(answer, "content-range"), `bytes 0-0/${size()}`);
      assert.equal(header(answer, "content-length"), "1");
      assert.ok(answer.body.equals(png.subarray(0, 1)));
      assert.equal(header(answer, "etag"), `"${image.sha256}"`);
      assert.equal(header(answer, "content-type"), "image/png");
    });

    it("the last byte", async () => {
      const answer = await ranged(`bytes=${size() - 1}-${size() - 1}`);
      assert.equal(answer.status, 206);
      assert.equal(header(answer, "content-range"), `bytes ${size() - 1}-${size() - 1}/${size()}`);
      assert.ok(answer.body.equals(png.subarray(size() - 1)));
    });

    it("a suffix: the last 500 bytes", async () => {
      const answer = await ranged("bytes=-500");
      assert.equal(answer.status, 206);
      assert.equal(header(answer, "content-range"), `bytes ${size() - 500}-${size() - 1}/${size()}`);
      assert.equal(header(answer, "content-length"), "500");
      assert.ok(answer.body.equals(png.subarray(size() - 500)));
    });

    it("an open range: from byte 100 to the end", async () => {
      const answer = await ranged("bytes=100-");
      assert.equal(answer.status, 206);
      assert.equal(header(answer, "content-range"), `bytes 100-${size() - 1}/${size()}`);
      assert.ok(answer.body.equals(png.subarray(100)));
    });

    it("a range past the end is cut at the end", async () => {
      const answer = await ranged(`bytes=10-${size() + 1000}`);
      assert.equal(answer.status, 206);
      assert.equal(header(answer, "content-range"), `bytes 10-${size() - 1}/${size()}`);
      assert.ok(answer.body.equals(png.subarray(10)));
    });

    it("unsatisfiable: 416 with Content-Range bytes */size", async () => {
      for (const range of [`bytes=${size()}-`, `bytes=${size() + 10}-${size() + 20}`]) {
        const answer = await ranged(range);
        assert.equal(answer.status, 416, range);
        assert.equal(header(answer, "content-range"), `bytes */${size()}`);
        assert.equal(answer.body.length, 0);
      }
    });

    it("a malformed Range is ignored: 200 with the whole file", async () => {
      for (const range of [
        "bytes=abc",
        "bytes=5-1",
        "items=0-10",
        "bytes=0-10,x-",
        "nonsense",
        `bytes=${"1".repeat(300)}-`,
      ]) {
        const answer = await ranged(range);
        assert.equal(answer.status, 200, range);
        assert.ok(answer.body.equals(png), range);
        assert.equal(header(answer, "content-range"), undefined);
      }
    });

    it("several ranges are answered whole (200)", async () => {
      const answer = await ranged("bytes=0-9,20-29");
      assert.equal(answer.status, 200);
      assert.ok(answer.body.equals(png));
    });

    it("If-Range: with the ETag the range is answered, with another validator the whole file", async () => {
      const etag = `"${image.sha256}"`;
      assert.equal((await ranged("bytes=0-9", { "if-range": etag })).status, 206);
      const other = await ranged("bytes=0-9", { "if-range": '"something-else"' });
      assert.equal(other.status, 200);
      assert.ok(other.body.equals(png));
    });

    it("HEAD ignores Range", async () => {
      const answer = await get(image.url, { range: "bytes=0-9" }, "HEAD");
      assert.equal(answer.status, 200);
      assert.equal(header(answer, "content-length"), String(size()));
    });
  });

  it("SVG carries a policy that runs no script, shown inline; PDF is served as stored", async () => {
    const svg = await storeFile(t, 1, Buffer.from(SVG), "drawing.svg", "image/svg+xml");
    const answer = await get(svg.url);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.toString(), SVG);
    assert.equal(header(answer, "content-type"), "image/svg+xml");
    assert.equal(header(answer, "content-security-policy"), "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    assert.equal(header(answer, "content-disposition"), "inline");
    assert.equal(header(answer, "x-content-type-options"), "nosniff");
    const pdf = await storeFile(t, 1, PDF, "paper.pdf", "application/pdf");
    const doc = await get(pdf.url);
    assert.equal(doc.status, 200);
    assert.ok(doc.body.equals(PDF));
    assert.equal(header(doc, "content-type"), "application/pdf");
    assert.equal(header(doc, "content-security-policy"), undefined);
  });

  it("another spelling or an unknown name answers the public site's 404, the same bytes as an address that never held a page", async () => {
    const never = await get("/no-such-page/");
    assert.equal(never.status, 404);
    const prefix = image.url.split("/")[2];
    for (const path of [
      `/media/${prefix}/other.png`,
      `/media/${"0".repeat(16)}/holiday%20photo.png`,
      `/media/${prefix.toUpperCase()}/holiday%20photo.png`,
      `/media/${prefix}`,
      "/media/x/y",
    ]) {
      const answer = await get(path);
      assert.equal(answer.status, 404, path);
      assert.equal(answer.body.toString(), never.body.toString(), path);
      assert.equal(header(answer, "content-type"), header(never, "content-type"), path);
      assert.equal(header(answer, "etag"), undefined, path);
    }
    // Malformed percent-encoding: the router's 400, as for a page address.
    assert.equal((await get(`/media/${prefix}/%E0%A4%A`)).status, 400);
    assert.equal((await get("/x%A/")).status, 400);
  });

  it("a file answers on its own site's domain only: another site's domain answers its 404", async () => {
    await addSite(t, "b.example");
    const other = await storeFile(t, await addSite(t, "c.example"), await noisyPng(40, 30), "c-only.png", "image/png");
    const never = await get("/no-such-page/", {}, "GET", "b.example");
    for (const [url, host] of [
      [image.url, "b.example"],
      [other.url, "b.example"],
      [other.url, "localhost:8080"],
    ]) {
      const answer = await get(url, {}, "GET", host);
      assert.equal(answer.status, 404, `${url} on ${host}`);
      assert.equal(answer.body.toString(), never.body.toString());
    }
    assert.equal((await get(other.url, {}, "GET", "c.example")).status, 200);
    assert.equal((await get(other.url, {}, "HEAD", "b.example")).status, 404);
  });

  it("a deleted file answers 404; the same bytes on another row still answer there", async () => {
    const data = await noisyPng(30, 20);
    const first = await storeFile(t, 1, data, "twice.png", "image/png");
    const second = await storeFile(t, 1, data, "again.png", "image/png");
    assert.equal((await get(first.url)).status, 200);
    await removeFile(t, first);
    assert.equal((await get(first.url)).status, 404);
    assert.ok((await get(second.url)).body.equals(data), "the blob stays while a row names it");
    await removeFile(t, second);
    assert.equal((await get(second.url)).status, 404);
  });

  it("a page whose address starts with /media/ still answers (the media route falls back to the page)", async () => {
    await frame(t, "media-page", `<!DOCTYPE html><html><body><h1 ${bind("text", "page.title")}>x</h1></body></html>`);
    await assign(t, "media-page", (await page(t, { title: "Media kit", slug: "media" })).id);
    const answer = await get("/media/");
    assert.equal(answer.status, 200);
    assert.match(answer.body.toString(), /<h1>Media kit<\/h1>/);
    assert.equal((await get("/media/")).status, 200, "from memory too");
    assert.equal((await get(image.url)).status, 200, "files still answer beside it");
  });
});

describe("media requests count against the public limit", () => {
  it("past SVC_PUBLIC_RATE_LIMIT_PER_MIN a media file answers 429 with Retry-After", async () => {
    const t = await startTestApp({ env: { SVC_PUBLIC_RATE_LIMIT_PER_MIN: "3" } });
    try {
      const stored = await storeFile(t, 1, await noisyPng(20, 20), "limited.png", "image/png");
      await t.app.listen({ host: "127.0.0.1", port: 0 });
      const port = (t.app.server.address() as { port: number }).port;
      const statuses: number[] = [];
      let last: Fetched | undefined;
      for (let i = 0; i < 4; i++) {
        last = await fetchRaw(port, stored.url);
        statuses.push(last.status);
      }
      assert.deepEqual(statuses, [200, 200, 200, 429]);
      assert.ok(Number(header(last!, "retry-after")) >= 1);
      assert.equal((await fetchRaw(port, "/no-such-page/")).status, 429, "pages and media share the window");
    } finally {
      await t.close();
    }
  });
});

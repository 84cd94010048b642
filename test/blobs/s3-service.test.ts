// The real service process (`node dist/main.js`) keeping its media in S3-compatible storage: an
// S3-protocol server started by the test (test/support/s3-server.ts), the service configured for
// it through SVC_MEDIA_S3_* and the AWS credential variables, as an operator would. Files are
// uploaded through POST /media and read back over a socket; the bucket is looked at directly.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ListObjectsV2Command, type S3Client } from "@aws-sdk/client-s3";
import sharp from "sharp";
import { s3ClientFor } from "../../src/blobs/s3-store.ts";
import { generateToken } from "../../src/tokens.ts";
import { serviceDatabase, startService, type Running } from "../support/process.ts";
import type { TestDatabase } from "../support/database.ts";
import { startS3Server, type TestS3Server } from "../support/s3-server.ts";

interface Got {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A public GET over a socket, on the main site's host, keeping the bytes. */
function getPublic(port: number, path: string, headers: Record<string, string> = {}): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, headers: { host: "localhost", ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

const sha256Of = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** A PNG wide enough for two variants, noisy so that it does not compress away. */
const photo = () =>
  sharp({
    create: {
      width: 700,
      height: 420,
      channels: 3,
      background: "#3a6ea5",
      noise: { type: "gaussian", mean: 120, sigma: 40 },
    },
  })
    .png({ compressionLevel: 1 })
    .toBuffer();

describe("the service with its media on S3", () => {
  let s3: TestS3Server;
  let bucketClient: S3Client;
  let database: TestDatabase;
  let dataDir: string;
  let service: Running;
  const token = generateToken();
  const env = () => ({ ...s3.env, SVC_DATA_DIR: dataDir, SVC_ADMIN_TOKEN: token });
  const api = (path: string, init: RequestInit = {}) =>
    fetch(service.url(`/api/site/1${path}`), {
      ...init,
      headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) },
    });
  const keys = async () =>
    ((await bucketClient.send(new ListObjectsV2Command({ Bucket: s3.options.bucket }))).Contents ?? [])
      .map((object) => object.Key!)
      .sort();

  before(async () => {
    s3 = await startS3Server();
    bucketClient = s3ClientFor(s3.options, { credentials: s3.credentials });
    const prepared = await serviceDatabase();
    database = prepared.database;
    dataDir = mkdtempSync(join(tmpdir(), "svc-s3-service-"));
    service = await startService({ ...prepared.env, ...env() });
  });
  after(async () => {
    await service?.stop();
    bucketClient?.destroy();
    await s3?.stop();
    await database?.drop();
  });

  it("stores an upload in the bucket, serves it byte for byte (whole and ranged) with its variants, and removes it with the last record", async () => {
    const png = await photo();
    const upload = () =>
      api("/media?filename=holiday.png", { method: "POST", headers: { "content-type": "image/png" }, body: png });
    const first = await upload();
    assert.equal(first.status, 201, await first.clone().text());
    const media = ((await first.json()) as any).media;
    assert.equal(media.sha256, sha256Of(png));
    assert.equal(media.bytes, png.byteLength);
    assert.ok((await keys()).includes(`blobs/${media.sha256}`), "the blob is in the bucket");
    assert.ok(
      !existsSync(join(dataDir, "media")) ||
        readdirSync(join(dataDir, "media"), { recursive: true }).every(
          (entry) => !String(entry).includes(media.sha256),
        ),
      "and not on the disk",
    );

    const whole = await getPublic(service.port, media.url);
    assert.equal(whole.status, 200);
    assert.ok(whole.body.equals(png), "read back byte for byte");
    const ranged = await getPublic(service.port, media.url, { range: "bytes=100-1099" });
    assert.equal(ranged.status, 206);
    assert.ok(ranged.body.equals(png.subarray(100, 1100)));

    assert.ok(media.variants.length >= 2, "variants at 320 and 640");
    for (const variant of media.variants) {
      const got = await getPublic(service.port, variant.url);
      assert.equal(got.status, 200, variant.url);
      assert.equal(got.headers["content-type"], variant.mime);
      assert.equal((await sharp(got.body).metadata()).width, variant.width);
    }
    const derived = (await keys()).filter((key) => key.startsWith(`derived/${media.sha256}/`));
    assert.equal(derived.length, media.variants.length, "each variant kept in the bucket beside its blob");

    // The same bytes again: a second record, one blob. The blob stays while a record names it.
    const second = ((await (await upload()).json()) as any).media;
    assert.equal(second.sha256, media.sha256);
    assert.notEqual(second.id, media.id);
    assert.equal((await keys()).filter((key) => key.startsWith("blobs/")).length, 1);
    assert.equal((await api(`/media/${media.id}?force=1`, { method: "DELETE" })).status, 200);
    assert.ok((await keys()).includes(`blobs/${media.sha256}`), "still named by the second record");
    assert.equal((await getPublic(service.port, second.url)).status, 200);
    assert.equal((await api(`/media/${second.id}?force=1`, { method: "DELETE" })).status, 200);
    assert.deepEqual(await keys(), [], "the last record gone, the blob and its variants go");
    assert.equal((await getPublic(service.port, second.url)).status, 404);
  });

  it("a process killed mid-upload leaves no blob in the bucket and no record", async () => {
    const size = 20 * 1024 * 1024;
    const body = randomBytes(size);
    // A PNG's signature first, so the upload is not refused by its type before the body is in.
    (await photo()).copy(body, 0, 0, 64);
    const before = await keys();
    const req = request({
      host: "127.0.0.1",
      port: service.port,
      path: "/api/site/1/media?filename=big.png",
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "image/png", "content-length": String(size) },
    });
    req.on("error", () => {});
    let answered = false;
    req.on("response", () => (answered = true));
    // More than two parts of the store's 8 MiB: a multipart upload is under way in the bucket.
    req.write(body.subarray(0, 18 * 1024 * 1024));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(answered, false, "the upload is still under way, not refused");
    assert.equal(await service.stop("SIGKILL"), null);
    req.destroy();

    assert.deepEqual(
      (await keys()).filter((key) => key.startsWith("blobs/")),
      before.filter((key) => key.startsWith("blobs/")),
      "no blob under a key",
    );
    service = await startService({ ...(database.url ? { DATABASE_URL: database.url } : {}), ...env() });
    const listed = (await (await api("/media")).json()) as any;
    assert.equal(listed.total, 0, "no record");
  });
});

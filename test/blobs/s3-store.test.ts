// The S3 blob store (src/blobs/s3-store.ts) against an S3-protocol server started by the test
// (test/support/s3-server.ts): the contract every blob store keeps, then what is S3's own — the
// bucket's layout, bounded parts, copies over the copy limit, virtual-hosted addressing.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { Agent } from "node:http";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from "@aws-sdk/client-s3";
import { S3BlobStore, STALE_TEMPORARY_MS, s3ClientFor } from "../../src/blobs/s3-store.ts";
import { startS3Server, type TestS3Server } from "../support/s3-server.ts";
import { blobStoreContract } from "./contract.ts";

const MiB = 1024 * 1024;
const PART_BYTES = 5 * MiB;

/** What the client sent, seen from outside the store: unfinished multipart uploads, the largest body, commands by kind. */
function watchClient(client: S3Client) {
  const watch = { openUploads: new Set<string>(), largestBody: 0, sent: new Map<string, number>() };
  const send = client.send.bind(client) as (command: any) => Promise<any>;
  client.send = (async (command: any) => {
    const body = command.input?.Body;
    if (body instanceof Uint8Array) watch.largestBody = Math.max(watch.largestBody, body.byteLength);
    const answer = await send(command);
    watch.sent.set(command.constructor.name, (watch.sent.get(command.constructor.name) ?? 0) + 1);
    if (command instanceof CreateMultipartUploadCommand) watch.openUploads.add(answer.UploadId);
    if (command instanceof CompleteMultipartUploadCommand || command instanceof AbortMultipartUploadCommand)
      watch.openUploads.delete(command.input.UploadId!);
    return answer;
  }) as S3Client["send"];
  return watch;
}

async function keysIn(client: S3Client, bucket: string): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
    keys.push(...(page.Contents ?? []).map((object) => object.Key!));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return keys.sort();
}

async function readAll(stream: AsyncIterable<unknown> | undefined): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream!) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function* inChunks(data: Uint8Array, chunkBytes = 64 * 1024): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < data.byteLength; at += chunkBytes) yield data.subarray(at, at + chunkBytes);
}

blobStoreContract(
  "S3",
  async () => {
    const server = await startS3Server();
    const client = s3ClientFor(server.options, { credentials: server.credentials });
    const watch = watchClient(client);
    const store = new S3BlobStore(client, { bucket: server.options.bucket, partBytes: PART_BYTES });
    return {
      store,
      stored: async () =>
        [
          ...(await keysIn(client, server.options.bucket)),
          ...[...watch.openUploads].map((id) => `unfinished upload ${id}`),
        ].sort(),
      close: async () => {
        await store.close();
        await server.stop();
      },
    };
  },
  // Past two parts, so a multipart upload is made, completed, aborted.
  { largeBytes: 2 * PART_BYTES + 1000 },
);

describe("S3 blob store: what is S3's own", () => {
  let server: TestS3Server;
  before(async () => {
    server = await startS3Server();
  });
  after(() => server.stop());

  const open = (options: { copyLimitBytes?: number } = {}) => {
    const client = s3ClientFor(server.options, { credentials: server.credentials });
    const watch = watchClient(client);
    const store = new S3BlobStore(client, { bucket: server.options.bucket, partBytes: PART_BYTES, ...options });
    return { client, watch, store };
  };

  it("lays out the bucket as blobs/<sha256>, derived/<sha256>/<name>, and leaves no tmp/ key", async () => {
    const { client, store } = open();
    const data = randomBytes(3000);
    const { sha256 } = await store.put(inChunks(data), data.byteLength);
    await store.putDerived(sha256, "w320.webp", randomBytes(10));
    assert.deepEqual(await keysIn(client, server.options.bucket), [`blobs/${sha256}`, `derived/${sha256}/w320.webp`]);
    await store.delete(sha256);
    assert.deepEqual(await keysIn(client, server.options.bucket), []);
    await store.close();
  });

  it("streams a blob several parts long holding no more than a part in any request, never the whole", async () => {
    const { watch, store } = open();
    const data = randomBytes(4 * PART_BYTES + 12345);
    const { sha256 } = await store.put(inChunks(data, 3 * MiB + 7), Number.MAX_SAFE_INTEGER);
    assert.equal(sha256, createHash("sha256").update(data).digest("hex"));
    assert.ok(watch.largestBody <= PART_BYTES, `largest request body ${watch.largestBody} bytes`);
    assert.equal(watch.sent.get("UploadPartCommand"), 5, "four whole parts and the rest");
    assert.deepEqual(await readAll(await store.read(sha256)), data);
    await store.delete(sha256);
    await store.close();
  });

  it("copies a blob larger than the copy limit in parts, and reads it back equal", async () => {
    const { watch, store } = open({ copyLimitBytes: 6 * MiB });
    const data = randomBytes(13 * MiB + 5);
    const { sha256 } = await store.put(inChunks(data), data.byteLength);
    assert.equal(watch.sent.get("UploadPartCopyCommand"), 3, "6 + 6 + 1 MiB");
    assert.equal(watch.sent.get("CopyObjectCommand"), undefined);
    assert.equal(watch.openUploads.size, 0);
    assert.deepEqual(
      await readAll(await store.read(sha256, { range: { start: 6 * MiB - 2, end: 6 * MiB + 1 } })),
      data.subarray(6 * MiB - 2, 6 * MiB + 2),
    );
    assert.deepEqual(await readAll(await store.read(sha256)), data);
    await store.delete(sha256);
    await store.close();
  });

  it("an upload of bytes stored already copies nothing", async () => {
    const { watch, store } = open();
    const data = randomBytes(1000);
    await store.put(inChunks(data), 1000);
    assert.equal(watch.sent.get("CopyObjectCommand"), 1);
    const { sha256 } = await store.put(inChunks(data), 1000);
    assert.equal(watch.sent.get("CopyObjectCommand"), 1);
    await store.delete(sha256);
    await store.close();
  });

  it("removes temporaries older than it is told (a crash between a put's upload and its copy), keeping newer ones", async () => {
    const { client, store } = open();
    await client.send(
      new PutObjectCommand({ Bucket: server.options.bucket, Key: "tmp/left-by-a-crash", Body: randomBytes(10) }),
    );
    const temporaries = async () =>
      (await keysIn(client, server.options.bucket)).filter((key) => key.startsWith("tmp/"));
    await store.removeStaleTemporaries(Date.now() - STALE_TEMPORARY_MS);
    assert.deepEqual(
      await temporaries(),
      ["tmp/left-by-a-crash"],
      "an hour's margin: a recent one may be a put under way",
    );
    await store.removeStaleTemporaries(Date.now() + 1000);
    assert.deepEqual(await temporaries(), []);
    await store.close();
  });

  it("addresses the bucket in the host name when path style is off (as AWS S3 wants)", async () => {
    // The bucket's host name, svc-media-test.s3.test, is sent to the test server on 127.0.0.1.
    const port = new URL(server.options.endpoint!).port;
    const hosts: string[] = [];
    const agent = new Agent({
      lookup: ((
        hostname: string,
        options: { all?: boolean },
        callback: (error: null, ...answer: unknown[]) => void,
      ) => {
        hosts.push(hostname);
        if (options.all) callback(null, [{ address: "127.0.0.1", family: 4 }]);
        else callback(null, "127.0.0.1", 4);
      }) as any,
    });
    const options = { ...server.options, endpoint: `http://s3.test:${port}`, forcePathStyle: false };
    const client = s3ClientFor(options, { credentials: server.credentials, requestHandler: { httpAgent: agent } });
    const store = new S3BlobStore(client, { bucket: options.bucket });
    const data = randomBytes(2000);
    const { sha256 } = await store.put(inChunks(data), data.byteLength);
    assert.deepEqual(await readAll(await store.read(sha256)), data);
    assert.ok(hosts.length > 0 && hosts.every((host) => host === `${options.bucket}.s3.test`), hosts.join(", "));
    await store.delete(sha256);
    await store.close();
    agent.destroy();
  });
});

// What every blob store promises (src/blobs/blob-store.ts), run against each backend by its own
// test file (fs-store.test.ts, s3-store.test.ts). A backend gives the store and a listing of
// everything it holds — blobs, derived files, temporaries, unfinished uploads — so "nothing
// stored" and "no temporary left" are checked on the backend itself, not through the store.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash, randomBytes, randomInt } from "node:crypto";
import type { Readable } from "node:stream";
import { BlobTooLarge, type BlobStore } from "../../src/blobs/blob-store.ts";

export interface BlobStoreBackend {
  store: BlobStore;
  /** Every name the backend holds, sorted: files or keys, and any unfinished upload. */
  stored(): Promise<string[]>;
  close(): Promise<void>;
}

export interface ContractOptions {
  /** A size that takes the backend past its first part or buffer (S3: more than a part). */
  largeBytes: number;
}

const sha256Of = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

async function bytesOf(stream: Readable | undefined): Promise<Buffer | undefined> {
  if (stream === undefined) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A source giving `data` in chunks of random sizes (some empty), as a request body would. */
async function* chunked(data: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < data.byteLength; ) {
    const length = randomInt(0, 256 * 1024);
    yield data.subarray(at, at + length);
    at += length;
  }
}

/** A source that counts how far it was read, whether it was ended, and can fail after `failAfter` bytes. */
function watchedSource(data: Uint8Array, chunkBytes: number, failAfter?: number) {
  const watch = { given: 0, ended: false, source: undefined as unknown as AsyncGenerator<Uint8Array> };
  watch.source = (async function* () {
    try {
      for (let at = 0; at < data.byteLength; at += chunkBytes) {
        if (failAfter !== undefined && at >= failAfter) throw new Error("the source failed");
        const chunk = data.subarray(at, at + chunkBytes);
        watch.given += chunk.byteLength;
        yield chunk;
      }
    } finally {
      watch.ended = true;
    }
  })();
  return watch;
}

export function blobStoreContract(
  backendName: string,
  open: () => Promise<BlobStoreBackend>,
  options: ContractOptions,
): void {
  describe(`blob store contract: ${backendName}`, () => {
    let backend: BlobStoreBackend;
    let store: BlobStore;
    before(async () => {
      backend = await open();
      store = backend.store;
    });
    after(() => backend.close());

    it("stores bytes of random sizes (0 and several megabytes among them) under their sha256 and reads them back equal", async () => {
      const sizes = [
        0,
        1,
        randomInt(2, 70_000),
        randomInt(1_000_000, 3_000_000),
        options.largeBytes + randomInt(0, 1_000_000),
      ];
      for (const size of sizes) {
        const data = randomBytes(size);
        const written = await store.put(chunked(data), size);
        assert.deepEqual(written, { sha256: sha256Of(data), bytes: size });
        assert.equal(await store.size(written.sha256), size);
        const back = await bytesOf(await store.read(written.sha256));
        assert.ok(back !== undefined && Buffer.compare(back, data) === 0, `${size} bytes read back equal`);
      }
    });

    it("reads ranges: the first byte, the last byte, a middle stretch, the whole as a range", async () => {
      const data = randomBytes(randomInt(10_000, 200_000));
      const { sha256 } = await store.put(chunked(data), data.byteLength);
      const last = data.byteLength - 1;
      const middle = { start: randomInt(1, 5_000), end: randomInt(5_000, last) };
      for (const range of [{ start: 0, end: 0 }, { start: last, end: last }, middle, { start: 0, end: last }]) {
        const back = await bytesOf(await store.read(sha256, { range }));
        assert.deepEqual(back, data.subarray(range.start, range.end + 1), `bytes ${range.start}-${range.end}`);
      }
    });

    it("answers undefined for what it does not hold", async () => {
      const absent = sha256Of(randomBytes(16));
      assert.equal(await store.read(absent), undefined);
      assert.equal(await store.read(absent, { range: { start: 0, end: 0 } }), undefined);
      assert.equal(await store.size(absent), undefined);
      assert.equal(await store.read(absent, { name: "w640.webp" }), undefined);
      assert.equal(await store.size(absent, "w640.webp"), undefined);
    });

    it("accepts exactly the byte limit and refuses one byte more, reading no further and storing nothing", async () => {
      for (const limit of [1000, options.largeBytes]) {
        const data = randomBytes(limit + 1);
        const exact = data.subarray(0, limit);
        assert.deepEqual(await store.put(chunked(exact), limit), { sha256: sha256Of(exact), bytes: limit });
        await store.delete(sha256Of(exact));

        const held = await backend.stored();
        // More in the source than the limit: the store must stop at the chunk that passes it.
        const source = watchedSource(Buffer.concat([data, randomBytes(limit)]), 4096);
        await assert.rejects(
          store.put(source.source, limit),
          (error: unknown) => error instanceof BlobTooLarge && error.maxBytes === limit,
        );
        assert.ok(source.given <= limit + 4096, `read ${source.given} bytes of a source limited to ${limit}`);
        assert.ok(source.ended, "the source was ended");
        assert.deepEqual(await backend.stored(), held, "nothing stored, no temporary left");
      }
    });

    it("a source that fails leaves nothing and the put fails with its error", async () => {
      for (const failAfter of [0, 10_000, options.largeBytes]) {
        const held = await backend.stored();
        const source = watchedSource(randomBytes(failAfter + 100_000), 8192, failAfter);
        await assert.rejects(store.put(source.source, Number.MAX_SAFE_INTEGER), /the source failed/);
        assert.deepEqual(await backend.stored(), held, `nothing stored after a failure at byte ${failAfter}`);
      }
    });

    it("the same bytes put twice, even at once, share one blob", async () => {
      const data = randomBytes(randomInt(1000, 100_000));
      const first = await store.put(chunked(data), data.byteLength);
      const held = await backend.stored();
      const [second, third] = await Promise.all([
        store.put(chunked(data), data.byteLength),
        store.put(chunked(data), data.byteLength),
      ]);
      assert.deepEqual([second, third], [first, first]);
      assert.deepEqual(await backend.stored(), held, "no second copy, no temporary left");
      assert.deepEqual(await bytesOf(await store.read(first.sha256)), data);

      const other = randomBytes(500);
      const apart = await store.put(chunked(other), 500);
      assert.notEqual(apart.sha256, first.sha256);
      assert.equal((await backend.stored()).length, held.length + 1, "other bytes, one more blob");
    });

    it("keeps derived files beside their blob and removes them with it, and only them", async () => {
      const data = randomBytes(20_000);
      const { sha256 } = await store.put(chunked(data), data.byteLength);
      const neighbour = await store.put(chunked(randomBytes(3000)), 3000);
      const variants = {
        "w320.webp": randomBytes(700),
        "w640.avif": randomBytes(0),
        "w1024.webp": randomBytes(150_000),
      };
      for (const [name, bytes] of Object.entries(variants)) await store.putDerived(sha256, name, bytes);
      await store.putDerived(neighbour.sha256, "w320.webp", randomBytes(10));
      for (const [name, bytes] of Object.entries(variants)) {
        assert.equal(await store.size(sha256, name), bytes.byteLength);
        assert.deepEqual(await bytesOf(await store.read(sha256, { name })), bytes);
      }
      const big = variants["w1024.webp"];
      assert.deepEqual(
        await bytesOf(await store.read(sha256, { name: "w1024.webp", range: { start: 100, end: 199 } })),
        big.subarray(100, 200),
      );
      await store.putDerived(sha256, "w320.webp", variants["w1024.webp"]);
      assert.equal(await store.size(sha256, "w320.webp"), big.byteLength, "a derived file put again is replaced whole");

      const before = await backend.stored();
      await store.delete(sha256);
      assert.equal(await store.read(sha256), undefined);
      assert.equal(await store.size(sha256), undefined);
      for (const name of Object.keys(variants)) assert.equal(await store.read(sha256, { name }), undefined);
      assert.equal((await backend.stored()).length, before.length - 4, "the blob and its three derived files are gone");
      assert.equal(await store.size(neighbour.sha256, "w320.webp"), 10, "another blob's derived file stays");
      assert.equal(await store.size(neighbour.sha256), 3000);
    });

    it("a derived file of a blob that is not there is not kept", async () => {
      const held = await backend.stored();
      const absent = sha256Of(randomBytes(8));
      await store.putDerived(absent, "w320.webp", randomBytes(100));
      assert.equal(await store.read(absent, { name: "w320.webp" }), undefined);
      assert.deepEqual(await backend.stored(), held);
    });

    it("deleting what is not there is no error", async () => {
      const held = await backend.stored();
      await store.delete(sha256Of(randomBytes(8)));
      assert.deepEqual(await backend.stored(), held);
    });

    it("refuses keys that are not sha256 hex and derived names that could leave the blob's place", async () => {
      const { sha256 } = await store.put(chunked(randomBytes(100)), 100);
      const held = await backend.stored();
      const badKeys = [
        "",
        "abc",
        sha256.toUpperCase(),
        `${sha256}0`,
        `../${sha256.slice(3)}`,
        `${sha256.slice(0, 63)}/`,
        `tmp/${sha256.slice(4)}`,
      ];
      const badNames = ["", "..", "../x", "a/b", "/etc", ".hidden", "a\\b", "x".repeat(65), "w640 .webp"];
      for (const key of badKeys) {
        await assert.rejects(store.read(key), `read ${JSON.stringify(key)}`);
        await assert.rejects(store.size(key), `size ${JSON.stringify(key)}`);
        await assert.rejects(store.delete(key), `delete ${JSON.stringify(key)}`);
        await assert.rejects(
          store.putDerived(key, "w320.webp", randomBytes(4)),
          `putDerived on ${JSON.stringify(key)}`,
        );
      }
      for (const name of badNames) {
        await assert.rejects(store.read(sha256, { name }), `read name ${JSON.stringify(name)}`);
        await assert.rejects(store.size(sha256, name), `size name ${JSON.stringify(name)}`);
        await assert.rejects(store.putDerived(sha256, name, randomBytes(4)), `putDerived name ${JSON.stringify(name)}`);
      }
      assert.deepEqual(await backend.stored(), held, "nothing written by a refused call");
    });
  });
}

import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { text } from "node:stream/consumers";
import { BlobTooLarge } from "../../src/blobs/blob-store.ts";
import { FsBlobStore } from "../../src/blobs/fs-store.ts";

async function* chunks(data: Buffer, size = 1000): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < data.length; at += size) yield data.subarray(at, at + size);
}

const sha = (data: Buffer) => createHash("sha256").update(data).digest("hex");

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(relative(dir, path));
    }
  };
  walk(dir);
  return out.sort();
}

describe("file-system blob store", () => {
  let root: string;
  let store: FsBlobStore;
  before(async () => {
    root = mkdtempSync(join(tmpdir(), "svc-blobs-"));
    store = await FsBlobStore.open(root);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it("stores a blob under its sha256 in two levels of directories, and reads it back whole and by range", async () => {
    const data = randomBytes(10_000);
    const written = await store.put(chunks(data), 20_000);
    assert.deepEqual(written, { sha256: sha(data), bytes: data.length });
    assert.ok(filesUnder(root).includes(join(written.sha256.slice(0, 2), written.sha256.slice(2, 4), written.sha256)));
    assert.equal(await store.size(written.sha256), data.length);
    const whole = await store.read(written.sha256);
    assert.ok(whole);
    assert.ok(Buffer.concat(await whole.toArray()).equals(data));
    const part = await store.read(written.sha256, { range: { start: 100, end: 199 } });
    assert.ok(Buffer.concat(await part!.toArray()).equals(data.subarray(100, 200)));
  });

  it("two puts of the same bytes give one blob", async () => {
    const data = randomBytes(3000);
    const a = await store.put(chunks(data), 5000);
    const b = await store.put(chunks(data, 7), 5000);
    assert.equal(a.sha256, b.sha256);
    assert.equal(filesUnder(root).filter((f) => f.endsWith(a.sha256)).length, 1);
  });

  it("a put past maxBytes throws BlobTooLarge, stops reading its source and leaves no file", async () => {
    const before = filesUnder(root);
    let yielded = 0;
    async function* endless(): AsyncGenerator<Uint8Array> {
      for (;;) {
        yielded++;
        yield Buffer.alloc(1000, 1);
      }
    }
    await assert.rejects(
      store.put(endless(), 4500),
      (error) => error instanceof BlobTooLarge && error.maxBytes === 4500,
    );
    assert.equal(yielded, 5, "the fifth chunk passes the limit and no sixth is asked for");
    assert.deepEqual(filesUnder(root), before);
  });

  it("a source that fails leaves nothing", async () => {
    const before = filesUnder(root);
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield Buffer.alloc(100);
      throw new Error("connection reset");
    }
    await assert.rejects(store.put(failing(), 1000), /connection reset/);
    assert.deepEqual(filesUnder(root), before);
  });

  it("derived files sit beside their blob, read back by name, and go with it", async () => {
    const data = randomBytes(500);
    const { sha256 } = await store.put(chunks(data), 1000);
    await store.putDerived(sha256, "photo-320w.webp", Buffer.from("variant"));
    assert.equal(await store.size(sha256, "photo-320w.webp"), 7);
    assert.equal(await text((await store.read(sha256, { name: "photo-320w.webp" }))!), "variant");
    assert.ok(existsSync(join(`${store.blobPath(sha256)}.derived`, "photo-320w.webp")));
    await store.delete(sha256);
    assert.equal(await store.size(sha256), undefined);
    assert.equal(await store.read(sha256), undefined);
    assert.equal(await store.read(sha256, { name: "photo-320w.webp" }), undefined);
    assert.ok(!existsSync(`${store.blobPath(sha256)}.derived`));
    await store.delete(sha256); // absent: no error
  });

  it("a derived file of a blob that is gone is not kept", async () => {
    const key = sha(Buffer.from("never stored"));
    await store.putDerived(key, "x-320w.webp", Buffer.from("v"));
    assert.equal(await store.size(key, "x-320w.webp"), undefined);
  });

  it("refuses keys and names that are not a sha256 or a plain name, before any path is made", async () => {
    for (const bad of ["../etc/passwd", "ABCDEF".padEnd(64, "0"), "a".repeat(63), `${"a".repeat(64)}/x`]) {
      await assert.rejects(store.read(bad), /not a blob key/);
      await assert.rejects(store.size(bad), /not a blob key/);
      await assert.rejects(store.delete(bad), /not a blob key/);
    }
    const key = sha(Buffer.from("k"));
    for (const bad of ["../x", "a/b", ".hidden", "", "a".repeat(65)]) {
      await assert.rejects(store.putDerived(key, bad, Buffer.from("x")), /not a derived file name/);
      await assert.rejects(store.read(key, { name: bad }), /not a derived file name/);
    }
  });

  it("on open, removes temporaries older than a few minutes and keeps recent ones (an upload under way)", async () => {
    const tmp = join(root, "tmp");
    writeFileSync(join(tmp, "old.part"), "half");
    writeFileSync(join(tmp, "new.part"), "half");
    const old = (Date.now() - 60 * 60 * 1000) / 1000;
    utimesSync(join(tmp, "old.part"), old, old);
    await FsBlobStore.open(root);
    assert.deepEqual(readdirSync(tmp).sort(), ["new.part"]);
    rmSync(join(tmp, "new.part"));
  });
});

// Blobs shared by rows, and the race between an upload of some bytes and the delete of the last
// row naming the same bytes (src/media/blob-claims.ts): a row never names a missing blob, and a
// blob no row names does not stay behind.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { makeSite, startTestApp, type TestApp } from "../support/app.ts";
import { serviceContext } from "../../src/app-deps.ts";
import { siteById } from "../../src/site/sites.ts";
import type { BlobStore } from "../../src/blobs/blob-store.ts";
import { createMedia } from "../../src/media/upload-service.ts";
import { deleteMedia } from "../../src/media/write-service.ts";
import type { UploadBody } from "../../src/media/upload-body.ts";
import { noisyPng } from "./serving-helpers.ts";
import { site, storedBlobs, uploadRaw } from "./upload-helpers.ts";

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

function bodyOf(data: Buffer, filename: string): UploadBody {
  return {
    source: {
      filename,
      contentType: "image/png",
      bytes: (async function* () {
        yield data;
      })(),
      declaredBytes: null,
      keepMetadata: false,
    },
    fields: async () => ({}),
    ignored: () => [],
    abandon: () => undefined,
  };
}

/** Every row names a blob that is there, and every blob is named by a row. */
async function consistent(t: TestApp): Promise<void> {
  const named = new Set((await t.store.db.selectFrom("media").select("sha256").execute()).map((row) => row.sha256));
  const stored = new Set(storedBlobs(t.dataDir));
  assert.deepEqual([...named].sort(), [...stored].sort());
}

describe("blob claims", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("a delete of the last row naming some bytes that removes them between an upload's store and its record: the upload is refused 409 upload_conflict and writes nothing", async () => {
    const ctx = serviceContext(t.deps);
    const bytes = await noisyPng(33, 33);
    const first = await uploadRaw(t, 1, bytes, { filename: "first.png" });
    assert.equal(first.status, 201, first.text);
    const siteRow = (await siteById(t.store.db, 1))!;
    const real = t.deps.blobs;
    // The store as a concurrent delete leaves it: the bytes are written (over the existing blob),
    // then the last row naming them is deleted and its blob released before the upload records.
    const racing: BlobStore = Object.create(real, {
      put: {
        value: async (source: AsyncIterable<Uint8Array>, maxBytes: number) => {
          const written = await real.put(source, maxBytes);
          await deleteMedia(ctx, { blobs: real, maxBytes }, siteRow, String(first.body.media.id), true);
          return written;
        },
      },
    });
    await assert.rejects(
      createMedia(ctx, { blobs: racing, maxBytes: 1e9 }, siteRow, 1, bodyOf(bytes, "second.png")),
      (error: { code?: string }) => error.code === "upload_conflict",
    );
    assert.equal((await t.call("GET", `${site(1)}/media`)).body.total, 0, "no row names the bytes that went");
    await consistent(t);
    const again = await uploadRaw(t, 1, bytes, { filename: "second.png" });
    assert.equal(again.status, 201, "sent again, the bytes are stored again");
    assert.ok(storedBlobs(t.dataDir).includes(sha256(bytes)));
    await consistent(t);
  });

  it("uploads and deletes of the same bytes at once, on two sites, never leave a row without its blob nor a blob without a row", async () => {
    const other = await makeSite(t, "Claims", "claims.localhost");
    const files = await Promise.all([noisyPng(24, 24), noisyPng(25, 25), noisyPng(26, 26)]);
    for (let round = 0; round < 12; round++) {
      const rows = (await t.store.db.selectFrom("media").select(["id", "site_id"]).execute()).sort(
        () => Math.random() - 0.5,
      );
      const writes: Array<Promise<unknown>> = [];
      for (const row of rows.slice(0, 3)) writes.push(t.call("DELETE", `${site(row.site_id)}/media/${row.id}?force=1`));
      for (let i = 0; i < 4; i++) {
        const bytes = files[(round + i) % files.length]!;
        writes.push(
          uploadRaw(t, i % 2 === 0 ? 1 : other, bytes, { filename: `r${round}-${i}.png` }).then((r) =>
            assert.ok(r.status === 201 || (r.status === 409 && r.body.error === "upload_conflict"), r.text),
          ),
        );
      }
      await Promise.all(writes);
      await consistent(t);
    }
  });
});

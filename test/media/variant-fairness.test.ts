// Variants fair between sites and counted (docs/media.md): makes run in a bounded pool
// whose slots go to the sites in turn, so one site's backlog delays only that site; and a kept
// variant's bytes count in the media_bytes of the site whose request made it, until its file goes
// or gets other bytes. Past the quota a variant is answered but not kept.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { startTestApp, type TestApp } from "../support/app.ts";
import { FairSlots } from "../../src/media/fair-slots.ts";
import { variantKeeper } from "../../src/media/variant-charges.ts";
import { DEFAULT_VARIANT_LIMITS, derivedName, VariantMaker } from "../../src/media/variants.ts";
import { recountUsage } from "../../src/quotas/usage.ts";
import { addSite, fetchRaw, header, noisyPng, storeFile, type Stored } from "./serving-helpers.ts";
import { site, until, uploadRaw } from "./upload-helpers.ts";

describe("fair slots", () => {
  it("while a site waits for its turn, no other site is given a slot twice, whatever the order sites ask and jobs end in", async () => {
    // Steps: a site asks for a slot, or the oldest running job ends.
    const steps = fc.array(fc.oneof(fc.integer({ min: 1, max: 4 }), fc.constant("end" as const)), { maxLength: 80 });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 3 }), steps, async (size, plan) => {
        const slots = new FairSlots(size);
        const running: number[] = [];
        /** Each waiting job: its site, and how many slots each other site was given since it asked or its site was last served. */
        const waiting: Array<{ site: number; others: Map<number, number> }> = [];
        const settle = () => new Promise((resolve) => setImmediate(resolve));
        const unfair: string[] = [];
        for (const step of plan) {
          if (step === "end") {
            if (running.length === 0) continue;
            running.shift();
            slots.release();
          } else {
            const job = { site: step, others: new Map<number, number>() };
            waiting.push(job);
            void slots.acquire(step).then(() => {
              waiting.splice(waiting.indexOf(job), 1);
              for (const [other, times] of job.others)
                if (times > 1)
                  unfair.push(`a job of site ${job.site} waited while site ${other} was given ${times} slots`);
              for (const other of waiting) {
                if (other.site !== job.site) other.others.set(job.site, (other.others.get(job.site) ?? 0) + 1);
                // Its site had its turn: a job queued behind the site's own counts from here
                // (fast-check found [1, 1, 3, 1, 3, end ×4] on one slot: the third job of site 1
                // waits through 3, 1, 3 — turns alternating, as they should).
                else other.others.clear();
              }
              running.push(job.site);
            });
          }
          await settle();
          assert.deepEqual(unfair, []);
          assert.ok(running.length <= size, "never more than its size at once");
          assert.ok(waiting.length === 0 || running.length === size, "no slot idle while a job waits");
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("variants made in turn and counted", () => {
  let t: TestApp;
  let port: number;
  let other: number;
  const usage = async (siteId: number) => (await t.call("GET", `${site(siteId)}/usage`)).body.usage.media_bytes;
  const counted = async (siteId: number) => {
    const used = (await usage(siteId)).used;
    assert.equal(used, (await recountUsage(t.store.db, siteId)).media_bytes, "the counter equals a recount");
    return used;
  };

  before(async () => {
    t = await startTestApp();
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
    other = await addSite(t, "other.example");
  });
  after(() => t.close());

  it("site A's burst of variants delays only A: site B's one variant is made before A's queue, behind only what was running when it asked", async () => {
    const maker = new VariantMaker(t.deps.blobs, variantKeeper(t.store.db), {
      ...DEFAULT_VARIANT_LIMITS,
      makesAtOnce: 1,
    });
    const burst: Stored[] = [];
    for (let i = 0; i < 4; i++)
      burst.push(await storeFile(t, 1, await noisyPng(700, 460 + i), `burst-${i}.png`, "image/png"));
    const single = await storeFile(t, other, await noisyPng(700, 500), "single.png", "image/png");
    const done: string[] = [];
    const make = (siteId: number, file: Stored, width: number, height: number, label: string) =>
      maker.variant({ siteId, mediaId: file.id, sha256: file.sha256, width, height }).then((outcome) => {
        done.push(label);
        assert.ok(
          typeof outcome === "object" && "bytes" in outcome && outcome.data === undefined,
          `${label}: ${JSON.stringify(outcome)}`,
        );
      });
    const a = burst.flatMap((file, i) =>
      file.variants.map((v) => make(1, file, v.width, v.height, `A${i}-${v.width}`)),
    );
    // Every make of A asked for (one running, the rest waiting their turn) before B asks.
    await until(() => maker.waiting(1) + done.length === a.length - 1, "site A's makes to queue");
    const b = make(other, single, single.variants[0]!.width, single.variants[0]!.height, "B");
    await Promise.all([...a, b]);
    assert.equal(done.length, a.length + 1);
    // Before B asked, one of A's was running (and, if it ended as B asked, the next of A's): B is next.
    assert.ok(done.indexOf("B") <= 2, `B's variant waited behind A's burst: ${done.join(" ")}`);
  });

  it("a variant's bytes count in the media_bytes of the site whose request made it, once; a PUT of other bytes and a delete free them", async () => {
    const before = await counted(other);
    const file = await storeFile(t, other, await noisyPng(700, 400), "counted.png", "image/png");
    assert.equal(await counted(other), before + file.bytes);
    const variant = await fetchRaw(port, file.variants[1]!.url, { host: "other.example" });
    assert.equal(variant.status, 200);
    const variantBytes = variant.body.length;
    assert.equal(await t.deps.blobs.size(file.sha256, derivedName(file.variants[1]!.width)), variantBytes, "kept");
    assert.equal(await counted(other), before + file.bytes + variantBytes, "charged to the site that made it");
    assert.equal((await fetchRaw(port, file.variants[1]!.url, { host: "other.example" })).status, 200);
    assert.equal(await counted(other), before + file.bytes + variantBytes, "a second request charges nothing");

    const replaced = await uploadRaw(t, other, await noisyPng(700, 401), {
      filename: "counted.png",
      type: "image/png",
      method: "PUT",
      path: `${site(other)}/media/${file.id}`,
    });
    assert.equal(replaced.status, 200, replaced.text);
    assert.equal(
      await counted(other),
      before + replaced.body.media.bytes,
      "other bytes: the old variants are not charged any more",
    );
    const again = await fetchRaw(port, replaced.body.media.variants[0].url, { host: "other.example" });
    assert.equal(again.status, 200);
    assert.equal(await counted(other), before + replaced.body.media.bytes + again.body.length);
    assert.equal((await t.call("DELETE", `${site(other)}/media/${file.id}?force=1`)).status, 200);
    assert.equal(await counted(other), before, "a delete frees the file and its variants");
  });

  it("past media_bytes a variant is answered but not kept, and nothing is charged; variants a site keeps count against its uploads", async () => {
    const file = await storeFile(t, other, await noisyPng(700, 420), "full.png", "image/png");
    const used = await counted(other);
    assert.equal((await t.call("PATCH", `/api/sites/${other}/quotas`, { body: { media_bytes: used } })).status, 200);
    for (let i = 0; i < 2; i++) {
      const variant = await fetchRaw(port, file.variants[0]!.url, { host: "other.example" });
      assert.equal(variant.status, 200);
      assert.equal(header(variant, "content-type"), "image/webp");
      assert.equal(header(variant, "content-length"), String(variant.body.length));
      const ranged = await fetchRaw(port, file.variants[0]!.url, {
        host: "other.example",
        headers: { range: "bytes=0-9" },
      });
      assert.deepEqual([ranged.status, ranged.body.length], [206, 10]);
      assert.ok(ranged.body.equals(variant.body.subarray(0, 10)));
    }
    assert.equal(await t.deps.blobs.size(file.sha256, derivedName(file.variants[0]!.width)), undefined, "not kept");
    assert.equal(await counted(other), used, "nothing charged");

    // With room for the variant and one byte: it is kept, and an upload no longer fits.
    const variantBytes = (await fetchRaw(port, file.variants[0]!.url, { host: "other.example" })).body.length;
    assert.equal(
      (await t.call("PATCH", `/api/sites/${other}/quotas`, { body: { media_bytes: used + variantBytes + 1 } })).status,
      200,
    );
    assert.equal((await fetchRaw(port, file.variants[0]!.url, { host: "other.example" })).status, 200);
    assert.equal(await counted(other), used + variantBytes);
    const refused = await uploadRaw(t, other, Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg"/>`), {
      filename: "tiny.svg",
      type: "image/svg+xml",
    });
    assert.deepEqual([refused.status, refused.body.error, refused.body.quota], [413, "quota_exceeded", "media_bytes"]);
    assert.equal((await t.call("PATCH", `/api/sites/${other}/quotas`, { body: { media_bytes: null } })).status, 200);
  });
});

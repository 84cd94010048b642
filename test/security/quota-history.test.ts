// Quotas missed most bytes (docs/security.md, "Quotas"). A site at 5 MB of stored_bytes held 31 MB of
// revisions, and a delete freed quota while the trash kept the bytes for 30 days. Now stored_bytes
// counts live content, every revision and the trash: a write whose revision would pass the quota is
// refused (413, nothing written) unless revisions beyond the newest 10 of an object can be pruned,
// oldest first, to make room; a trashed object still counts; a purge from the trash and retention
// free what they remove.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, startTestApp, type Answer, type TestApp } from "../support/app.ts";
import { recountUsage, usageOf } from "../../src/quotas/usage.ts";
import { prune } from "../../src/revisions/trash.ts";

/** A frame's markup of about `size` bytes, different for each `n`. */
const markup = (n: number, size = 300) => `<p>${String(n).padStart(6, "0")}${"x".repeat(size - 13)}</p>`;

describe("revisions and the trash count against stored_bytes", () => {
  let t: TestApp;
  let n = 0;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  const newSite = async () => {
    const id = await makeSite(t, `History ${++n}`, `history${n}.localhost`);
    const S = `/api/site/${id}`;
    const call = (method: string, path: string, body?: unknown) =>
      t.call(method, `${S}${path}`, body === undefined ? {} : { body });
    const used = async () =>
      (await t.call("GET", `${S}/usage`)).body.usage.stored_bytes as { used: number; limit: number };
    const quota = async (value: number | null) =>
      assert.equal((await t.call("PATCH", `/api/sites/${id}/quotas`, { body: { stored_bytes: value } })).status, 200);
    const revisions = async (ref: string) =>
      ((await call("GET", `/frames/${ref}/revisions?per_page=100`)).body.revisions as Array<{ revision: number }>).map(
        (r) => r.revision,
      );
    const agrees = async () =>
      assert.deepEqual(
        await usageOf(t.store.db, id),
        await recountUsage(t.store.db, id),
        "the counters equal a recount",
      );
    return { id, call, used, quota, revisions, agrees };
  };
  const refused = (r: Answer, limit: number) => {
    assert.equal(r.status, 413, r.text);
    assert.equal(r.body.error, "quota_exceeded");
    assert.equal(r.body.quota, "stored_bytes");
    assert.equal(r.body.limit, limit);
  };

  it("each revision counts: rewriting one frame keeps adding bytes though its markup stays the same size, until the quota refuses the rewrite with nothing written", async () => {
    const site = await newSite();
    assert.equal((await site.call("POST", "/frames", { slug: "f", html: markup(0) })).status, 201);
    const first = (await site.used()).used;
    assert.ok(
      first > 2 * 300,
      `the frame (300 bytes) and its first revision (its markup again, and fields) both count: ${first}`,
    );
    await site.quota(first * 4);
    let refusal: Answer | undefined;
    for (let i = 1; i <= 10 && !refusal; i++) {
      const r = await site.call("PUT", "/frames/f", { html: markup(i) });
      if (r.status === 413) refusal = r;
      else assert.equal(r.status, 200, r.text);
    }
    assert.ok(refusal, "a rewrite was refused before the site held ten times its live bytes");
    refused(refusal, first * 4);
    const kept = await site.revisions("f");
    assert.ok(kept.length < 10);
    const html = (await site.call("GET", "/frames/f")).body.frame.html as string;
    assert.equal(html, markup(kept.length - 1), "the refused rewrite was not stored");
    assert.ok((await site.used()).used <= first * 4);
    await site.agrees();
  });

  it("at the quota, revisions beyond the newest 10 of an object are pruned, oldest first, to make room; the newest 10 never are", async () => {
    const site = await newSite();
    assert.equal((await site.call("POST", "/frames", { slug: "f", html: markup(1) })).status, 201);
    for (let i = 2; i <= 12; i++) assert.equal((await site.call("PUT", "/frames/f", { html: markup(i) })).status, 200);
    assert.equal((await site.call("POST", "/frames", { slug: "g", html: markup(100) })).status, 201);
    assert.deepEqual(await site.revisions("f"), [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    const full = (await site.used()).used;
    await site.quota(full);

    // f's revisions 1 and 2 are beyond its newest 10: the oldest goes to make room for g's rewrite.
    assert.equal((await site.call("PUT", "/frames/g", { html: markup(101) })).status, 200);
    assert.equal((await site.revisions("f")).at(-1), 2, "revision 1, the oldest, was pruned");
    assert.deepEqual(await site.revisions("g"), [2, 1]);
    assert.equal((await site.call("PUT", "/frames/f", { html: markup(13) })).status, 200);
    assert.deepEqual(
      (await site.revisions("f")).slice(0, 10),
      [13, 12, 11, 10, 9, 8, 7, 6, 5, 4],
      "f keeps its newest 10",
    );
    assert.ok((await site.used()).used <= full);
    await site.agrees();

    // Once nothing is left beyond anyone's newest 10, a rewrite that needs room is refused, and nothing is pruned.
    let refusal: Answer | undefined;
    let accepted = 101;
    for (let i = 102; i < 108 && !refusal; i++) {
      const before = { f: await site.revisions("f"), g: await site.revisions("g") };
      const r = await site.call("PUT", "/frames/g", { html: markup(i) });
      if (r.status !== 413) {
        assert.equal(r.status, 200, r.text);
        accepted = i;
        continue;
      }
      refusal = r;
      refused(r, full);
      assert.deepEqual(
        { f: await site.revisions("f"), g: await site.revisions("g") },
        before,
        "a refused write prunes nothing",
      );
    }
    assert.ok(refusal, "refused once f is down to its newest 10");
    assert.deepEqual((await site.revisions("f")).slice(0, 10), [13, 12, 11, 10, 9, 8, 7, 6, 5, 4]);
    assert.equal((await site.call("GET", "/frames/g")).body.frame.html, markup(accepted));
    await site.agrees();
  });

  it("a write is judged whole: over a lowered quota, a rewrite that frees more markup than its revision adds goes through; one that frees less is refused", async () => {
    const site = await newSite();
    assert.equal((await site.call("POST", "/frames", { slug: "f", html: markup(1, 3000) })).status, 201);
    await site.quota(0);
    const over = (await site.used()).used;
    const shrink = await site.call("PUT", "/frames/f", { html: markup(2, 300) });
    assert.equal(shrink.status, 200, shrink.text);
    const after = (await site.used()).used;
    assert.ok(after < over, `2,700 bytes of markup freed, one revision of about 400 added: ${over} → ${after}`);
    refused(await site.call("PUT", "/frames/f", { html: markup(3, 290) }), 0);
    assert.equal((await site.used()).used, after);
    await site.agrees();
  });

  it("a deleted object stays counted while it is in the trash; purging it (DELETE /trash/{kind}/{id}) frees every byte it held", async () => {
    const site = await newSite();
    const made = await site.call("POST", "/frames", { slug: "f", html: markup(1) });
    assert.equal((await site.call("PUT", "/frames/f", { html: markup(2) })).status, 200);
    const id = made.body.frame.id as string;
    const held = (await site.used()).used;
    assert.equal((await site.call("DELETE", "/frames/f")).status, 200);
    const trashed = (await site.used()).used;
    assert.ok(trashed > 0 && trashed >= held - 300, `the trash keeps its revisions counted: ${held} → ${trashed}`);
    await site.agrees();

    const dry = await site.call("DELETE", `/trash/frames/${id}?dry_run=1`);
    assert.equal(dry.status, 200, dry.text);
    assert.deepEqual([dry.body.dry_run, dry.body.applied, dry.body.purged.revisions], [true, false, 2]);
    assert.equal((await site.used()).used, trashed, "a dry run frees nothing");

    const purged = await site.call("DELETE", `/trash/frames/${id}`);
    assert.equal(purged.status, 200, purged.text);
    assert.deepEqual(
      { ...purged.body.purged, bytes: undefined },
      { kind: "frames", id, revisions: 2, bytes: undefined },
    );
    assert.equal(purged.body.purged.bytes, trashed);
    assert.equal((await site.used()).used, 0);
    assert.deepEqual((await site.call("GET", "/trash")).body.items, []);
    assert.equal((await site.call("POST", `/trash/frames/${id}/restore`)).status, 404, "gone for good");
    assert.equal((await site.call("DELETE", `/trash/frames/${id}`)).body.error, "trash_item_not_found");
    await site.agrees();
  });

  it("a page deleted for good goes on counting from the trash; data sets and stylesheets too; restoring takes the trash entry's bytes back off", async () => {
    const site = await newSite();
    const page = await site.call("POST", "/pages", { title: "Kept", content: "x".repeat(500) });
    assert.equal((await site.call("PUT", "/data/team", { items: [{ name: "y".repeat(400) }] })).status, 201);
    assert.equal((await site.call("PUT", "/styles/main", { css: `a{content:"${"z".repeat(400)}"}` })).status, 201);
    const held = (await site.used()).used;
    assert.equal((await site.call("DELETE", `/pages/${page.body.page.id}?force=true`)).status, 200);
    assert.equal((await site.call("DELETE", "/data/team")).status, 200);
    assert.equal((await site.call("DELETE", "/styles/main")).status, 200);
    const trashed = (await site.used()).used;
    assert.ok(trashed > held / 2, `each object's last state still counts: ${held} → ${trashed}`);
    await site.agrees();
    assert.equal((await site.call("POST", "/trash/data/team/restore")).status, 200);
    await site.agrees();
    for (const item of (await site.call("GET", "/trash")).body.items as Array<{ kind: string; id: string }>) {
      assert.equal((await site.call("DELETE", `/trash/${item.kind}/${encodeURIComponent(item.id)}`)).status, 200);
    }
    await site.agrees();
    assert.ok((await site.used()).used < trashed);
  });

  it("retention frees what it removes: expired trash with its history and revisions past the number kept", async () => {
    const site = await newSite();
    assert.equal((await site.call("POST", "/frames", { slug: "f", html: markup(1) })).status, 201);
    for (let i = 2; i <= 6; i++) assert.equal((await site.call("PUT", "/frames/f", { html: markup(i) })).status, 200);
    assert.equal((await site.call("POST", "/frames", { slug: "gone", html: markup(50) })).status, 201);
    assert.equal((await site.call("DELETE", "/frames/gone")).status, 200);
    const before = (await site.used()).used;
    const removed = await prune(t.store.db, 2, 30, new Date(Date.now() + 31 * 86_400_000));
    assert.ok(removed.revisions >= 4 && removed.trashed >= 1);
    assert.deepEqual(await site.revisions("f"), [6, 5]);
    const after = (await site.used()).used;
    assert.ok(after < before - 4 * 300 - 300, `${before} → ${after}`);
    await site.agrees();
  });
});

// Frames' history (docs/revisions.md): every frame write leaves one revision; the list, one
// revision, a diff and a restore; renames keep the history; If-Match on restore; the trash puts a
// deleted frame back with the pages that stood on it; retention.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { TestApp } from "../support/app.ts";
import { ok, seoSite as newSite, startTestApp } from "../seo/helpers.ts";
import { prune } from "../../src/revisions/trash.ts";

const page = (text: string) =>
  `<!DOCTYPE html><html><head><title>t</title></head><body><main>${text}</main></body></html>`;

describe("frame revisions", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("three writes are three revisions, newest first with total; diff 1→3 is a unified diff; restoring 1 publishes version 1 as a fourth revision", async () => {
    const site = await newSite(t);
    await site.frame("home", page("version 1"));
    ok(await site.api("PUT", "/frames/home", { html: page("version 2") }), "write 2");
    ok(await site.api("PUT", "/frames/home", { html: page("version 3") }), "write 3");
    await site.page("Home", "home", { slug: "start" });
    assert.match((await site.visit("/start/")).text, /version 3/);

    const listed = ok(await site.api("GET", "/frames/home/revisions"), "list");
    assert.equal(listed.total, 3);
    assert.deepEqual(
      listed.revisions.map((r: { revision: number }) => r.revision),
      [3, 2, 1],
    );
    assert.deepEqual(listed.revisions[0].summary, ["html"]);
    assert.deepEqual(listed.revisions[2].summary, ["html", "slug"], "a first revision names every field");
    for (const r of listed.revisions) {
      assert.match(r.sha256, /^[0-9a-f]{64}$/);
      assert.equal(typeof r.created_by, "number");
      assert.match(r.created_at_gmt, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    }

    const one = ok(await site.api("GET", "/frames/home/revisions/1"), "revision 1").revision;
    assert.equal(one.content, page("version 1"));
    assert.equal(one.bytes, Buffer.byteLength(page("version 1")));

    const diff = ok(await site.api("GET", "/frames/home/revisions/1/diff?to=3"), "diff").diff as string;
    assert.match(diff, /^--- revision 1\n\+\+\+ revision 3\n@@ -1,1 \+1,1 @@$/m);
    assert.match(diff, /^-.*version 1/m);
    assert.match(diff, /^\+.*version 3/m);

    const restored = ok(await site.api("POST", "/frames/home/revisions/1/restore"), "restore");
    assert.deepEqual(restored.restored, { kind: "frames", id: restored.frame.id, from_revision: 1, revision: 4 });
    assert.equal(restored.site_id, site.id);
    assert.equal(restored.rebaked.status, "ok");
    assert.match((await site.visit("/start/")).text, /version 1/, "the public page shows version 1");
    const after = ok(await site.api("GET", "/frames/home/revisions?per_page=2"), "list after");
    assert.equal(after.total, 4);
    assert.deepEqual(
      after.revisions.map((r: { revision: number }) => r.revision),
      [4, 3],
    );
    assert.equal(
      ok(await site.api("GET", "/frames/home/revisions/4"), "revision 4").revision.content,
      page("version 1"),
    );
  });

  it("diff defaults to the frame as it is now; an unknown revision (or to) is 404 revision_not_found", async () => {
    const site = await newSite(t);
    await site.frame("f", page("a"));
    ok(await site.api("PUT", "/frames/f", { html: page("b") }), "write");
    const diff = ok(await site.api("GET", "/frames/f/revisions/2/diff"), "diff to current");
    assert.equal(diff.to, null);
    assert.equal(diff.identical, true);
    for (const path of [
      "/frames/f/revisions/3",
      "/frames/f/revisions/0",
      "/frames/f/revisions/abc",
      "/frames/f/revisions/1/diff?to=9",
    ]) {
      const answer = await site.api("GET", path);
      assert.equal(answer.status, 404, path);
      assert.equal(answer.body.error, "revision_not_found", path);
    }
    assert.equal((await site.api("POST", "/frames/f/revisions/7/restore")).body.error, "revision_not_found");
  });

  it("bake: false, renames (PATCH and PUT with a new slug) and the frames whose references a rename rewrote each get one revision; history follows the id and the new slug", async () => {
    const site = await newSite(t);
    await site.frame("part", "<p>part</p>");
    await site.frame("outer", page(`<!-- svc/frame {"name": "part"} /-->`));
    ok(await site.api("PUT", "/frames/part", { html: "<p>part 2</p>", bake: false }), "unbaked write");
    const id = ok(await site.api("GET", "/frames/part"), "get").frame.id;
    ok(await site.api("PATCH", "/frames/part", { slug: "piece" }), "rename");
    const listed = ok(await site.api("GET", `/frames/${id}/revisions`), "by id");
    assert.equal(listed.total, 3);
    assert.deepEqual(listed.revisions[0].summary, ["slug"]);
    assert.equal(ok(await site.api("GET", "/frames/piece/revisions"), "by new slug").total, 3);
    const outer = ok(await site.api("GET", "/frames/outer/revisions"), "embedder");
    assert.equal(outer.total, 2, "the embedding frame's rewritten markup is a revision");
    assert.match(ok(await site.api("GET", "/frames/outer/revisions/2"), "rewritten").revision.content, /"piece"/);
    ok(await site.api("PUT", "/frames/piece", { slug: "bit", html: "<p>bit</p>" }), "PUT with a new slug");
    assert.deepEqual(ok(await site.api("GET", "/frames/bit/revisions"), "after PUT rename").revisions[0].summary, [
      "html",
      "slug",
    ]);
    assert.equal(ok(await site.api("GET", "/frames/outer/revisions"), "embedder again").total, 3);
    ok(await site.api("PUT", "/frames/bit", { html: "<p>bit</p>" }), "same markup again");
    assert.equal(
      ok(await site.api("GET", "/frames/bit/revisions"), "unchanged").total,
      4,
      "a write that changes nothing adds no revision",
    );
  });

  it("a restore restores the markup under the frame's current slug, and a stale If-Match is 412 precondition_failed with nothing written", async () => {
    const site = await newSite(t);
    await site.frame("a", "<p>one</p>");
    const written = await site.api("PUT", "/frames/a", { html: "<p>two</p>" });
    const stale = '"stale"';
    const refused = await t.call("POST", `/api/site/${site.id}/frames/a/revisions/1/restore`, {
      headers: { "if-match": stale },
    });
    assert.equal(refused.status, 412);
    assert.equal(refused.body.error, "precondition_failed");
    assert.equal(ok(await site.api("GET", "/frames/a/revisions"), "list").total, 2);
    ok(await site.api("PATCH", "/frames/a", { slug: "b" }), "rename");
    const fresh = (await site.api("GET", "/frames/b")).headers.etag as string;
    assert.ok(written.headers.etag);
    const done = await t.call("POST", `/api/site/${site.id}/frames/b/revisions/1/restore`, {
      headers: { "if-match": fresh },
    });
    assert.equal(done.status, 200, done.text);
    assert.equal(done.body.frame.slug, "b");
    assert.equal(done.body.frame.html ?? ok(await site.api("GET", "/frames/b"), "get").frame.html, "<p>one</p>");
    assert.ok(done.headers.etag);
  });

  it("a deleted frame is in the trash; restoring it brings back its markup, history and the pages that stood on it", async () => {
    const site = await newSite(t);
    await site.frame("shell", page("shell"));
    const first = await site.page("One", "shell", { slug: "one" });
    const second = await site.page("Two", "shell", { slug: "two" });
    const id = ok(await site.api("GET", "/frames/shell"), "get").frame.id;
    ok(await site.api("DELETE", "/frames/shell"), "delete");
    assert.equal((await site.visit("/one/")).status, 404);
    ok(
      await site.api("POST", "/frames/other-frame-for-two".replace("/frames/other-frame-for-two", "/frames"), {
        slug: "other",
        html: page("other"),
      }),
      "other frame",
      201,
    );
    ok(await site.api("POST", "/frames/other/assign", { page: second }), "second page given another frame");

    const trash = ok(await site.api("GET", "/trash"), "trash").items;
    assert.equal(trash.length, 1);
    assert.deepEqual(
      { ...trash[0], deleted_at_gmt: undefined, deleted_by: undefined },
      { kind: "frames", id, slug: "shell", last_revision: 1, deleted_at_gmt: undefined, deleted_by: undefined },
    );
    assert.equal(typeof trash[0].deleted_by, "number");
    assert.equal((await site.api("GET", "/frames/shell/revisions")).status, 404, "a deleted frame has no address");

    const restored = ok(await site.api("POST", `/trash/frames/${id}/restore`), "restore");
    assert.equal(restored.site_id, site.id, "a trash restore answers its site as every site call does");
    assert.equal(restored.frame.id, id);
    assert.deepEqual(restored.pages_restored, [first], "the page given another frame meanwhile keeps it");
    assert.equal(restored.restored.from_revision, 1);
    assert.match((await site.visit("/one/")).text, /shell/);
    assert.match((await site.visit("/two/")).text, /other/);
    assert.deepEqual(ok(await site.api("GET", "/trash"), "trash after").items, []);
    ok(await site.api("PUT", "/frames/shell", { html: page("shell 2") }), "write after restore");
    assert.equal(ok(await site.api("GET", "/frames/shell/revisions"), "history continues").total, 2);
    assert.equal((await site.api("POST", `/trash/frames/${id}/restore`)).body.error, "trash_item_not_found");
  });

  it("a slug taken meanwhile: 409 slug_taken with the occupant's id, nothing changed", async () => {
    const site = await newSite(t);
    await site.frame("nav", "<nav>old</nav>");
    const oldId = ok(await site.api("GET", "/frames/nav"), "get").frame.id;
    ok(await site.api("DELETE", "/frames/nav"), "delete");
    await site.frame("nav", "<nav>new</nav>");
    const newId = ok(await site.api("GET", "/frames/nav"), "get new").frame.id;
    const refused = await site.api("POST", `/trash/frames/${oldId}/restore`);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error, "slug_taken");
    assert.equal(refused.body.id, newId);
    assert.equal(ok(await site.api("GET", "/trash"), "trash").items.length, 1);
    assert.equal(ok(await site.api("GET", "/frames/nav"), "occupant").frame.html, "<nav>new</nav>");
  });

  it("another site's frames and trash are not found: 404, and its trash is not listed", async () => {
    const one = await newSite(t);
    const two = await newSite(t);
    await one.frame("mine", "<p>mine</p>");
    const id = ok(await one.api("GET", "/frames/mine"), "get").frame.id;
    assert.equal((await two.api("GET", `/frames/${id}/revisions`)).body.error, "frame_not_found");
    assert.equal((await two.api("POST", `/frames/${id}/revisions/1/restore`)).status, 404);
    ok(await one.api("DELETE", "/frames/mine"), "delete");
    assert.deepEqual(ok(await two.api("GET", "/trash"), "other trash").items, []);
    const refused = await two.api("POST", `/trash/frames/${id}/restore`);
    assert.equal(refused.status, 404);
    assert.equal(refused.body.error, "trash_item_not_found");
    assert.equal((await two.api("POST", `/trash/widgets/${id}/restore`)).body.error, "trash_item_not_found");
  });

  it("retention keeps an object's last revisions, and deleted objects go with their history after the trash days", async () => {
    const site = await newSite(t);
    await site.frame("busy", "<p>0</p>");
    for (let i = 1; i <= 4; i++) ok(await site.api("PUT", "/frames/busy", { html: `<p>${i}</p>` }), `write ${i}`);
    await site.frame("gone", "<p>gone</p>");
    const goneId = ok(await site.api("GET", "/frames/gone"), "get").frame.id;
    ok(await site.api("DELETE", "/frames/gone"), "delete");

    const now = new Date();
    const first = await prune(t.store.db, 2, 30, now);
    assert.ok(first.revisions >= 3);
    const listed = ok(await site.api("GET", "/frames/busy/revisions"), "after prune");
    assert.equal(listed.total, 2);
    assert.deepEqual(
      listed.revisions.map((r: { revision: number }) => r.revision),
      [5, 4],
      "numbers are kept, never reused",
    );
    assert.equal(ok(await site.api("GET", "/trash"), "trash kept").items.length, 1);
    assert.deepEqual(
      await prune(t.store.db, 2, 30, now),
      { revisions: 0, trashed: 0 },
      "a second pass removes nothing more",
    );

    await prune(t.store.db, 100, 30, new Date(now.getTime() + 31 * 86_400_000));
    assert.deepEqual(ok(await site.api("GET", "/trash"), "trash expired").items, []);
    const rows = await t.store.db
      .selectFrom("revisions")
      .select("id")
      .where("site_id", "=", site.id)
      .where("object_id", "=", goneId)
      .execute();
    assert.equal(rows.length, 0, "its history went with it");
  });
});

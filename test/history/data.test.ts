// Data sets' history (docs/revisions.md "Data sets"): every PUT and DELETE of a set
// leaves one revision, each language variant its own history (`name`, `name:lang`); a restore is a
// write (the public page shows the old items); a deleted set comes back from the trash with its
// history; DELETE ?dry_run=1 writes nothing; another site's sets are not found.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, startTestApp, type TestApp } from "../support/app.ts";
import { visit } from "../support/site.ts";
import { addLanguage } from "../pages/helpers.ts";

describe("data set revisions, restores and the trash", () => {
  let t: TestApp;
  let n = 0;
  let host = "";
  const site = async () => {
    n++;
    host = `datahistory${n}.localhost`;
    return makeSite(t, `Data history ${n}`, host);
  };
  const at = (id: number, path: string) => `/api/site/${id}${path}`;
  const put = async (id: number, name: string, body: Record<string, unknown>) => {
    const r = await t.call("PUT", at(id, `/data/${name}`), { body });
    assert.ok(r.status === 200 || r.status === 201, `PUT /data/${name}: ${r.status} ${r.text}`);
    return r;
  };
  const revisions = async (id: number, name: string, query?: Record<string, string>) => {
    const r = await t.call("GET", at(id, `/data/${name}/revisions`), { query });
    assert.equal(r.status, 200, r.text);
    return r.body;
  };
  const items = async (id: number, name: string, query?: Record<string, string>) =>
    (await t.call("GET", at(id, `/data/${name}`), { query })).body.items;
  const trash = async (id: number) => (await t.call("GET", at(id, "/trash"))).body.items as any[];
  /** A published page whose frame prints the set's names. */
  const showing = async (id: number, name: string) => {
    const frame = await t.call("POST", at(id, "/frames"), {
      body: {
        slug: `${name}-list`,
        html: `<ul><!-- svc/repeat {"source": "${name}"} --><li data-op-bind='{"text": "item.name"}'></li><!-- /svc/repeat --></ul>`,
      },
    });
    assert.equal(frame.status, 201, frame.text);
    const page = await t.call("POST", at(id, "/pages"), {
      body: { title: `All of ${name}`, frame: `${name}-list`, status: "publish" },
    });
    assert.equal(page.status, 201, page.text);
    return { id: page.body.page.id as number, path: `${page.body.page.path}/` };
  };
  const shown = async (path: string) => (await visit(t, path, host)).body;

  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it("each PUT that changes a set leaves exactly one revision (total), newest first; the same items again leave none; the summary names the changed fields", async () => {
    const id = await site();
    await put(id, "team", { items: [{ name: "Ada" }] });
    await put(id, "team", { items: [{ name: "Ada" }, { name: "Bob" }] });
    await put(id, "team", { items: [{ name: "Cy" }] });
    await put(id, "team", { items: [{ name: "Cy" }] });
    const list = await revisions(id, "team");
    assert.equal(list.total, 3);
    assert.equal(list.kind, "data");
    assert.equal(list.id, "team");
    assert.deepEqual(
      list.revisions.map((r: any) => r.revision),
      [3, 2, 1],
    );
    assert.deepEqual(
      list.revisions.map((r: any) => r.summary),
      [["items"], ["items"], ["items", "lang", "name"]],
    );
    for (const r of list.revisions) {
      assert.ok(Number.isInteger(r.created_by), "created_by: the acting user");
      assert.match(r.sha256, /^[0-9a-f]{64}$/);
    }
    const paged = await revisions(id, "team", { per_page: "1", page: "2" });
    assert.deepEqual([paged.total, paged.revisions.map((r: any) => r.revision)], [3, [2]]);
  });

  it("a revision's content is {name, lang, items} as JSON one field per line with sorted keys; a diff between two has @@ hunks; an unknown n is 404 revision_not_found", async () => {
    const id = await site();
    await put(id, "team", { items: [{ role: "lead", name: "Ada" }] });
    await put(id, "team", { items: [{ role: "lead", name: "Ada" }, { name: "Bob" }] });
    await put(id, "team", { items: [{ name: "Cy" }] });
    const one = await t.call("GET", at(id, "/data/team/revisions/1"));
    assert.equal(one.status, 200, one.text);
    const content = one.body.revision.content as string;
    assert.deepEqual(JSON.parse(content), { name: "team", lang: null, items: [{ name: "Ada", role: "lead" }] });
    assert.ok(
      content.indexOf('"items"') < content.indexOf('"lang"') &&
        content.indexOf('"lang"') < content.indexOf('"name": "team"'),
      "keys sorted",
    );
    assert.ok(content.indexOf('"name": "Ada"') < content.indexOf('"role": "lead"'), "keys sorted within an item");
    assert.equal(one.body.revision.bytes, Buffer.byteLength(content));
    const diff = await t.call("GET", at(id, "/data/team/revisions/1/diff"), { query: { to: "3" } });
    assert.equal(diff.status, 200, diff.text);
    assert.match(diff.body.diff, /^@@ /m);
    assert.match(diff.body.diff, /^-\s+"name": "Ada",?$/m);
    assert.match(diff.body.diff, /^\+\s+"name": "Cy"$/m);
    const toCurrent = await t.call("GET", at(id, "/data/team/revisions/3/diff"));
    assert.deepEqual([toCurrent.body.to, toCurrent.body.identical], [null, true]);
    const missing = await t.call("GET", at(id, "/data/team/revisions/9"));
    assert.deepEqual([missing.status, missing.body.error], [404, "revision_not_found"]);
  });

  it("each language variant has its own history, named by ?lang (object ids team and team:de); an unknown set or variant is 404 dataset_not_found", async () => {
    const id = await site();
    await addLanguage(t, id, "en");
    await addLanguage(t, id, "de");
    await put(id, "team", { items: [{ name: "shared" }] });
    await put(id, "team", { items: [{ name: "deutsch" }], lang: "de" });
    await put(id, "team", { items: [{ name: "deutsch 2" }], lang: "de" });
    const shared = await revisions(id, "team");
    const de = await revisions(id, "team", { lang: "de" });
    assert.deepEqual([shared.id, shared.total], ["team", 1]);
    assert.deepEqual([de.id, de.total], ["team:de", 2]);
    const first = await t.call("GET", at(id, "/data/team/revisions/1"), { query: { lang: "de" } });
    assert.deepEqual(JSON.parse(first.body.revision.content), {
      name: "team",
      lang: "de",
      items: [{ name: "deutsch" }],
    });
    const restored = await t.call("POST", at(id, "/data/team/revisions/1/restore"), { query: { lang: "de" } });
    assert.equal(restored.status, 200, restored.text);
    assert.deepEqual(await items(id, "team", { lang: "de" }), [{ name: "deutsch" }]);
    assert.deepEqual(await items(id, "team"), [{ name: "shared" }], "the shared set is untouched");
    assert.equal((await revisions(id, "team")).total, 1);
    for (const [name, query] of [
      ["team", { lang: "en" }],
      ["nothing", {}],
    ] as const) {
      const r = await t.call("GET", at(id, `/data/${name}/revisions`), { query });
      assert.deepEqual([r.status, r.body.error], [404, "dataset_not_found"], name);
    }
  });

  it("a restore writes the revision's items as a new revision (never a rewind): the public page shows them, the answer carries rebaked and restored", async () => {
    const id = await site();
    await put(id, "team", { items: [{ name: "Ada" }] });
    const page = await showing(id, "team");
    await put(id, "team", { items: [{ name: "Bob" }] });
    await put(id, "team", { items: [{ name: "Cy" }] });
    assert.match(await shown(page.path), /<li>Cy<\/li>/);
    const r = await t.call("POST", at(id, "/data/team/revisions/1/restore"));
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.restored, { kind: "data", id: "team", from_revision: 1, revision: 4 });
    assert.equal(r.body.rebaked.status, "ok");
    assert.ok(r.body.rebaked.pages.includes(page.id));
    assert.equal(r.body.dataset.total, 1);
    const html = await shown(page.path);
    assert.match(html, /<li>Ada<\/li>/);
    assert.doesNotMatch(html, /Cy/);
    const list = await revisions(id, "team");
    assert.equal(list.total, 4);
    assert.deepEqual(list.revisions[0].summary, ["items"]);
    const again = await t.call("POST", at(id, "/data/team/revisions/4/restore"));
    assert.equal(again.status, 200);
    assert.deepEqual(
      again.body.warnings.map((w: any) => w.code),
      ["nothing_changed"],
    );
    assert.equal((await revisions(id, "team")).total, 4, "restoring the current state adds none");
  });

  it("DELETE keeps the last state and puts the set in the trash; a restore from the trash brings it back with its history continuing, and the public page shows it again", async () => {
    const id = await site();
    await put(id, "team", { items: [{ name: "Ada" }] });
    const page = await showing(id, "team");
    await put(id, "team", { items: [{ name: "Bob" }] });
    const deleted = await t.call("DELETE", at(id, "/data/team"));
    assert.equal(deleted.status, 200, deleted.text);
    assert.doesNotMatch(await shown(page.path), /Bob/);
    const [entry, ...others] = await trash(id);
    assert.equal(others.length, 0);
    assert.deepEqual(
      { kind: entry.kind, id: entry.id, slug: entry.slug, last_revision: entry.last_revision },
      { kind: "data", id: "team", slug: "team", last_revision: 2 },
    );
    assert.ok(Number.isInteger(entry.deleted_by));
    assert.equal((await t.call("GET", at(id, "/data/team/revisions"))).body.error, "dataset_not_found");

    const back = await t.call("POST", at(id, "/trash/data/team/restore"));
    assert.equal(back.status, 200, back.text);
    assert.deepEqual(
      back.body.restored,
      { kind: "data", id: "team", from_revision: 2, revision: 2 },
      "its last state again: no new revision",
    );
    assert.equal(back.body.created, true);
    assert.deepEqual(await items(id, "team"), [{ name: "Bob" }]);
    assert.match(await shown(page.path), /<li>Bob<\/li>/);
    assert.deepEqual(await trash(id), []);
    assert.deepEqual(
      (await revisions(id, "team")).revisions.map((r: any) => r.revision),
      [2, 1],
    );
    await put(id, "team", { items: [{ name: "Cy" }] });
    assert.deepEqual(
      (await revisions(id, "team")).revisions.map((r: any) => [r.revision, r.summary]),
      [
        [3, ["items"]],
        [2, ["items"]],
        [1, ["items", "lang", "name"]],
      ],
      "the next write continues the numbering",
    );
  });

  it("a set written before revisions existed gets its first revision when deleted, so it can come back from the trash", async () => {
    const id = await site();
    const stamp = "2026-01-01 00:00:00";
    await t.store.db
      .insertInto("datasets")
      .values({
        site_id: id,
        name: "old",
        lang: "",
        items_json: '[{"name":"Old"}]',
        total: 1,
        created_at_gmt: stamp,
        updated_at_gmt: stamp,
      })
      .execute();
    assert.equal((await t.call("DELETE", at(id, "/data/old"))).status, 200);
    assert.deepEqual(
      (await trash(id)).map((e) => [e.id, e.last_revision]),
      [["old", 1]],
    );
    assert.equal((await t.call("POST", at(id, "/trash/data/old/restore"))).status, 200);
    assert.deepEqual(await items(id, "old"), [{ name: "Old" }]);
  });

  it("a language variant goes to the trash as name:lang and comes back as that variant only", async () => {
    const id = await site();
    await addLanguage(t, id, "en");
    await addLanguage(t, id, "de");
    await put(id, "faq", { items: [{ q: "shared" }] });
    await put(id, "faq", { items: [{ q: "de" }], lang: "de" });
    assert.equal((await t.call("DELETE", at(id, "/data/faq"), { query: { lang: "de" } })).status, 200);
    assert.deepEqual(
      (await trash(id)).map((e) => [e.kind, e.id, e.slug]),
      [["data", "faq:de", "faq"]],
    );
    const back = await t.call("POST", at(id, "/trash/data/faq:de/restore"));
    assert.equal(back.status, 200, back.text);
    assert.deepEqual(back.body.dataset.lang, "de");
    assert.deepEqual(await items(id, "faq", { lang: "de" }), [{ q: "de" }]);
    assert.deepEqual([(await revisions(id, "faq", { lang: "de" })).total, (await revisions(id, "faq")).total], [1, 1]);
  });

  it("a PUT making a set again under a name and language in the trash takes it out of the trash, and its history continues", async () => {
    const id = await site();
    await put(id, "team", { items: [{ name: "Ada" }] });
    await t.call("DELETE", at(id, "/data/team"));
    const made = await put(id, "team", { items: [{ name: "New" }] });
    assert.equal(made.status, 201);
    assert.deepEqual(await trash(id), []);
    assert.deepEqual(
      (await revisions(id, "team")).revisions.map((r: any) => r.revision),
      [2, 1],
    );
    const gone = await t.call("POST", at(id, "/trash/data/team/restore"));
    assert.deepEqual([gone.status, gone.body.error], [404, "trash_item_not_found"]);
  });

  it("a restore from the trash when a set stands under its name and language again (written around the service) is 409 slug_taken with its id, and nothing changes", async () => {
    const id = await site();
    await put(id, "team", { items: [{ name: "Ada" }] });
    await t.call("DELETE", at(id, "/data/team"));
    const stamp = "2026-01-01 00:00:00";
    await t.store.db
      .insertInto("datasets")
      .values({
        site_id: id,
        name: "team",
        lang: "",
        items_json: '[{"name":"Other"}]',
        total: 1,
        created_at_gmt: stamp,
        updated_at_gmt: stamp,
      })
      .execute();
    const r = await t.call("POST", at(id, "/trash/data/team/restore"));
    assert.equal(r.status, 409, r.text);
    assert.equal(r.body.error, "slug_taken");
    assert.equal(r.body.id, "team");
    assert.deepEqual(await items(id, "team"), [{ name: "Other" }]);
    assert.deepEqual(
      (await trash(id)).map((e) => e.id),
      ["team"],
    );
    assert.equal((await revisions(id, "team")).total, 1);
  });

  it("DELETE ?dry_run=1 (or true) answers what the delete would (the frames and pages it would rebake) and writes nothing: the set, its history and the trash stay as they are", async () => {
    const id = await site();
    await put(id, "team", { items: [{ name: "Ada" }, { name: "Bob" }] });
    const page = await showing(id, "team");
    for (const flag of ["1", "true"]) {
      const r = await t.call("DELETE", at(id, "/data/team"), { query: { dry_run: flag } });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body.deleted, { name: "team", lang: null, total: 2 });
      assert.deepEqual([r.body.dry_run, r.body.applied], [true, false]);
      assert.equal(r.body.rebaked.status, "planned");
      assert.deepEqual(
        r.body.rebaked.frames.map((f: any) => f.slug),
        ["team-list"],
      );
      assert.deepEqual(r.body.rebaked.pages, [page.id]);
    }
    assert.deepEqual(await items(id, "team"), [{ name: "Ada" }, { name: "Bob" }]);
    assert.equal((await revisions(id, "team")).total, 1);
    assert.deepEqual(await trash(id), []);
    assert.match(await shown(page.path), /<li>Bob<\/li>/);
    const missing = await t.call("DELETE", at(id, "/data/nothing"), { query: { dry_run: "1" } });
    assert.deepEqual([missing.status, missing.body.error], [404, "dataset_not_found"]);
    const bad = await t.call("DELETE", at(id, "/data/team"), { query: { dry_run: "maybe" } });
    assert.equal(bad.status, 400);
    assert.deepEqual(await items(id, "team"), [{ name: "Ada" }, { name: "Bob" }]);
  });

  it("another site's sets, revisions and trash are not found: 404, nothing restored", async () => {
    const a = await site();
    const b = await site();
    await put(a, "team", { items: [{ name: "Ada" }] });
    await put(a, "team", { items: [{ name: "Bob" }] });
    for (const [method, path] of [
      ["GET", "/data/team/revisions"],
      ["GET", "/data/team/revisions/1"],
      ["GET", "/data/team/revisions/1/diff"],
      ["POST", "/data/team/revisions/1/restore"],
    ]) {
      const r = await t.call(method, at(b, path));
      assert.deepEqual([r.status, r.body.error], [404, "dataset_not_found"], path);
    }
    await t.call("DELETE", at(a, "/data/team"));
    assert.deepEqual(await trash(b), []);
    const r = await t.call("POST", at(b, "/trash/data/team/restore"));
    assert.deepEqual([r.status, r.body.error], [404, "trash_item_not_found"]);
    assert.equal((await t.call("GET", at(b, "/data/team"))).status, 404);
    assert.deepEqual(
      (await trash(a)).map((e) => e.id),
      ["team"],
    );
  });
});

// Page revisions, restores and the trash (docs/revisions.md "Pages"): every route that
// writes a page leaves exactly one revision of each page it changed, each translation its own
// object kept by its id; a restore writes an old state back and publishes it; a page deleted for
// good comes back from the trash under its id; DELETE ?dry_run=1 answers and writes nothing.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeSite, startTestApp, type TestApp } from "../support/app.ts";
import { visit } from "../support/site.ts";

describe("page revisions", () => {
  let t: TestApp;
  let n = 0;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  /** A fresh site: its API prefix and its public host. */
  async function site(): Promise<{ S: string; host: string; id: number }> {
    n++;
    const id = await makeSite(t, `History ${n}`, `hist${n}.localhost`);
    return { S: `/api/site/${id}`, host: `hist${n}.localhost:8080`, id };
  }

  async function call(method: string, url: string, body?: unknown, expect = [200, 201]): Promise<any> {
    const r = await t.call(method, url, body === undefined ? {} : { body });
    assert.ok(expect.includes(r.status), `${method} ${url}: ${r.status} ${r.text}`);
    return r.body;
  }

  async function revisions(S: string, ref: string | number): Promise<{ total: number; revisions: any[] }> {
    const r = await t.call("GET", `${S}/pages/${ref}/revisions`);
    assert.equal(r.status, 200, r.text);
    return r.body;
  }

  const total = async (S: string, ref: string | number) => (await revisions(S, ref)).total;
  const lastSummary = async (S: string, ref: string | number) => (await revisions(S, ref)).revisions[0].summary;

  it("POST /pages: a create is revision 1 (every field); an update by id or by slug adds one naming the changed fields; the same write again adds none", async () => {
    const { S } = await site();
    const made = await call("POST", `${S}/pages`, { title: "Pricing", content: "v1" });
    const id = made.page.id;
    const first = await revisions(S, id);
    assert.equal(first.total, 1);
    assert.deepEqual(first.revisions[0].summary, [
      "content",
      "date",
      "feed",
      "fields",
      "frame_id",
      "lang",
      "menu_order",
      "parent",
      "seo",
      "slug",
      "status",
      "tags",
      "title",
      "translation_group",
    ]);
    await call("POST", `${S}/pages`, { id, title: "Prices" });
    assert.equal(await total(S, id), 2);
    assert.deepEqual(await lastSummary(S, id), ["title"]);
    await call("POST", `${S}/pages`, { title: "Prices", slug: "pricing", content: "v2" });
    assert.equal(await total(S, id), 3);
    assert.deepEqual(await lastSummary(S, id), ["content"]);
    await call("POST", `${S}/pages`, { title: "Prices", slug: "pricing", content: "v2" });
    assert.equal(await total(S, id), 3, "nothing changed: no revision");
  });

  it("create_missing_parents: each stub made on the way gets its own first revision", async () => {
    const { S } = await site();
    const made = await call("POST", `${S}/pages`, {
      title: "Boots",
      url: "/shop/shoes/boots",
      create_missing_parents: true,
    });
    assert.equal(made.created_stubs.length, 2);
    for (const stub of made.created_stubs) assert.equal(await total(S, stub.id), 1);
    assert.equal(await total(S, made.page.id), 1);
  });

  it("PATCH /pages/{ref} (frame: null too) and PATCH /seo/pages/{ref} each leave one revision naming the changed field", async () => {
    const { S } = await site();
    await call("POST", `${S}/frames`, { slug: "plain", html: "<p>plain</p>" });
    const id = (await call("POST", `${S}/pages`, { title: "Patched", frame: "plain" })).page.id;
    const steps: Array<[string, unknown, string[]]> = [
      [`${S}/pages/${id}`, { title: "Patched again" }, ["title"]],
      [`${S}/pages/${id}`, { fields: { tone: "warm" } }, ["fields"]],
      [`${S}/pages/${id}`, { menu_order: 3 }, ["menu_order"]],
      [`${S}/pages/${id}`, { frame: null }, ["frame_id"]],
      [`${S}/seo/pages/${id}`, { description: "About it" }, ["seo"]],
    ];
    let expected = 1;
    for (const [url, body, summary] of steps) {
      await call("PATCH", url, body);
      expected++;
      assert.equal(await total(S, id), expected, JSON.stringify(body));
      assert.deepEqual(await lastSummary(S, id), summary);
    }
  });

  it("POST /frames/{ref}/assign and its clear each leave one revision of the page (frame_id)", async () => {
    const { S } = await site();
    await call("POST", `${S}/frames`, { slug: "article", html: "<p>article</p>" });
    const id = (await call("POST", `${S}/pages`, { title: "Assigned" })).page.id;
    await call("POST", `${S}/frames/article/assign`, { page: id });
    assert.equal(await total(S, id), 2);
    assert.deepEqual(await lastSummary(S, id), ["frame_id"]);
    await call("POST", `${S}/frames/article/assign`, { page: id, clear: true });
    assert.equal(await total(S, id), 3);
    assert.deepEqual(await lastSummary(S, id), ["frame_id"]);
    const content = JSON.parse((await call("GET", `${S}/pages/${id}/revisions/3`)).revision.content);
    assert.equal(content.frame_id, null);
  });

  it("POST /pages/language: {missing: true} revises each page given a language; a translation is an object of its own, and its origin gets one revision for joining the group", async () => {
    const { S } = await site();
    const origin = (await call("POST", `${S}/pages`, { title: "About", slug: "about" })).page.id;
    const other = (await call("POST", `${S}/pages`, { title: "Team" })).page.id;
    await call("POST", `${S}/languages`, { code: "en" });
    await call("POST", `${S}/languages`, { code: "de" });
    const missing = await call("POST", `${S}/pages/language`, { missing: true, lang: "en" });
    assert.deepEqual(missing.updated.sort(), [origin, other].sort());
    for (const id of [origin, other]) {
      assert.equal(await total(S, id), 2);
      assert.deepEqual(await lastSummary(S, id), ["lang"]);
    }
    const translated = await call("POST", `${S}/pages/language`, {
      page: origin,
      lang: "de",
      title: "Über uns",
      slug: "about",
    });
    const de = translated.page.id;
    assert.equal(await total(S, de), 1);
    assert.equal(await total(S, origin), 3);
    assert.deepEqual(await lastSummary(S, origin), ["translation_group"]);
    assert.equal(await total(S, other), 2, "a page the write did not change: no revision");
    // Both translations hold the slug "about": ?lang says which one.
    assert.equal((await t.call("GET", `${S}/pages/about/revisions`)).status, 409);
    const byLang = await t.call("GET", `${S}/pages/about/revisions?lang=de`);
    assert.equal(byLang.status, 200, byLang.text);
    assert.equal(byLang.body.id, String(de));
    assert.deepEqual(byLang.body.warnings, []);
    await call("POST", `${S}/pages/language`, { page: origin, lang: "de", title: "Über uns (neu)" });
    assert.equal(await total(S, de), 2);
    assert.equal(await total(S, origin), 3, "updating the translation leaves the origin alone");
  });

  it("a move is one revision of the moved page (parent) and none of its descendants (paths are not kept)", async () => {
    const { S } = await site();
    const a = (await call("POST", `${S}/pages`, { title: "A" })).page.id;
    const b = (await call("POST", `${S}/pages`, { title: "B" })).page.id;
    const child = (await call("POST", `${S}/pages`, { title: "Child", parent: b })).page.id;
    await call("PATCH", `${S}/pages/${b}`, { parent: a });
    assert.equal(await total(S, b), 2);
    assert.deepEqual(await lastSummary(S, b), ["parent"]);
    assert.equal(await total(S, child), 1);
    await call("PATCH", `${S}/pages/${b}`, { slug: "bee" });
    assert.deepEqual(await lastSummary(S, b), ["slug"]);
    assert.equal(await total(S, child), 1);
  });

  it("a revision's content is the page's JSON, one field per line with sorted keys; the diff between two has @@ hunks", async () => {
    const { S } = await site();
    const id = (
      await call("POST", `${S}/pages`, { title: "Shown", content: "<p>one</p>", fields: { z: 1, a: { y: 2, b: 3 } } })
    ).page.id;
    await call("PATCH", `${S}/pages/${id}`, { title: "Shown twice" });
    const { revision } = await call("GET", `${S}/pages/${id}/revisions/1`);
    const value = JSON.parse(revision.content);
    const sortedDeep = (v: any): any =>
      v && typeof v === "object" && !Array.isArray(v)
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sortedDeep(v[k])]),
          )
        : v;
    assert.equal(revision.content, `${JSON.stringify(sortedDeep(value), null, 2)}\n`);
    assert.deepEqual(Object.keys(value), Object.keys(value).sort());
    assert.equal(value.title, "Shown");
    assert.deepEqual(value.fields, { a: { b: 3, y: 2 }, z: 1 });
    assert.equal(revision.bytes, Buffer.byteLength(revision.content));
    const diff = await call("GET", `${S}/pages/${id}/revisions/1/diff?to=2`);
    assert.match(diff.diff, /@@ .* @@/);
    assert.match(diff.diff, /^- {2}"title": "Shown",$/m);
    assert.match(diff.diff, /^\+ {2}"title": "Shown twice",$/m);
    assert.equal((await t.call("GET", `${S}/pages/${id}/revisions/9`)).body.error, "revision_not_found");
  });

  it("a restore writes the old title back as a new revision and publishes it: the public page shows it", async () => {
    const { S, host } = await site();
    await call("POST", `${S}/frames`, { slug: "titled", html: `<h1 data-op-bind='{"text": "page.title"}'></h1>` });
    const id = (await call("POST", `${S}/pages`, { title: "First title", slug: "story", frame: "titled" })).page.id;
    await call("PATCH", `${S}/pages/${id}`, { title: "Second title", content: "<p>new</p>" });
    assert.match((await visit(t, "/story/", host)).body, /Second title/);
    const restored = await call("POST", `${S}/pages/${id}/revisions/1/restore`);
    assert.deepEqual(restored.restored, { kind: "pages", id: String(id), from_revision: 1, revision: 3 });
    assert.equal(restored.page.title, "First title");
    assert.equal(restored.page.content, "");
    assert.ok(restored.rebaked);
    assert.equal(await total(S, id), 3);
    assert.deepEqual(await lastSummary(S, id), ["content", "title"]);
    const shown = await visit(t, "/story/", host);
    assert.equal(shown.status, 200);
    assert.match(shown.body, /First title/);
    const again = await call("POST", `${S}/pages/${id}/revisions/3/restore`);
    assert.ok(again.warnings.some((w: any) => w.code === "nothing_changed"));
    assert.equal(await total(S, id), 3);
  });

  it("a restore keeps the page's current slug and parent", async () => {
    const { S } = await site();
    const parent = (await call("POST", `${S}/pages`, { title: "Parent" })).page.id;
    const id = (await call("POST", `${S}/pages`, { title: "Kept", slug: "kept" })).page.id;
    await call("PATCH", `${S}/pages/${id}`, { slug: "moved", parent, title: "Moved" });
    const restored = await call("POST", `${S}/pages/moved/revisions/1/restore`);
    assert.equal(restored.page.title, "Kept");
    assert.equal(restored.page.slug, "moved");
    assert.equal(restored.page.parent, parent);
  });

  it("DELETE to the trash is one revision (status); DELETE ?force=true keeps the last state, lists the page in GET /trash and revises the children it moved up", async () => {
    const { S } = await site();
    const top = (await call("POST", `${S}/pages`, { title: "Top" })).page.id;
    const gone = (await call("POST", `${S}/pages`, { title: "Gone", parent: top })).page.id;
    const child = (await call("POST", `${S}/pages`, { title: "Kid", parent: gone })).page.id;
    await call("DELETE", `${S}/pages/${gone}`);
    assert.equal(await total(S, gone), 2);
    assert.deepEqual(await lastSummary(S, gone), ["status"]);
    assert.equal(await total(S, child), 1, "a child of a trashed page is not written");
    const forced = await call("DELETE", `${S}/pages/${gone}?force=true`);
    assert.equal(forced.deleted, true);
    assert.deepEqual(forced.removed, [gone]);
    assert.deepEqual(forced.reparented, [child]);
    assert.equal(await total(S, child), 2);
    assert.deepEqual(await lastSummary(S, child), ["parent"]);
    const trash = await call("GET", `${S}/trash`);
    const item = trash.items.find((i: any) => i.kind === "pages" && i.id === String(gone));
    assert.ok(item, JSON.stringify(trash.items));
    assert.equal(item.slug, "gone");
    assert.equal(item.last_revision, 2);
    assert.equal((await t.call("GET", `${S}/pages/${gone}/revisions`)).body.error, "page_not_found");
  });

  it("POST /trash/pages/{id}/restore brings a page deleted for good back under its id, with its history and its children, published", async () => {
    const { S, host } = await site();
    await call("POST", `${S}/frames`, { slug: "titled", html: `<h1 data-op-bind='{"text": "page.title"}'></h1>` });
    const id = (await call("POST", `${S}/pages`, { title: "Comeback", frame: "titled" })).page.id;
    const child = (await call("POST", `${S}/pages`, { title: "Sub", parent: id, frame: "titled" })).page.id;
    await call("DELETE", `${S}/pages/${id}?force=true`);
    assert.equal((await visit(t, "/comeback/", host)).status, 404);
    assert.equal((await visit(t, "/sub/", host)).status, 200, "the child moved up");
    const back = await call("POST", `${S}/trash/pages/${id}/restore`);
    assert.equal(back.page.id, id);
    assert.equal(back.page.title, "Comeback");
    assert.equal(back.page.frame, "titled");
    assert.deepEqual(back.children_restored, [child]);
    assert.equal(back.restored.kind, "pages");
    assert.ok(back.rebaked);
    assert.match((await visit(t, "/comeback/", host)).body, /Comeback/);
    assert.equal((await call("GET", `${S}/pages/${child}`)).page.path, "/comeback/sub");
    assert.equal((await visit(t, "/comeback/sub/", host)).status, 200);
    assert.equal(await total(S, id), 1, "the same state: its history continues without a new revision");
    assert.deepEqual(await lastSummary(S, child), ["parent"]);
    assert.ok(!(await call("GET", `${S}/trash`)).items.some((i: any) => i.kind === "pages" && i.id === String(id)));
    await call("PATCH", `${S}/pages/${id}`, { title: "Comeback 2" });
    assert.equal(await total(S, id), 2);
  });

  it("a trashed page whose slug was taken meanwhile is 409 slug_taken with the occupant's id, and nothing changes", async () => {
    const { S } = await site();
    const id = (await call("POST", `${S}/pages`, { title: "Taken" })).page.id;
    await call("DELETE", `${S}/pages/${id}?force=true`);
    const occupant = (await call("POST", `${S}/pages`, { title: "Taken again", slug: "taken" })).page.id;
    const refused = await t.call("POST", `${S}/trash/pages/${id}/restore`);
    assert.equal(refused.status, 409, refused.text);
    assert.equal(refused.body.error, "slug_taken");
    assert.equal(refused.body.id, occupant);
    assert.equal((await t.call("GET", `${S}/pages/${id}`)).status, 404);
    assert.ok((await call("GET", `${S}/trash`)).items.some((i: any) => i.kind === "pages" && i.id === String(id)));
    await call("PATCH", `${S}/pages/${occupant}`, { slug: "elsewhere" });
    assert.equal((await call("POST", `${S}/trash/pages/${id}/restore`)).page.slug, "taken");
  });

  it("a page whose parent is gone comes back at the top, with a warning", async () => {
    const { S } = await site();
    const parent = (await call("POST", `${S}/pages`, { title: "Parent" })).page.id;
    const id = (await call("POST", `${S}/pages`, { title: "Orphan", parent })).page.id;
    await call("DELETE", `${S}/pages/${id}?force=true`);
    await call("DELETE", `${S}/pages/${parent}?force=true`);
    const back = await call("POST", `${S}/trash/pages/${id}/restore`);
    assert.equal(back.page.parent, 0);
    assert.equal(back.page.path, "/orphan");
    assert.ok(back.warnings.some((w: any) => w.code === "parent_missing" && w.parent === parent));
  });

  it("DELETE ?dry_run=1 writes nothing and lists what would be removed and the menu items left pointing nowhere; the delete answers the same", async () => {
    const { S } = await site();
    const id = (await call("POST", `${S}/pages`, { title: "Linked" })).page.id;
    const kid = (await call("POST", `${S}/pages`, { title: "Kid", parent: id })).page.id;
    const menu = await call("POST", `${S}/menus`, {
      name: "Main",
      items: [{ page: id }, { page: id, title: "Again" }, { url: "https://example.com/", title: "Elsewhere" }],
    });
    const [first, second] = menu.items;
    const orphaned = [
      { menu_id: menu.menu.id, id: first.id, title: "Linked" },
      { menu_id: menu.menu.id, id: second.id, title: "Again" },
    ];
    const revisionsBefore = await total(S, id);
    for (const force of ["", "&force=true"]) {
      const dry = await call("DELETE", `${S}/pages/${id}?dry_run=1${force}`);
      assert.equal(dry.dry_run, true);
      assert.equal(dry.applied, false);
      assert.deepEqual(dry.menu_items_orphaned, orphaned);
      assert.deepEqual(dry.removed, force ? [id] : []);
      if (force) assert.deepEqual(dry.reparented, [kid]);
      const page = (await call("GET", `${S}/pages/${id}`)).page;
      assert.equal(page.status, "publish");
      assert.equal((await call("GET", `${S}/pages/${kid}`)).page.parent, id);
      assert.equal(await total(S, id), revisionsBefore);
      assert.equal(await total(S, kid), 1);
      assert.deepEqual((await call("GET", `${S}/trash`)).items, []);
    }
    const trashed = await call("DELETE", `${S}/pages/${id}`);
    assert.deepEqual(trashed.menu_items_orphaned, orphaned);
    const forced = await call("DELETE", `${S}/pages/${id}?force=1`);
    assert.deepEqual(forced.menu_items_orphaned, orphaned);
    assert.deepEqual(forced.removed, [id]);
  });

  it("another site's page is 404 page_not_found on every history call", async () => {
    const mine = await site();
    const theirs = await site();
    const id = (await call("POST", `${theirs.S}/pages`, { title: "Theirs" })).page.id;
    for (const [method, path] of [
      ["GET", "revisions"],
      ["GET", "revisions/1"],
      ["GET", "revisions/1/diff"],
      ["POST", "revisions/1/restore"],
    ]) {
      const r = await t.call(method, `${mine.S}/pages/${id}/${path}`);
      assert.equal(r.status, 404, `${method} ${path}: ${r.text}`);
      assert.equal(r.body.error, "page_not_found");
    }
    await call("DELETE", `${theirs.S}/pages/${id}?force=true`);
    const r = await t.call("POST", `${mine.S}/trash/pages/${id}/restore`);
    assert.equal(r.status, 404);
    assert.equal(r.body.error, "trash_item_not_found");
  });
});

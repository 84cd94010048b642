// Menus' revisions, restores and the trash (docs/revisions.md): every menu write leaves
// one revision of each menu it changed; a restore is a new write published as any; a deleted menu
// comes back from the trash with its id, items, locations and history.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { TestApp } from "../support/app.ts";
import { ok, seoSite as newSite, startTestApp, type SeoSite } from "../seo/helpers.ts";

const LAYOUT = `<!DOCTYPE html><html><body><nav class="top"><!-- svc/menu {"location": "header"} /--></nav><main></main></body></html>`;

/** The titles of the links the header menu prints on a public page. */
const codes = (answer: { warnings: Array<{ code: string }> }) => answer.warnings.map((w) => w.code);

function shown(html: string): string[] {
  const nav = /<nav class="top">([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? "";
  return [...nav.matchAll(/<a [^>]*>([^<]*)<\/a>/g)].map((m) => m[1]);
}

describe("menus: revisions, restores and the trash", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  async function site(): Promise<{ site: SeoSite; pages: Record<string, number> }> {
    const s = await newSite(t);
    await s.frame("layout", LAYOUT);
    const pages: Record<string, number> = {};
    pages.home = await s.page("Home", "layout");
    for (const title of ["About", "Blog", "Contact"]) pages[title.toLowerCase()] = await s.page(title, null);
    return { site: s, pages };
  }

  async function revisions(
    s: SeoSite,
    ref: string | number,
  ): Promise<{ total: number; revisions: Array<{ revision: number; summary: string[] }> }> {
    return ok(await s.api("GET", `/menus/${ref}/revisions`), "revisions");
  }

  async function onPage(s: SeoSite): Promise<string[]> {
    const page = await s.visit("/home/");
    assert.equal(page.status, 200, page.text.slice(0, 200));
    return shown(page.text);
  }

  it("every menu write route leaves exactly one revision of the menu, whose summary names the fields it changed; a write that changes nothing leaves none", async () => {
    const { site: s, pages } = await site();
    const made = ok(
      await s.api("POST", "/menus", { name: "Main", location: "header", items: [pages.about] }),
      "create",
      201,
    );
    const id = made.menu.id as number;
    let item = 0;
    const steps: Array<() => [string, string, unknown, string[]]> = [
      () => ["PATCH", `/menus/${id}`, { name: "Main menu" }, ["name"]],
      () => ["PUT", `/menus/${id}/items`, { items: [pages.about, pages.blog] }, ["items"]],
      () => ["POST", `/menus/${id}/items`, { url: "/feed", title: "Feed" }, ["items"]],
      () => ["PATCH", `/menus/${id}/items/${item}`, { title: "Journal" }, ["items"]],
      () => ["POST", `/menus/${id}/reorder`, { order: [item] }, ["items"]],
      () => ["PUT", `/menus/${id}/location`, { location: "footer_1" }, ["locations"]],
      () => ["DELETE", `/menus/${id}/location?location=footer_1`, undefined, ["locations"]],
      () => ["DELETE", `/menus/${id}/items/${item}`, undefined, ["items"]],
    ];
    const first = await revisions(s, id);
    assert.equal(first.total, 1);
    assert.deepEqual(
      first.revisions[0].summary,
      ["items", "locations", "name", "slug"],
      "a first revision names every field",
    );
    for (const [index, step] of steps.entries()) {
      const [method, path, body, summary] = step();
      const written = ok(
        await s.api(method, path, body),
        `${method} ${path}`,
        method === "POST" && path.endsWith("/items") ? 201 : 200,
      );
      if (written.item?.id) item = written.item.id;
      const now = await revisions(s, id);
      assert.equal(now.total, index + 2, `${method} ${path}: one revision`);
      assert.deepEqual(now.revisions[0].summary, summary, `${method} ${path}: summary`);
    }
    ok(await s.api("PATCH", `/menus/${id}`, { name: "Main menu" }), "same name");
    assert.equal(
      (await revisions(s, "main")).total,
      steps.length + 1,
      "nothing changed, no revision (found by slug too)",
    );
    const content = ok(await s.api("GET", `/menus/${id}/revisions/1`), "one").revision.content as string;
    assert.match(content, /^\{\n {2}"items": \[\n/, "the content is the menu's JSON, one field per line, keys sorted");
    assert.deepEqual(JSON.parse(content).locations, [
      { lang: null, location: "header", theme: JSON.parse(content).locations[0].theme },
    ]);
  });

  it("assigning a location another menu held revises both menus, once each", async () => {
    const { site: s, pages } = await site();
    const a = ok(await s.api("POST", "/menus", { name: "A", location: "header", items: [pages.about] }), "A", 201).menu
      .id;
    const b = ok(await s.api("POST", "/menus", { name: "B", items: [pages.blog] }), "B", 201).menu.id;
    ok(await s.api("PUT", `/menus/${b}/location`, { location: "header" }), "B at header");
    assert.deepEqual([(await revisions(s, a)).total, (await revisions(s, b)).total], [2, 2]);
    assert.deepEqual((await revisions(s, a)).revisions[0].summary, ["locations"]);
  });

  it("a restore writes the revision's items as a new revision (never a rewind): the public page shows the old menu at once; the diff has @@ hunks", async () => {
    const { site: s, pages } = await site();
    const id = ok(
      await s.api("POST", "/menus", { name: "Main", location: "header", items: [pages.about, pages.blog] }),
      "create",
      201,
    ).menu.id;
    ok(await s.api("PATCH", `/menus/${id}`, { name: "Renamed" }), "rename");
    ok(await s.api("PUT", `/menus/${id}/items`, { items: [pages.contact] }), "replace");
    assert.deepEqual(await onPage(s), ["Contact"]);
    const diff = ok(await s.api("GET", `/menus/${id}/revisions/1/diff`), "diff");
    assert.match(diff.diff, /^@@ /m);
    assert.match(diff.diff, /^-\s+"name": "Main",$/m);
    const restored = ok(await s.api("POST", `/menus/${id}/revisions/1/restore`), "restore");
    assert.deepEqual(restored.restored, { kind: "menus", id: String(id), from_revision: 1, revision: 4 });
    assert.ok(restored.rebaked.pages.includes(pages.home), "published: the page showing it was rebaked");
    assert.deepEqual(await onPage(s), ["About", "Blog"]);
    const menu = ok(await s.api("GET", `/menus/${id}`), "menu");
    assert.equal(menu.menu.name, "Renamed", "the current name stays");
    assert.deepEqual((await revisions(s, id)).revisions[0].summary, ["items"]);
    const again = ok(await s.api("POST", `/menus/${id}/revisions/4/restore`), "restore the same");
    assert.deepEqual(
      again.warnings.map((w: { code: string }) => w.code),
      ["nothing_changed"],
    );
    assert.equal((await revisions(s, id)).total, 4);
  });

  it("a restore writes items of pages that are not public now as they were (valid false), with a warning invalid_items_kept", async () => {
    const { site: s, pages } = await site();
    const id = ok(
      await s.api("POST", "/menus", { name: "Main", location: "header", items: [pages.about, pages.blog] }),
      "create",
      201,
    ).menu.id;
    ok(await s.api("PUT", `/menus/${id}/items`, { items: [pages.about] }), "replace");
    ok(await s.api("PATCH", `/pages/${pages.blog}`, { status: "draft" }), "draft");
    const restored = ok(await s.api("POST", `/menus/${id}/revisions/1/restore`), "restore");
    assert.deepEqual(codes(restored), ["invalid_items_kept"]);
    assert.deepEqual(
      restored.items.map((i: any) => [i.title, i.valid]),
      [
        ["About", true],
        ["Blog", false],
      ],
    );
    assert.deepEqual(await onPage(s), ["About"], "an invalid item prints nothing");
  });

  it("a deleted menu is in the trash; restoring it brings back its id, items (with their ids), location and history, and the public page shows it again", async () => {
    const { site: s, pages } = await site();
    const made = ok(
      await s.api("POST", "/menus", {
        name: "Main",
        location: "header",
        items: [pages.about, { url: "/feed", title: "Feed", children: [pages.blog] }],
      }),
      "create",
      201,
    );
    const id = made.menu.id as number;
    ok(await s.api("POST", `/menus/${id}/items`, { url: "/more", title: "More" }), "add", 201);
    const before = ok(await s.api("GET", `/menus/${id}`), "before").items;
    const deleted = ok(await s.api("DELETE", `/menus/${id}`), "delete");
    assert.deepEqual(deleted.deleted, { id, name: "Main", slug: "main" });
    assert.deepEqual(await onPage(s), []);
    const trash = ok(await s.api("GET", "/trash"), "trash").items;
    assert.deepEqual(
      trash.map((e: any) => [e.kind, e.id, e.slug, e.last_revision]),
      [["menus", String(id), "main", 2]],
    );
    assert.equal(
      (await s.api("GET", `/menus/${id}/revisions`)).status,
      404,
      "gone: its history is reached through the trash",
    );

    const back = ok(await s.api("POST", `/trash/menus/${id}/restore`), "undelete");
    assert.deepEqual(back.restored, { kind: "menus", id: String(id), from_revision: 2, revision: 2 });
    assert.deepEqual(ok(await s.api("GET", `/menus/${id}`), "after").items, before, "the same items with the same ids");
    assert.deepEqual(await onPage(s), ["About", "Feed", "Blog", "More"]);
    assert.deepEqual(ok(await s.api("GET", "/trash"), "trash").items, []);
    ok(await s.api("PATCH", `/menus/${id}`, { name: "Main again" }), "rename");
    assert.equal((await revisions(s, id)).total, 3, "its history continues");
  });

  it("restoring a deleted menu whose slug was taken meanwhile is 409 slug_taken with the occupant's id, nothing changed; a location taken meanwhile stays taken, with a warning", async () => {
    const { site: s, pages } = await site();
    const id = ok(
      await s.api("POST", "/menus", { name: "Main", location: "header", items: [pages.about] }),
      "create",
      201,
    ).menu.id;
    ok(await s.api("DELETE", `/menus/main`), "delete");
    const other = ok(
      await s.api("POST", "/menus", { name: "Main", location: "header", items: [pages.contact] }),
      "reuse",
      201,
    ).menu.id;
    const refused = await s.api("POST", `/trash/menus/${id}/restore`);
    assert.equal(refused.status, 409, refused.text);
    assert.equal(refused.body.error, "slug_taken");
    assert.equal(refused.body.id, other);
    assert.equal(ok(await s.api("GET", "/trash"), "trash").items.length, 1, "still in the trash");
    assert.deepEqual(
      ok(await s.api("GET", "/menus"), "list").menus.map((m: any) => m.id),
      [other],
    );

    ok(await s.api("PATCH", `/menus/${other}`, { slug: "other" }), "free the slug");
    const back = ok(await s.api("POST", `/trash/menus/${id}/restore`), "undelete");
    assert.deepEqual(
      back.warnings.map((w: { code: string }) => w.code),
      ["location_taken"],
    );
    assert.deepEqual(await onPage(s), ["Contact"], "the header keeps the menu that took it");
    assert.deepEqual(
      ok(await s.api("GET", `/menus/${id}`), "back").items.map((i: any) => i.title),
      ["About"],
    );
  });

  it("?dry_run=1 on DELETE of a menu, an item or a location answers what the delete answers and writes nothing: no revision, no trash entry, the public page unchanged", async () => {
    const { site: s, pages } = await site();
    const made = ok(
      await s.api("POST", "/menus", {
        name: "Main",
        location: "header",
        items: [pages.about, pages.blog, pages.contact],
      }),
      "create",
      201,
    );
    const id = made.menu.id as number;
    const item = made.items[0].id as number;
    const unchanged = async (total: number, titles: string[]) => {
      assert.equal((await revisions(s, id)).total, total);
      assert.deepEqual(ok(await s.api("GET", "/trash"), "trash").items, []);
      assert.deepEqual(await onPage(s), titles);
    };
    /** The dry run's answer is the real delete's, but for the marks and the rebake report. */
    const same = (dry: any, real: any) => {
      assert.deepEqual([dry.dry_run, dry.applied, dry.rebaked.frames, real.dry_run], [true, false, [], undefined]);
      const { dry_run: _d, applied: _a, rebaked: _r, ...dryRest } = dry;
      const { rebaked: _x, ...realRest } = real;
      assert.deepEqual(dryRest, realRest);
    };

    const dryItem = ok(await s.api("DELETE", `/menus/${id}/items/${item}?dry_run=true`), "dry item");
    await unchanged(1, ["About", "Blog", "Contact"]);
    same(dryItem, ok(await s.api("DELETE", `/menus/${id}/items/${item}`), "item"));
    await unchanged(2, ["Blog", "Contact"]);

    const dryMenu = ok(await s.api("DELETE", `/menus/${id}?dry_run=1`), "dry menu");
    assert.deepEqual([dryMenu.removed_items, dryMenu.freed_locations.map((l: any) => l.location)], [2, ["header"]]);
    const dryPlace = ok(await s.api("DELETE", `/menus/${id}/location?location=header&dry_run=1`), "dry location");
    assert.deepEqual(dryPlace.assigned, [], "the assignments as the delete would leave them");
    await unchanged(2, ["Blog", "Contact"]);
    same(dryPlace, ok(await s.api("DELETE", `/menus/${id}/location?location=header`), "location"));
    await unchanged(3, []);
    const dryAgain = ok(await s.api("DELETE", `/menus/${id}?dry_run=1`), "dry menu again");
    same(dryAgain, ok(await s.api("DELETE", `/menus/${id}`), "menu"));
    assert.equal(ok(await s.api("GET", "/trash"), "trash").items.length, 1);
  });

  it("another site's menu is not found (404) through the history calls, and its trash is its own", async () => {
    const { site: s, pages } = await site();
    const { site: other } = await site();
    const id = ok(await s.api("POST", "/menus", { name: "Main", items: [pages.about] }), "create", 201).menu.id;
    assert.equal((await other.api("GET", `/menus/${id}/revisions`)).status, 404);
    assert.equal((await other.api("POST", `/menus/${id}/revisions/1/restore`)).status, 404);
    ok(await s.api("DELETE", `/menus/${id}`), "delete");
    assert.deepEqual(ok(await other.api("GET", "/trash"), "trash").items, []);
    const refused = await other.api("POST", `/trash/menus/${id}/restore`);
    assert.equal(refused.status, 404, refused.text);
    assert.equal(refused.body.error, "trash_item_not_found");
  });
});

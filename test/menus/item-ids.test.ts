// Stable item ids on a whole-tree write (PUT /menus/{ref}/items): an item the body names by an
// `id` this menu holds keeps it wherever it moves; other items get new ids; the same id twice is
// refused. Checked through the API, the menu source and the public page that prints the menu.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../support/app.ts";
import { assign, frame, page, visit } from "../support/site.ts";
import { failItemInserts, M, makeMenu, menuSource, recordChanges, shape } from "./helpers.ts";

const LAYOUT = `<!DOCTYPE html><html><body><nav><!-- svc/menu {"location": "header"} /--></nav></body></html>`;

async function menu(t: TestApp, ref: string): Promise<any> {
  const r = await t.call("GET", `${M}/${ref}`);
  assert.equal(r.status, 200, r.text);
  return r.body;
}

async function put(t: TestApp, ref: string, items: unknown): Promise<any> {
  const r = await t.call("PUT", `${M}/${ref}/items`, { body: { items } });
  assert.equal(r.status, 200, r.text);
  return r.body;
}

/** Ids of a flat item list by title. */
function idsByTitle(items: any[]): Record<string, number> {
  return Object.fromEntries(items.map((item) => [item.title, item.id]));
}

/** The printed menu of a public page as titles, nested lists in brackets: `A[B, C], D`. */
function printedMenu(html: string): string {
  const block = /<!-- op\/menu [^>]*-->([\s\S]*?)<!-- \/op\/menu -->/.exec(html)?.[1] ?? "";
  return block
    .replace(/<a [^>]*>([^<]*)<\/a>/g, "$1")
    .replace(/<li[^>]*>/g, "")
    .replace(/<\/li>/g, ", ")
    .replace(/<ul[^>]*>/g, "[")
    .replace(/, <\/ul>/g, "]")
    .replace(/^\[(.*)\]$/, "$1");
}

describe("stable item ids on PUT /menus/{ref}/items", () => {
  let t: TestApp;
  let about: any;
  before(async () => {
    t = await startTestApp();
    about = await page(t, { title: "About", slug: "about" });
    const home = await page(t, { title: "Home" });
    await frame(t, "layout", LAYOUT);
    await assign(t, "layout", home.id);
    await makeMenu(t, { name: "Main", location: "header" });
    await makeMenu(t, {
      name: "Other",
      items: [
        { url: "/x", title: "X" },
        { url: "/y", title: "Y", children: [{ url: "/z", title: "Z" }] },
      ],
    });
  });
  after(() => t.close());

  it("an item named by an id of this menu keeps it when it moves to another parent, another position and another level, and when its fields change", async () => {
    const first = await put(t, "main", [
      {
        url: "/a",
        title: "A",
        children: [
          { url: "/a1", title: "A1" },
          { page: about.id, title: "A2" },
        ],
      },
      { url: "/b", title: "B" },
      { url: "/c", title: "C" },
    ]);
    const old = idsByTitle(first.items);
    const fetched = (await menu(t, "main")).items;
    assert.deepEqual(idsByTitle(fetched), old);

    // The client edits the tree it fetched: A goes (its children stay, elsewhere), A2 moves under
    // B, C moves first and is renamed, A1 moves to the top, and a new item joins under C.
    const answer = await put(t, "main", [
      { id: old.C, url: "/c", title: "C renamed", children: [{ url: "/new", title: "New" }] },
      {
        id: old.B,
        url: "/b",
        title: "B",
        order: 9,
        at: "7",
        type: "custom",
        valid: true,
        children: [{ id: old.A2, page: about.id, title: "A2" }],
      },
      { id: String(old.A1), url: "/a1", title: "A1" },
    ]);
    assert.deepEqual(answer.warnings, []);
    const now = idsByTitle(answer.items);
    assert.equal(now["C renamed"], old.C);
    assert.equal(now.B, old.B);
    assert.equal(now.A2, old.A2);
    assert.equal(now.A1, old.A1, "an id given as a string of digits is the same id");
    assert.ok(!Object.values(old).includes(now.New), "an item without id gets a new id");
    assert.deepEqual(
      answer.items.map((i: any) => [i.title, i.at, i.parent, i.order]),
      [
        ["C renamed", "0", 0, 1],
        ["New", "0.0", old.C, 1],
        ["B", "1", 0, 2],
        ["A2", "1.0", old.B, 1],
        ["A1", "2", 0, 3],
      ],
    );
    assert.equal(answer.total, 5);

    const stored = await menu(t, "main");
    assert.deepEqual(
      stored.items.map((i: any) => [i.id, i.title, i.parent, i.order, i.at]),
      [
        [old.C, "C renamed", 0, 1, "0"],
        [now.New, "New", old.C, 1, "0.0"],
        [old.B, "B", 0, 2, "1"],
        [old.A2, "A2", old.B, 1, "1.0"],
        [old.A1, "A1", 0, 3, "2"],
      ],
    );
    assert.equal(stored.menu.count, 5, "the item left out (A) is deleted, nothing else is left behind");
    const single = await t.call("GET", `${M}/main`);
    assert.ok(!single.body.items.some((i: any) => i.id === old.A));
    const gone = await t.call("PATCH", `${M}/main/items/${old.A}`, { body: { title: "again" } });
    assert.equal(gone.status, 404, "the removed item's id is no item any more");
  });

  it("items without an id, and with an id this menu does not hold (a tree copied from another menu), get new ids; the other menu keeps its items", async () => {
    const other = await menu(t, "other");
    const otherIds = other.items.map((i: any) => i.id);
    const main = (await menu(t, "main")).items.map((i: any) => i.id);
    const copied = other.items
      .filter((i: any) => i.parent === 0)
      .map((i: any) => ({
        id: i.id,
        url: i.title === "X" ? "/x" : "/y",
        title: i.title,
        children: other.items
          .filter((c: any) => c.parent === i.id)
          .map((c: any) => ({ id: c.id, url: "/z", title: c.title })),
      }));
    const answer = await put(t, "main", [
      ...copied,
      { url: "/plain", title: "Plain" },
      { id: "not-an-id", url: "/odd", title: "Odd" },
    ]);
    assert.equal(answer.items.length, 5);
    for (const item of answer.items) {
      assert.ok(!otherIds.includes(item.id), `${item.title}: a new id, not the other menu's ${item.id}`);
      assert.ok(!main.includes(item.id), `${item.title}: a new id, not one this menu held before`);
    }
    assert.deepEqual(
      answer.items.map((i: any) => [i.title, i.at]),
      [
        ["X", "0"],
        ["Y", "1"],
        ["Z", "1.0"],
        ["Plain", "2"],
        ["Odd", "3"],
      ],
    );
    const renewed = answer.warnings.find((w: any) => w.code === "item_ids_not_in_menu");
    assert.deepEqual(renewed?.items, [
      { at: "0", id: otherIds[0] },
      { at: "1", id: otherIds[1] },
      { at: "1.0", id: otherIds[2] },
    ]);
    assert.deepEqual(answer.warnings.find((w: any) => w.code === "item_id_ignored")?.at, ["3"]);

    const after = await menu(t, "other");
    assert.deepEqual(after.items, other.items, "the other menu's items are untouched");
  });

  it("the same id twice in one body is 400 bad_items naming the id at each later coordinate; nothing is written or announced", async () => {
    const before = await menu(t, "main");
    const [first, second] = before.items;
    const spy = recordChanges(t);
    try {
      const r = await t.call("PUT", `${M}/main/items`, {
        body: {
          items: [
            {
              id: first.id,
              url: "/one",
              children: [
                { id: second.id, url: "/two" },
                { id: String(first.id), url: "/again" },
              ],
            },
            { id: second.id, url: "/three" },
            { url: "/fine" },
          ],
        },
      });
      assert.equal(r.status, 400, r.text);
      assert.equal(r.body.error, "bad_items");
      assert.match(r.body.message, /more than once/);
      assert.deepEqual(
        r.body.errors.map((e: any) => [e.at, e.field, e.id, e.first_at]),
        [
          ["0.1", "id", first.id, "0"],
          ["1", "id", second.id, "0.0"],
        ],
      );
      assert.ok(
        r.body.errors.every((e: any) => e.message.includes(String(e.id))),
        "each error names the id",
      );
      assert.equal(r.body.total_errors, 2);

      const foreign = await t.call("PUT", `${M}/main/items`, {
        body: {
          items: [
            { id: 999999, url: "/p" },
            { id: 999999, url: "/q" },
          ],
        },
      });
      assert.equal(foreign.status, 400, "a duplicate is refused even when the menu does not hold the id");
      assert.deepEqual(
        foreign.body.errors.map((e: any) => [e.at, e.id]),
        [["1", 999999]],
      );

      const mixed = await t.call("PUT", `${M}/main/items`, {
        body: {
          items: [
            { id: 7, url: "/p" },
            { id: 7, page: 1, url: "/both" },
          ],
        },
      });
      assert.deepEqual(
        mixed.body.errors.map((e: any) => [e.at, e.field]),
        [
          ["1", "page"],
          ["1", "id"],
        ],
        "listed with the other field errors",
      );
      assert.equal(spy.changes.length, 0, "nothing announced");
    } finally {
      spy.restore();
    }
    assert.deepEqual(await menu(t, "main"), before, "the stored tree is the old one");
  });

  it("a tree that keeps ids is one transaction: a failure after kept items moved leaves the old tree and its ids whole", async () => {
    const first = await put(t, "main", [
      { url: "/k1", title: "K1", children: [{ url: "/k2", title: "K2" }] },
      { url: "/k3", title: "K3" },
    ]);
    const old = idsByTitle(first.items);
    const before = await menu(t, "main");
    const restore = await failItemInserts(t);
    try {
      const r = await t.call("PUT", `${M}/main/items`, {
        body: {
          items: [
            { id: old.K3, url: "/k3", title: "K3 moved", children: [{ id: old.K2, url: "/k2", title: "K2" }] },
            { url: "/boom" },
          ],
        },
      });
      assert.equal(r.status, 500);
    } finally {
      await restore();
    }
    assert.deepEqual(
      await menu(t, "main"),
      before,
      "the updates of kept items were rolled back with the failed insert",
    );
  });

  it("after a PUT that moves kept items, the menu source and the public page print the new tree", async () => {
    const first = await put(t, "main", [
      { url: "/a", title: "A", children: [{ url: "/a1", title: "A1" }] },
      { url: "/b", title: "B" },
    ]);
    const old = idsByTitle(first.items);
    await visit(t, "/home/");
    const cached = await visit(t, "/home/");
    assert.equal(printedMenu(cached.body), "A[A1], B");

    const moved = await put(t, "~header", [
      { id: old.B, url: "/b", title: "B", children: [{ id: old.A, url: "/a", title: "A" }] },
      { id: old.A1, url: "/a1", title: "A1" },
    ]);
    assert.equal(moved.rebaked.status, "ok");
    const source = await menuSource(t, "header");
    assert.equal(source.meta.menu_id, (await menu(t, "main")).menu.id);
    assert.equal(shape(source.items), "B[A], A1");
    assert.deepEqual([source.items[0].id, source.items[0].children[0].id, source.items[1].id], [old.B, old.A, old.A1]);
    assert.deepEqual(source.items[0].children[0].parent, old.B);

    const shown = await visit(t, "/home/");
    assert.equal(shown.status, 200);
    assert.equal(printedMenu(shown.body), "B[A], A1", "the next request prints the moved items");
  });
});

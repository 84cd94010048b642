// Menu items through HTTP: the tree (PUT), one item (POST, PATCH, DELETE), reorder, item fields,
// validity computed from the pages at read time, limits and whole-tree transactions.
import { after, afterEach, before, beforeEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../support/app.ts";
import { page, S } from "../support/site.ts";
import { failItemInserts, M, makeMenu, menuSource, shape } from "./helpers.ts";
import { menusReferencingPage } from "../../src/menus/index.ts";

const ORIGIN = "http://localhost:8080";

/** A tree `levels` deep: one item per level. */
function chain(levels: number): unknown[] {
  let node: any = { url: `/level-${levels}` };
  for (let level = levels - 1; level >= 1; level--) node = { url: `/level-${level}`, children: [node] };
  return [node];
}

async function items(t: TestApp, ref: string): Promise<any[]> {
  const r = await t.call("GET", `${M}/${ref}`);
  assert.equal(r.status, 200, r.text);
  return r.body.items;
}

describe("PUT /menus/{ref}/items", () => {
  let t: TestApp;
  let about: any;
  let team: any;
  before(async () => {
    t = await startTestApp();
    const company = await page(t, { title: "Company" });
    team = await page(t, { title: "Our Team", slug: "team", parent: company.id });
    about = await page(t, { title: "About us", slug: "about" });
    await makeMenu(t, { name: "Main", location: "header" });
  });
  after(() => t.close());

  it("replaces the whole tree: items with at, id, parent, order, type, page, url, title, valid", async () => {
    const r = await t.call("PUT", `${M}/main/items`, {
      body: {
        items: [
          about.id,
          {
            url: "/contact",
            title: "Contact",
            target: "_blank",
            classes: "cta",
            children: ["/company/team", { page: "about", title: "Who we are" }],
          },
          "team",
        ],
      },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.total, 5);
    assert.deepEqual(r.body.invalid, []);
    assert.equal(r.body.read_items_at, "/data/menu.header");
    assert.deepEqual(r.body.menu, { id: r.body.menu.id, name: "Main", slug: "main" });
    const [a, contact, teamChild, who, teamTop] = r.body.items;
    assert.deepEqual(a, {
      id: a.id,
      at: "0",
      title: "About us",
      type: "post_type",
      page: about.id,
      url: `${ORIGIN}/about/`,
      parent: 0,
      order: 1,
      valid: true,
      target: "",
      classes: "",
    });
    assert.deepEqual(contact, {
      id: contact.id,
      at: "1",
      title: "Contact",
      type: "custom",
      page: null,
      url: `${ORIGIN}/contact`,
      parent: 0,
      order: 2,
      valid: true,
      target: "_blank",
      classes: "cta",
    });
    assert.deepEqual(
      [teamChild.at, teamChild.parent, teamChild.order, teamChild.page, teamChild.url, teamChild.title],
      ["1.0", contact.id, 1, team.id, `${ORIGIN}/company/team/`, "Our Team"],
    );
    assert.deepEqual([who.at, who.parent, who.order, who.title], ["1.1", contact.id, 2, "Who we are"]);
    assert.deepEqual([teamTop.at, teamTop.parent, teamTop.order, teamTop.page], ["2", 0, 3, team.id]);
    assert.equal(r.body.rebaked.status, "ok");

    const again = await t.call("PUT", `${M}/~header/items`, {
      body: { items: [{ url: "https://example.org/x", title: "Elsewhere" }] },
    });
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(
      (await items(t, "main")).map((i) => [i.title, i.url]),
      [["Elsewhere", "https://example.org/x"]],
      "the old tree is gone",
    );
    const empty = await t.call("PUT", `${M}/main/items`, { body: { items: [] } });
    assert.equal(empty.body.total, 0);
  });

  it("completes paths with the site address and keeps full addresses, anchors and mailto as written", async () => {
    const r = await t.call("PUT", `${M}/main/items`, {
      body: {
        items: [
          { url: "/a/b?x=1" },
          { url: "contact" },
          { url: "#top" },
          { url: "mailto:hi@example.org" },
          { url: "//cdn.example.org/x" },
          { url: "HTTPS://Example.org" },
          { url: "example.org/page" },
        ],
      },
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      r.body.items.map((i: any) => i.url),
      [
        `${ORIGIN}/a/b?x=1`,
        `${ORIGIN}/contact`,
        "#top",
        "mailto:hi@example.org",
        "//cdn.example.org/x",
        "HTTPS://Example.org",
        `${ORIGIN}/example.org/page`,
      ],
    );
    assert.equal(r.body.items[1].title, "contact", "a link without a title is titled by its address as written");
    assert.ok(r.body.warnings.some((w: any) => w.code === "url_read_as_path" && w.at === "6"));
  });

  it("a page item's title and address follow the page; an explicit title stays", async () => {
    const p = await page(t, { title: "Pricing" });
    await t.call("PUT", `${M}/main/items`, { body: { items: [p.id, { page: p.id, title: "Plans" }] } });
    const renamed = await t.call("PATCH", `${S}/pages/${p.id}`, { body: { title: "Prices", slug: "prices" } });
    assert.equal(renamed.status, 200, renamed.text);
    assert.deepEqual(
      (await items(t, "main")).map((i) => [i.title, i.url]),
      [
        ["Prices", `${ORIGIN}/prices/`],
        ["Plans", `${ORIGIN}/prices/`],
      ],
    );
  });

  it("valid follows the page: false for a draft, a trashed or a deleted page, true again when republished", async () => {
    const p = await page(t, { title: "Fickle" });
    const parent = await page(t, { title: "Parent" });
    const child = await page(t, { title: "Child", parent: parent.id });
    await t.call("PUT", `${M}/main/items`, { body: { items: [p.id, child.id, { url: "/x" }] } });
    const validity = async () =>
      (await items(t, "main")).map((i) => `${i.valid}${i.invalid_reason ? `:${i.invalid_reason}` : ""}`);
    assert.deepEqual(await validity(), ["true", "true", "true"]);

    await t.call("PATCH", `${S}/pages/${p.id}`, { body: { status: "draft" } });
    await t.call("PATCH", `${S}/pages/${parent.id}`, { body: { status: "draft" } });
    assert.deepEqual(await validity(), ["false:draft", "false:parent_unpublished", "true"]);
    const source = await menuSource(t, "header");
    assert.equal(source.meta.invalid_items, 2);
    assert.deepEqual(
      source.items.map((i: any) => i.valid),
      [false, false, true],
      "invalid items are included in the source",
    );

    await t.call("DELETE", `${S}/pages/${p.id}`);
    assert.deepEqual((await validity())[0], "false:trash");
    await t.call("PATCH", `${S}/pages/${parent.id}`, { body: { status: "publish" } });
    assert.deepEqual((await validity())[1], "true");
    const gone = await t.call("DELETE", `${S}/pages/${p.id}`, { query: { force: "true" } });
    assert.equal(gone.status, 200, gone.text);
    const [deleted] = await items(t, "main");
    assert.deepEqual([deleted.valid, deleted.invalid_reason, deleted.page, deleted.url], [false, "deleted", p.id, ""]);
  });

  it("allow_invalid leaves items that point to unpublished pages out, lists them in invalid, and moves their children up", async () => {
    const draft = await page(t, { title: "Draft section", status: "draft" });
    const live = await page(t, { title: "Live page" });
    const r = await t.call("PUT", `${M}/main/items`, {
      body: {
        allow_invalid: true,
        items: [{ url: "/first" }, { page: draft.id, children: [live.id, { url: "/under" }] }, { url: "/last" }],
      },
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.invalid, [
      { at: "1", page: draft.id, title: "Draft section", status: "draft", reason: "draft" },
    ]);
    assert.deepEqual(
      r.body.items.map((i: any) => [i.at, i.title, i.parent, i.order]),
      [
        ["0", "/first", 0, 1],
        ["1.0", "Live page", 0, 2],
        ["1.1", "/under", 0, 3],
        ["2", "/last", 0, 4],
      ],
      "at stays the submitted coordinate; parent and order are where the item is stored",
    );
    assert.ok(r.body.warnings.some((w: any) => w.code === "children_moved_up"));
    assert.equal(r.body.total, 4);
  });

  it("a refused tree leaves the old tree whole", async () => {
    await t.call("PUT", `${M}/main/items`, { body: { items: [{ url: "/keep", children: [{ url: "/keep-child" }] }] } });
    const before = await items(t, "main");
    const draft = await page(t, { title: "Draft again", status: "draft" });
    for (const [items_, code] of [
      [[{ url: "/new" }, { page: 1, url: "/both" }], "bad_items"],
      [[{ url: "/new" }, "no-such-page"], "menu_items_unresolved"],
      [[{ url: "/new" }, draft.id], "menu_items_invalid"],
      [chain(9), "tree_too_deep"],
      [Array.from({ length: 2001 }, (_, i) => ({ url: `/${i}` })), "too_many_items"],
      [{ url: "/not-an-array" }, "bad_items"],
    ] as const) {
      const r = await t.call("PUT", `${M}/main/items`, { body: { items: items_ } });
      assert.ok(r.status === 400 || r.status === 409, `${code}: ${r.status}`);
      assert.equal(r.body.error, code);
      assert.deepEqual(await items(t, "main"), before, `${code} changed nothing`);
    }
    const missing = await t.call("PUT", `${M}/main/items`, { body: {} });
    assert.equal(missing.body.error, "bad_items", "items is required");
  });

  it("a tree write is one transaction: a failure halfway through leaves the old tree whole", async () => {
    await t.call("PUT", `${M}/main/items`, { body: { items: [{ url: "/old-1" }, { url: "/old-2" }] } });
    const before = await items(t, "main");
    const restore = await failItemInserts(t);
    try {
      const r = await t.call("PUT", `${M}/main/items`, {
        body: { items: [{ url: "/new-1", children: [{ url: "/new-2" }] }, { url: "/boom" }] },
      });
      assert.equal(r.status, 500);
      assert.equal(r.body.code, "internal_error");
    } finally {
      await restore();
    }
    assert.deepEqual(await items(t, "main"), before, "the delete and the first inserts were rolled back");
  });

  it("limits: 2,000 items and 8 levels are accepted; one more of either is a clear 400", async () => {
    const many = Array.from({ length: 2000 }, (_, i) => ({ url: `/p${i}` }));
    const ok = await t.call("PUT", `${M}/main/items`, { body: { items: many } });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.total, 2000);
    const over = await t.call("POST", `${M}/main/items`, { body: { url: "/one-more" } });
    assert.equal(over.status, 400);
    assert.equal(over.body.error, "too_many_items");
    assert.equal(over.body.max_items, 2000);

    const deep = await t.call("PUT", `${M}/main/items`, { body: { items: chain(8) } });
    assert.equal(deep.status, 200, deep.text);
    assert.equal(deep.body.items[7].at, "0.0.0.0.0.0.0.0");
    const tooDeep = await t.call("PUT", `${M}/main/items`, { body: { items: chain(9) } });
    assert.equal(tooDeep.status, 400);
    assert.deepEqual(
      [tooDeep.body.error, tooDeep.body.max_depth, tooDeep.body.at],
      ["tree_too_deep", 8, "0.0.0.0.0.0.0.0.0"],
    );
    const deepest = deep.body.items[7].id;
    const under = await t.call("POST", `${M}/main/items`, { body: { url: "/ninth", parent: deepest } });
    assert.equal(under.status, 400);
    assert.equal(under.body.error, "tree_too_deep");
    const many2 = await t.call("PUT", `${M}/main/items`, {
      body: { items: [{ url: "/a", children: [{ url: "/b" }] }, ...chain(7)] },
    });
    const [branch] = many2.body.items;
    const moveDeep = await t.call("PATCH", `${M}/main/items/${branch.id}`, {
      body: { parent: many2.body.items.at(-1).id },
    });
    assert.equal(moveDeep.status, 400, "moving a two-level branch under the seventh level makes nine");
    assert.equal(moveDeep.body.error, "tree_too_deep");
  });
});

describe("POST /menus/{ref}/items", () => {
  let t: TestApp;
  let p: any;
  before(async () => {
    t = await startTestApp();
    p = await page(t, { title: "Services" });
    await makeMenu(t, {
      name: "Nav",
      location: "footer_1",
      items: [{ url: "/one" }, { url: "/two", children: [{ url: "/two-a" }] }],
    });
  });
  after(() => t.close());

  it("adds one item at the end of its level, as {item} or as the item itself, with a bare page reference", async () => {
    const top = await t.call("POST", `${M}/nav/items`, {
      body: { item: { page: "services", title: "Our services", classes: "x y" } },
    });
    assert.equal(top.status, 201, top.text);
    assert.deepEqual(top.body.menu, { id: top.body.menu.id, name: "Nav" });
    assert.deepEqual(
      { ...top.body.item, id: 0 },
      {
        id: 0,
        at: "2",
        title: "Our services",
        type: "post_type",
        page: p.id,
        url: `${ORIGIN}/services/`,
        parent: 0,
        order: 3,
        valid: true,
        target: "",
        classes: "x y",
      },
    );
    assert.equal(top.body.total, 4);
    assert.equal(top.body.rebaked.status, "ok");

    const two = (await items(t, "nav")).find((i) => i.title === "/two");
    const child = await t.call("POST", `${M}/~footer_1/items`, { body: { url: "/two-b", parent: two.id } });
    assert.equal(child.status, 201, child.text);
    assert.deepEqual([child.body.item.at, child.body.item.parent, child.body.item.order], ["1.1", two.id, 2]);
    const bare = await t.call("POST", `${M}/nav/items`, { body: { item: p.id, parent: two.id } });
    assert.equal(bare.status, 201, bare.text);
    assert.deepEqual([bare.body.item.at, bare.body.item.page], ["1.2", p.id]);
    assert.equal(shape((await menuSource(t, "footer_1")).items), "/one, /two[/two-a, /two-b, Services], Our services");
  });

  it("concurrent additions to one level each get their own place", async () => {
    await makeMenu(t, { name: "Busy" });
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => t.call("POST", `${M}/busy/items`, { body: { url: `/n${i}` } })),
    );
    assert.deepEqual(
      answers.map((a) => a.status),
      Array(8).fill(201),
    );
    assert.deepEqual(
      (await items(t, "busy")).map((i) => i.order),
      [1, 2, 3, 4, 5, 6, 7, 8],
    );
  });

  it("refusals: item_target_required, bad_items, item_not_found for the parent, page_not_found, menu_items_invalid", async () => {
    const draft = await page(t, { title: "Hidden", status: "draft" });
    for (const [body, status, code] of [
      [{}, 400, "item_target_required"],
      [{ item: { title: "nothing" } }, 400, "item_target_required"],
      [{ item: "" }, 400, "item_target_required"],
      [{ page: p.id, url: "/x" }, 400, "bad_items"],
      [{ url: "/x", parent: 999999 }, 404, "item_not_found"],
      [{ page: "no-such" }, 404, "page_not_found"],
      [{ item: draft.id }, 409, "menu_items_invalid"],
    ] as const) {
      const r = await t.call("POST", `${M}/nav/items`, { body });
      assert.equal(r.status, status, `${JSON.stringify(body)}: ${r.text}`);
      assert.equal(r.body.error, code, JSON.stringify(body));
    }
    const skipped = await t.call("POST", `${M}/nav/items`, { body: { item: draft.id, allow_invalid: true } });
    assert.equal(skipped.status, 200);
    assert.equal(skipped.body.item, null);
    assert.equal(skipped.body.invalid[0].page, draft.id);
  });
});

describe("PATCH /menus/{ref}/items/{id}", () => {
  let t: TestApp;
  let p: any;
  let ids: Record<string, number>;
  before(async () => {
    t = await startTestApp();
    p = await page(t, { title: "Docs" });
    const created = await makeMenu(t, {
      name: "Nav",
      items: [
        { url: "/a", title: "A", children: [{ url: "/a1", title: "A1", children: [{ url: "/a1x", title: "A1x" }] }] },
        { url: "/b", title: "B" },
      ],
    });
    ids = Object.fromEntries(created.items.map((i: any) => [i.title, i.id]));
  });
  after(() => t.close());

  it("reports changed fields as {from, to}; page makes a page item, url a link", async () => {
    const title = await t.call("PATCH", `${M}/nav/items/${ids.B}`, { body: { title: "Bee", target: "_blank" } });
    assert.equal(title.status, 200, title.text);
    assert.deepEqual(title.body.item, {
      id: ids.B,
      title: { from: "B", to: "Bee" },
      target: { from: "", to: "_blank" },
    });
    assert.deepEqual(title.body.menu, { id: title.body.menu.id, name: "Nav" });
    assert.equal(title.body.rebaked.status, "ok");

    const toPage = await t.call("PATCH", `${M}/nav/items/${ids.B}`, { body: { page: "docs", title: null } });
    assert.deepEqual(toPage.body.item, {
      id: ids.B,
      title: { from: "Bee", to: "Docs" },
      type: { from: "custom", to: "post_type" },
      page: { from: null, to: p.id },
      url: { from: `${ORIGIN}/b`, to: `${ORIGIN}/docs/` },
    });
    const toLink = await t.call("PATCH", `${M}/nav/items/${ids.B}`, { body: { url: "/b2" } });
    assert.deepEqual(toLink.body.item, {
      id: ids.B,
      title: { from: "Docs", to: "/b2" },
      type: { from: "post_type", to: "custom" },
      page: { from: p.id, to: null },
      url: { from: `${ORIGIN}/docs/`, to: `${ORIGIN}/b2` },
    });
    const same = await t.call("PATCH", `${M}/nav/items/${ids.B}`, { body: { url: "/b2" } });
    assert.deepEqual(same.body.item, { id: ids.B });
    assert.ok(same.body.warnings.some((w: any) => w.code === "nothing_changed"));
  });

  it("parent moves the item (with its branch) to the end of the new level", async () => {
    const r = await t.call("PATCH", `${M}/nav/items/${ids.A1}`, { body: { parent: ids.B } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.item.parent, { from: ids.A, to: ids.B });
    assert.deepEqual(r.body.item.at, { from: "0.0", to: "1.0" });
    const tree = await t.call("GET", `${M}/nav`);
    assert.deepEqual(
      tree.body.items.map((i: any) => [i.title, i.at]),
      [
        ["A", "0"],
        ["/b2", "1"],
        ["A1", "1.0"],
        ["A1x", "1.0.0"],
      ],
    );
    const back = await t.call("PATCH", `${M}/nav/items/${ids.A1}`, { body: { parent: 0 } });
    assert.deepEqual(back.body.item.parent, { from: ids.B, to: 0 });
    assert.deepEqual(back.body.item.order, { from: 1, to: 3 });
  });

  it("409 bad_parent for the item itself or one of its descendants; 404 item_not_found; page_not_found; menu_items_invalid; bad_items", async () => {
    const draft = await page(t, { title: "Later", status: "draft" });
    for (const [id, body, status, code] of [
      [ids.A1, { parent: ids.A1 }, 409, "bad_parent"],
      [ids.A1, { parent: ids.A1x }, 409, "bad_parent"],
      [ids.A1, { parent: 999999 }, 404, "item_not_found"],
      [999999, { title: "x" }, 404, "item_not_found"],
      ["abc", { title: "x" }, 404, "item_not_found"],
      [ids.A1, { page: "missing-page" }, 404, "page_not_found"],
      [ids.A1, { page: draft.id }, 409, "menu_items_invalid"],
      [ids.A1, { page: p.id, url: "/x" }, 400, "bad_items"],
      [ids.A1, { url: "" }, 400, "bad_items"],
      [ids.A1, {}, 400, "nothing_to_update"],
    ] as const) {
      const r = await t.call("PATCH", `${M}/nav/items/${id}`, { body });
      assert.equal(r.status, status, `${JSON.stringify(body)}: ${r.text}`);
      assert.equal(r.body.error, code, JSON.stringify(body));
    }
    const other = await makeMenu(t, { name: "Other", items: [{ url: "/o" }] });
    const foreign = await t.call("PATCH", `${M}/nav/items/${other.items[0].id}`, { body: { title: "x" } });
    assert.equal(foreign.status, 404, "an item of another menu is not found");
  });
});

describe("DELETE /menus/{ref}/items/{id} and POST /menus/{ref}/reorder", () => {
  let t: TestApp;
  let ids: Record<string, number>;
  beforeEach(async () => {
    t = await startTestApp();
    const created = await makeMenu(t, {
      name: "Nav",
      location: "header",
      items: [
        {
          url: "/a",
          title: "A",
          children: [
            { url: "/a1", title: "A1", children: [{ url: "/a1x", title: "A1x" }] },
            { url: "/a2", title: "A2" },
          ],
        },
        { url: "/b", title: "B" },
        { url: "/c", title: "C" },
        { url: "/d", title: "D" },
      ],
    });
    ids = Object.fromEntries(created.items.map((i: any) => [i.title, i.id]));
  });
  afterEach(() => t.close());

  it("DELETE removes the item with its branch and closes the gap", async () => {
    const r = await t.call("DELETE", `${M}/nav/items/${ids.A1}`);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.removed, [ids.A1, ids.A1x]);
    assert.equal(r.body.total, 5);
    assert.equal(r.body.rebaked.status, "ok");
    const a2 = (await items(t, "nav")).find((i) => i.title === "A2");
    assert.deepEqual([a2.at, a2.order], ["0.0", 1]);
    const again = await t.call("DELETE", `${M}/nav/items/${ids.A1}`);
    assert.equal(again.status, 404);
    assert.equal(again.body.error, "item_not_found");
  });

  it("reorder puts the named ids first and appends the others in their order", async () => {
    const r = await t.call("POST", `${M}/nav/reorder`, { body: { order: [ids.D, ids.B] } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.order, [ids.D, ids.B]);
    assert.deepEqual(r.body.appended, [ids.A, ids.C]);
    assert.equal(r.body.parent, 0);
    assert.equal(r.body.rebaked.status, "ok");
    assert.equal(shape((await menuSource(t, "header")).items), "D, B, A[A1[A1x], A2], C");
    const level = await t.call("POST", `${M}/~header/reorder`, { body: { order: [ids.A2, ids.A1], parent: ids.A } });
    assert.deepEqual([level.body.parent, level.body.appended], [ids.A, []]);
    assert.equal(shape((await menuSource(t, "header")).items), "D, B, A[A2, A1[A1x]], C");
  });

  it("reorder refusals: bad_reorder (not a list, duplicates, another level), item_not_found", async () => {
    for (const [body, status, code] of [
      [{}, 400, "bad_reorder"],
      [{ order: [] }, 400, "bad_reorder"],
      [{ order: "1,2" }, 400, "bad_reorder"],
      [{ order: [ids.B, ids.B] }, 400, "bad_reorder"],
      [{ order: [ids.A1] }, 400, "bad_reorder"],
      [{ order: ["x"] }, 400, "bad_reorder"],
      [{ order: [999999] }, 404, "item_not_found"],
      [{ order: [ids.B], parent: 999999 }, 404, "item_not_found"],
    ] as const) {
      const r = await t.call("POST", `${M}/nav/reorder`, { body });
      assert.equal(r.status, status, `${JSON.stringify(body)}: ${r.text}`);
      assert.equal(r.body.error, code, JSON.stringify(body));
    }
    assert.equal(shape((await menuSource(t, "header")).items), "A[A1[A1x], A2], B, C, D", "nothing moved");
  });
});

describe("menusReferencingPage", () => {
  it("answers the ids of the menus with an item pointing to the page", async () => {
    const t = await startTestApp();
    try {
      const p = await page(t, { title: "Shared" });
      const q = await page(t, { title: "Lonely" });
      const a = await makeMenu(t, { name: "A", items: [p.id, { url: "/x", children: [p.id] }] });
      const b = await makeMenu(t, { name: "B", items: [q.id] });
      const c = await makeMenu(t, { name: "C", items: [{ url: "/y", children: ["shared"] }] });
      assert.deepEqual(await menusReferencingPage(t.store.db, 1, p.id), [a.menu.id, c.menu.id]);
      assert.deepEqual(await menusReferencingPage(t.store.db, 1, q.id), [b.menu.id]);
      assert.deepEqual(await menusReferencingPage(t.store.db, 2, p.id), []);
    } finally {
      await t.close();
    }
  });
});

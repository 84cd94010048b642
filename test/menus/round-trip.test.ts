// A tree sent back as fetched (PUT /menus/{ref}/items with the items of GET /menus/{ref}, of
// GET /data/menu.<location> or of a previous PUT answer) changes nothing: the same ids, the same
// stored rows (a title the service filled in stays unwritten, a link stays as written), the same
// answers and the same public menu; moved items keep what they had. A page item whose url is not
// its page's address is still refused.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../support/app.ts";
import { assign, frame, page, S, visit } from "../support/site.ts";
import { M, makeMenu, menuSource, recordChanges, shape } from "./helpers.ts";

const ORIGIN = "http://localhost:8080";
const LAYOUT = `<!DOCTYPE html><html><body><nav><!-- svc/menu {"location": "header"} /--></nav></body></html>`;

async function menu(t: TestApp, ref = "main"): Promise<any> {
  const r = await t.call("GET", `${M}/${ref}`);
  assert.equal(r.status, 200, r.text);
  return r.body;
}

async function put(t: TestApp, items: unknown, ref = "main"): Promise<any> {
  const r = await t.call("PUT", `${M}/${ref}/items`, { body: { items } });
  assert.equal(r.status, 200, r.text);
  return r.body;
}

/** The stored rows of a menu's items, as written (updated_at_gmt included), by id. */
async function rows(t: TestApp, menuId: number): Promise<unknown[]> {
  return t.store.db.selectFrom("menu_items").selectAll().where("menu_id", "=", menuId).orderBy("id").execute();
}

/** The printed menu block of a public page. */
function printed(html: string): string {
  return /<!-- op\/menu [^>]*-->([\s\S]*?)<!-- \/op\/menu -->/.exec(html)?.[1] ?? "";
}

/** An answered item without `at` (answers of a PUT give the submitted coordinate there). */
const placeless = (items: any[]) => items.map(({ at: _at, ...item }) => item);

describe("a fetched tree sent back unchanged (PUT /menus/{ref}/items)", () => {
  let t: TestApp;
  let about: any;
  let team: any;
  let contact: any;
  let menuId: number;
  before(async () => {
    t = await startTestApp();
    about = await page(t, { title: "About", slug: "about" });
    team = await page(t, { title: "Team", slug: "team", parent: about.id });
    contact = await page(t, { title: "Contact", slug: "contact" });
    const home = await page(t, { title: "Home" });
    await frame(t, "layout", LAYOUT);
    await assign(t, "layout", home.id);
    const made = await makeMenu(t, {
      name: "Main",
      location: "header",
      items: [
        {
          page: about.id,
          children: [
            {
              page: team.id,
              title: "Team",
              classes: "a  b",
              children: [{ url: "/jobs" }, { url: "https://example.org/x", title: "Elsewhere", target: "_blank" }],
            },
          ],
        },
        { page: contact.id, title: "Write to us" },
        { url: "/shop", title: "Shop" },
        { url: "#top" },
      ],
    });
    menuId = made.menu.id;
  });
  after(() => t.close());

  it("GET, then PUT the flat items as fetched: no warning, the same ids, answers, stored rows and public menu", async () => {
    await visit(t, "/home/");
    const shownBefore = printed((await visit(t, "/home/")).body);
    const fetched = await menu(t);
    assert.deepEqual(
      fetched.items.map((i: any) => [i.title, i.type, i.url, i.parent === 0]),
      [
        ["About", "post_type", `${ORIGIN}/about/`, true],
        ["Team", "post_type", `${ORIGIN}/about/team/`, false],
        ["/jobs", "custom", `${ORIGIN}/jobs`, false],
        ["Elsewhere", "custom", "https://example.org/x", false],
        ["Write to us", "post_type", `${ORIGIN}/contact/`, true],
        ["Shop", "custom", `${ORIGIN}/shop`, true],
        ["#top", "custom", "#top", true],
      ],
      "page items carry both page and url; untitled items show a title the service filled in",
    );
    const stored = await rows(t, menuId);

    const answer = await put(t, fetched.items);
    assert.deepEqual(answer.warnings, []);
    assert.deepEqual(placeless(answer.items), placeless(fetched.items));
    assert.deepEqual(await menu(t), fetched, "GET after the PUT answers the very same tree, ids included");
    assert.deepEqual(
      await rows(t, menuId),
      stored,
      "no row was rewritten: titles left to the page stay unwritten, paths stay paths",
    );
    assert.equal(printed((await visit(t, "/home/")).body), shownBefore, "the public menu prints the same");

    const again = await put(t, answer.items);
    assert.deepEqual(again.warnings, [], "the items of a PUT answer go back as well");
    assert.deepEqual(await rows(t, menuId), stored);
  });

  it("the nested tree of GET /data/menu.<location> goes back through ~location unchanged", async () => {
    const fetched = await menu(t);
    const stored = await rows(t, menuId);
    const source = await menuSource(t, "header");
    assert.equal(shape(source.items), "About[Team[/jobs, Elsewhere]], Write to us, Shop, #top");
    const answer = await put(t, source.items, "~header");
    assert.deepEqual(answer.warnings, [], "parent agreeing with the nesting is silent");
    assert.deepEqual(await menu(t), fetched);
    assert.deepEqual(await rows(t, menuId), stored);
    assert.deepEqual(await menuSource(t, "header"), source);
  });

  it("after the round trip, an untitled page item follows the page's title and address, a titled one keeps its title, and a path follows a new domain", async () => {
    await put(t, (await menu(t)).items);
    const renamed = await t.call("PATCH", `${S}/pages/${about.id}`, { body: { title: "About us", slug: "who" } });
    assert.equal(renamed.status, 200, renamed.text);
    const teamRenamed = await t.call("PATCH", `${S}/pages/${team.id}`, { body: { title: "People" } });
    assert.equal(teamRenamed.status, 200, teamRenamed.text);
    const items = (await menu(t)).items;
    assert.deepEqual(
      items.slice(0, 2).map((i: any) => [i.title, i.url]),
      [
        ["About us", `${ORIGIN}/who/`],
        ["Team", `${ORIGIN}/who/team/`],
      ],
      "the title sent back for About was the page's and stays the page's; Team's own title stays",
    );

    const moved = await t.call("PATCH", "/api/sites/1", { body: { domain: "moved.localhost" } });
    assert.equal(moved.status, 200, moved.text);
    try {
      const after = await menu(t);
      assert.deepEqual(
        after.items.map((i: any) => i.url),
        [
          "http://moved.localhost:8080/who/",
          "http://moved.localhost:8080/who/team/",
          "http://moved.localhost:8080/jobs",
          "https://example.org/x",
          "http://moved.localhost:8080/contact/",
          "http://moved.localhost:8080/shop",
          "#top",
        ],
      );
      assert.equal(after.items[2].title, "/jobs", "an untitled link still shows its url as written");
    } finally {
      const back = await t.call("PATCH", "/api/sites/1", { body: { domain: "localhost" } });
      assert.equal(back.status, 200, back.text);
    }
    await t.call("PATCH", `${S}/pages/${about.id}`, { body: { title: "About", slug: "about" } });
    await t.call("PATCH", `${S}/pages/${team.id}`, { body: { title: "Team" } });
  });

  it("items moved in the fetched flat list (parent and order edited) keep their ids and what they had", async () => {
    const fetched = (await menu(t)).items;
    const before = await rows(t, menuId);
    const byTitle = Object.fromEntries(fetched.map((i: any) => [i.title, i]));
    // Shop goes under Contact, /jobs goes to the top (first), Team's branch goes under Shop.
    const edited = [
      { ...byTitle["/jobs"], parent: 0 },
      byTitle.About,
      byTitle["Write to us"],
      { ...byTitle.Shop, parent: byTitle["Write to us"].id },
      { ...byTitle.Team, parent: byTitle.Shop.id },
      byTitle.Elsewhere,
      byTitle["#top"],
    ];
    const answer = await put(t, edited);
    assert.deepEqual(answer.warnings, []);
    const now = await menu(t);
    assert.deepEqual(
      now.items.map((i: any) => [i.title, i.at, i.id]),
      [
        ["/jobs", "0", byTitle["/jobs"].id],
        ["About", "1", byTitle.About.id],
        ["Write to us", "2", byTitle["Write to us"].id],
        ["Shop", "2.0", byTitle.Shop.id],
        ["Team", "2.0.0", byTitle.Team.id],
        ["Elsewhere", "2.0.0.0", byTitle.Elsewhere.id],
        ["#top", "3", byTitle["#top"].id],
      ],
    );
    const fields = (list: any[]) =>
      list.map((r: any) => [r.id, r.type, r.page_id, r.url, r.title, r.target, r.classes]);
    assert.deepEqual(
      fields(await rows(t, menuId)),
      fields(before),
      "only places changed: pages, links, titles, targets and classes are as stored",
    );
    assert.deepEqual(
      answer.items.map((i: any) => i.at),
      ["0", "1", "2", "3", "4", "5", "6"],
      "at: where each item stood in the body",
    );

    const back = await menu(t);
    await put(t, back.items);
    assert.deepEqual(await menu(t), back, "the moved tree goes back unchanged too");
  });

  it("items moved between levels of the nested tree keep their ids and what they had", async () => {
    const source = (await menuSource(t, "header")).items;
    const before = await rows(t, menuId);
    const [jobs, aboutItem, contactItem, top] = source;
    const shop = contactItem.children[0];
    const teamItem = shop.children[0];
    // Team (with its branch) goes under About; Shop goes last at the top; jobs goes under #top.
    const tree = [
      { ...aboutItem, children: [teamItem] },
      { ...contactItem, children: [] },
      { ...top, children: [jobs] },
      { ...shop, children: [] },
    ];
    const answer = await put(t, tree, "~header");
    assert.deepEqual(
      answer.warnings.map((w: any) => [w.code, w.at]),
      [["parent_ignored", "0.0"]],
      "the nesting decides: a moved item's old parent is ignored, Shop stays at the top",
    );
    const now = await menuSource(t, "header");
    assert.equal(shape(now.items), "About[Team[Elsewhere]], Write to us, #top[/jobs], Shop");
    assert.deepEqual(
      [now.items[0].id, now.items[0].children[0].id, now.items[2].children[0].id, now.items[3].id],
      [aboutItem.id, teamItem.id, jobs.id, shop.id],
    );
    const fields = (list: any[]) =>
      list.map((r: any) => [r.id, r.type, r.page_id, r.url, r.title, r.target, r.classes]);
    assert.deepEqual(fields(await rows(t, menuId)), fields(before));
  });

  it("an item of the home page answers url / and goes back as fetched; its own address is taken too, another is refused", async () => {
    const set = await t.call("PATCH", `${S}/settings`, { body: { home_page: contact.id } });
    assert.equal(set.status, 200, set.text);
    try {
      const fetched = await menu(t);
      const contactItem = fetched.items.find((i: any) => i.page === contact.id);
      assert.equal(contactItem.url, `${ORIGIN}/`, "the home page is linked where it answers");
      const stored = await rows(t, menuId);
      await put(t, fetched.items);
      assert.deepEqual(await rows(t, menuId), stored, "sent back as fetched: nothing rewritten");
      const own = fetched.items.map((i: any) => (i.id === contactItem.id ? { ...i, url: `${ORIGIN}/contact/` } : i));
      await put(t, own);
      assert.deepEqual(await rows(t, menuId), stored, "its own address (read before it was home) names it too");
      const other = fetched.items.map((i: any) => (i.id === contactItem.id ? { ...i, url: `${ORIGIN}/about/` } : i));
      const refused = await t.call("PUT", `${M}/main/items`, { body: { items: other } });
      assert.equal(refused.status, 400, refused.text);
      assert.equal(refused.body.errors[0].page_url, `${ORIGIN}/`);
    } finally {
      const cleared = await t.call("PATCH", `${S}/settings`, { body: { home_page: null } });
      assert.equal(cleared.status, 200, cleared.text);
    }
  });

  it("a page item whose url is not its page's address is still refused (400 bad_items); nothing is written or announced", async () => {
    const fetched = await menu(t);
    const stored = await rows(t, menuId);
    const aboutItem = fetched.items.find((i: any) => i.page === about.id);
    const spy = recordChanges(t);
    try {
      for (const [url, deferred] of [
        ["http://localhost:8080/contact/", true],
        ["http://elsewhere.example/about/", true],
        [`${ORIGIN}/about`, true],
        ["/about/", false],
        ["about", false],
      ] as const) {
        const items = fetched.items.map((i: any) => (i.id === aboutItem.id ? { ...i, url } : i));
        const r = await t.call("PUT", `${M}/main/items`, { body: { items } });
        assert.equal(r.status, 400, `${url}: ${r.text}`);
        assert.equal(r.body.error, "bad_items");
        const error = r.body.errors[0];
        assert.deepEqual([error.at, error.field], [aboutItem.at, "page"], url);
        assert.match(error.message, /exactly one of page or url/);
        if (deferred)
          assert.deepEqual(
            [error.page, error.url, error.page_url],
            [about.id, url, `${ORIGIN}/about/`],
            "names the page's address",
          );
      }
      const posted = await t.call("POST", M, {
        body: { name: "Conflict", items: [{ page: about.id, url: `${ORIGIN}/contact/` }] },
      });
      assert.equal(posted.status, 400);
      assert.equal(posted.body.error, "bad_items");
      const single = await t.call("POST", `${M}/main/items`, { body: { page: about.id, url: `${ORIGIN}/about/` } });
      assert.equal(single.status, 400, "one item added alone still takes exactly one of page or url");
      assert.equal(spy.changes.length, 0);
    } finally {
      spy.restore();
    }
    assert.deepEqual(await menu(t), fetched);
    assert.deepEqual(await rows(t, menuId), stored);
  });

  it("a flat list whose parents loop is 400 bad_items; a parent that names no item of the body leaves the item at the top (parent_ignored); too deep once nested is tree_too_deep", async () => {
    const fetched = (await menu(t)).items;
    const [a, b] = fetched.filter((i: any) => i.parent === 0);
    const loop = await t.call("PUT", `${M}/main/items`, {
      body: {
        items: [
          { ...a, parent: b.id },
          { ...b, parent: a.id },
        ],
      },
    });
    assert.equal(loop.status, 400, loop.text);
    assert.equal(loop.body.error, "bad_items");
    assert.deepEqual(
      loop.body.errors.map((e: any) => [e.at, e.field]),
      [
        ["0", "parent"],
        ["1", "parent"],
      ],
    );
    const self = await t.call("PUT", `${M}/main/items`, { body: { items: [{ ...a, parent: a.id }] } });
    assert.deepEqual([self.status, self.body.errors?.[0]?.field], [400, "parent"]);
    assert.deepEqual(await menu(t).then((m) => m.items), fetched, "nothing written");

    const chain = Array.from({ length: 9 }, (_, i) => ({
      id: 900000 + i,
      url: `/level-${i}`,
      parent: i === 0 ? 0 : 900000 + i - 1,
    }));
    const deep = await t.call("PUT", `${M}/main/items`, { body: { items: chain } });
    assert.deepEqual([deep.status, deep.body.error, deep.body.at], [400, "tree_too_deep", "8"]);

    const orphan = await put(t, [
      { url: "/x", title: "X" },
      { url: "/y", title: "Y", parent: 999999 },
    ]);
    assert.deepEqual(
      orphan.items.map((i: any) => [i.title, i.parent]),
      [
        ["X", 0],
        ["Y", 0],
      ],
    );
    assert.deepEqual(
      orphan.warnings.map((w: any) => [w.code, w.at]),
      [["parent_ignored", "1"]],
    );
  });

  it("a fetched tree put into another menu (ids it does not hold) is accepted: page items stay page items, with new ids", async () => {
    await put(t, [{ page: about.id, children: [{ page: team.id }] }, { url: "/shop" }]);
    const fetched = (await menu(t)).items;
    await makeMenu(t, { name: "Copy" });
    const answer = await t.call("PUT", `${M}/copy/items`, { body: { items: fetched } });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(
      answer.body.warnings.map((w: any) => w.code),
      ["item_ids_not_in_menu"],
    );
    const copy = (await menu(t, "copy")).items;
    assert.deepEqual(
      copy.map((i: any) => [i.title, i.type, i.page, i.url]),
      fetched.map((i: any) => [i.title, i.type, i.page, i.url]),
    );
    assert.ok(
      copy.every((i: any) => !fetched.some((f: any) => f.id === i.id)),
      "new ids",
    );
    const nested = copy.find((i: any) => i.page === team.id);
    assert.equal(
      nested.parent,
      copy.find((i: any) => i.page === about.id).id,
      "the flat form nests by the body's own ids",
    );
  });
});

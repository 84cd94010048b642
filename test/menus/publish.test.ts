// Menu writes and the public site: every write except PATCH /menus/{ref} rebakes the frames that
// read menus and flushes their pages (`rebaked`), so a change shows on the public page at once.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../support/app.ts";
import { assign, bind, frame, page, S, visit } from "../support/site.ts";
import { addLanguage, M, makeMenu, recordChanges } from "./helpers.ts";
import { stalledExecutor } from "../../src/publish/executor.ts";

const HEADER = `<!DOCTYPE html><html><body><nav><!-- svc/menu {"location": "header"} /--></nav><main></main></body></html>`;

/** The links a public page's menu prints, as `title→href`. */
function links(html: string): string[] {
  return [...html.matchAll(/<a href="([^"]*)"[^>]*>([^<]*)<\/a>/g)].map((m) => `${m[2]}→${m[1]}`);
}

describe("menu writes on the public site", () => {
  let t: TestApp;
  let home: any;
  let about: any;
  before(async () => {
    t = await startTestApp();
    await frame(t, "layout", HEADER);
    home = await page(t, { title: "Welcome" });
    about = await page(t, { title: "About" });
    await assign(t, "layout", home.id);
    await makeMenu(t, { name: "Main", location: "header" });
  });
  after(() => t.close());

  it("PUT items shows the new links on the page at once; rebaked names the frame and the page", async () => {
    assert.equal((await visit(t, "/welcome/")).status, 200);
    assert.deepEqual(links((await visit(t, "/welcome/")).body), []);
    const r = await t.call("PUT", `${M}/~header/items`, {
      body: { items: [about.id, { url: "/contact", title: "Contact", target: "_blank" }] },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.rebaked.status, "ok");
    assert.ok(
      r.body.rebaked.frames.some((f: any) => f.slug === "layout" && f.because.includes("menus")),
      JSON.stringify(r.body.rebaked.frames),
    );
    assert.ok(r.body.rebaked.pages.includes(home.id));
    assert.ok(r.body.rebaked.cache.pages.includes(home.id));
    const shown = await visit(t, "/welcome/");
    assert.equal(shown.printed, "static");
    assert.deepEqual(links(shown.body), [
      "About→http://localhost:8080/about/",
      "Contact→http://localhost:8080/contact",
    ]);
    assert.match(
      shown.body,
      /<!-- op\/menu \{"location": "header"\} --><ul><li><a href="http:\/\/localhost:8080\/about\/">About<\/a><\/li><li><a href="http:\/\/localhost:8080\/contact" target="_blank">Contact<\/a><\/li><\/ul><!-- \/op\/menu -->/,
    );
  });

  it("every item write shows at once: POST, PATCH, reorder, DELETE of an item", async () => {
    const added = await t.call("POST", `${M}/main/items`, { body: { url: "/blog", title: "Blog" } });
    assert.ok(added.body.rebaked.pages.includes(home.id));
    assert.deepEqual(
      links((await visit(t, "/welcome/")).body).map((l) => l.split("→")[0]),
      ["About", "Contact", "Blog"],
    );

    const patched = await t.call("PATCH", `${M}/main/items/${added.body.item.id}`, { body: { title: "Journal" } });
    assert.ok(patched.body.rebaked.pages.includes(home.id));
    const reordered = await t.call("POST", `${M}/main/reorder`, { body: { order: [added.body.item.id] } });
    assert.ok(reordered.body.rebaked.pages.includes(home.id));
    assert.deepEqual(
      links((await visit(t, "/welcome/")).body).map((l) => l.split("→")[0]),
      ["Journal", "About", "Contact"],
    );

    const removed = await t.call("DELETE", `${M}/main/items/${added.body.item.id}`);
    assert.ok(removed.body.rebaked.pages.includes(home.id));
    assert.deepEqual(
      links((await visit(t, "/welcome/")).body).map((l) => l.split("→")[0]),
      ["About", "Contact"],
    );
  });

  it("PATCH /menus/{ref} carries no rebaked; the page is unchanged", async () => {
    const before = (await visit(t, "/welcome/")).body;
    const spy = recordChanges(t);
    try {
      const r = await t.call("PATCH", `${M}/main`, { body: { name: "Main renamed" } });
      assert.equal(r.status, 200);
      assert.equal(r.body.rebaked, undefined);
      assert.deepEqual(spy.changes, []);
    } finally {
      spy.restore();
    }
    assert.equal((await visit(t, "/welcome/")).body, before);
  });

  it("invalid items are left out by the renderer, with their branch", async () => {
    const secret = await page(t, { title: "Secret" });
    await t.call("PUT", `${M}/main/items`, {
      body: { items: [about.id, { page: secret.id, children: [{ url: "/under-secret", title: "Under" }] }] },
    });
    assert.deepEqual(
      links((await visit(t, "/welcome/")).body).map((l) => l.split("→")[0]),
      ["About", "Secret", "Under"],
    );
    await t.call("PATCH", `${S}/pages/${secret.id}`, { body: { status: "draft" } });
    assert.deepEqual(
      links((await visit(t, "/welcome/")).body).map((l) => l.split("→")[0]),
      ["About"],
    );
    // The draft page's item stays stored (valid: false) and is still left out after other writes.
    const write = await t.call("POST", `${M}/main/items`, { body: { url: "/extra", title: "Extra" } });
    assert.equal(write.status, 201, write.text);
    assert.deepEqual(
      links((await visit(t, "/welcome/")).body).map((l) => l.split("→")[0]),
      ["About", "Extra"],
    );
    const stored = await t.call("GET", `${M}/main`);
    assert.deepEqual(
      stored.body.items.map((i: any) => [i.title, i.valid]),
      [
        ["About", true],
        ["Secret", false],
        ["Under", true],
        ["Extra", true],
      ],
    );
  });

  it("assigning and deleting a menu show at once", async () => {
    await makeMenu(t, { name: "Alt", items: [{ url: "/alt", title: "Alt link" }] });
    const put = await t.call("PUT", `${M}/alt/location`, { body: { location: "header" } });
    assert.ok(put.body.rebaked.pages.includes(home.id));
    assert.deepEqual(links((await visit(t, "/welcome/")).body), ["Alt link→http://localhost:8080/alt"]);
    const deleted = await t.call("DELETE", `${M}/alt`);
    assert.ok(deleted.body.rebaked.pages.includes(home.id));
    assert.deepEqual(links((await visit(t, "/welcome/")).body), [], "the location is empty: the insert prints nothing");
  });

  it("POST /menus with a location and items shows at once and carries rebaked", async () => {
    const r = await t.call("POST", M, {
      body: { name: "Fresh", location: "header", items: [{ url: "/fresh", title: "Fresh" }] },
    });
    assert.equal(r.status, 201);
    assert.ok(r.body.rebaked.pages.includes(home.id));
    assert.deepEqual(links((await visit(t, "/welcome/")).body), ["Fresh→http://localhost:8080/fresh"]);
  });

  it("a page's new title, a draft and a trash reach the public menus that list the page at once", async () => {
    const p = await page(t, { title: "Renamable" });
    await t.call("PUT", `${M}/~header/items`, { body: { items: [p.id, { url: "/stay", title: "Stay" }] } });
    const renamed = await t.call("PATCH", `${S}/pages/${p.id}`, { body: { title: "Renamed" } });
    assert.ok(renamed.body.rebaked.pages.includes(home.id), "the page write names the pages whose menu changed");
    assert.deepEqual(
      links((await visit(t, "/welcome/")).body).map((l) => l.split("→")[0]),
      ["Renamed", "Stay"],
    );
    await t.call("PATCH", `${S}/pages/${p.id}`, { body: { status: "draft" } });
    assert.deepEqual(
      links((await visit(t, "/welcome/")).body).map((l) => l.split("→")[0]),
      ["Stay"],
    );
    await t.call("PATCH", `${S}/pages/${p.id}`, { body: { status: "publish" } });
    assert.deepEqual(
      links((await visit(t, "/welcome/")).body).map((l) => l.split("→")[0]),
      ["Renamed", "Stay"],
    );
    await t.call("DELETE", `${S}/pages/${p.id}`);
    assert.deepEqual(
      links((await visit(t, "/welcome/")).body).map((l) => l.split("→")[0]),
      ["Stay"],
    );
  });
});

describe("menus in a language on the public site", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("a page in another language prints that language's menu", async () => {
    await addLanguage(t, "en");
    await addLanguage(t, "de");
    await frame(
      t,
      "doc",
      `<html><body><h1 ${bind("text", "page.title")}></h1><!-- svc/menu {"location": "header"} /--></body></html>`,
    );
    const en = await page(t, { title: "Start", lang: "en" });
    const de = await page(t, { title: "Anfang", lang: "de" });
    await assign(t, "doc", en.id);
    await assign(t, "doc", de.id);
    await makeMenu(t, { name: "EN", location: "header", lang: "en", items: [en.id] });
    await makeMenu(t, { name: "DE", location: "header", lang: "de", items: [de.id] });
    assert.deepEqual(links((await visit(t, "/start/")).body), ["Start→http://localhost:8080/start/"]);
    assert.deepEqual(links((await visit(t, "/de/anfang/")).body), ["Anfang→http://localhost:8080/de/anfang/"]);
  });
});

describe("menu writes when the renderer does not answer", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp({ publishing: { executor: stalledExecutor, timeoutMs: 50 } })));
  after(() => t.close());

  it("answers 502 internal_unavailable with saved: true, and the write stays saved", async () => {
    const created = await t.call("POST", `${S}/frames`, { body: { slug: "nav", html: HEADER } });
    assert.equal(created.status, 502, "the frame is saved but cannot be baked");
    const menu = await t.call("POST", M, {
      body: { name: "Main", location: "header", items: [{ url: "/a", title: "A" }] },
    });
    assert.equal(menu.status, 502, menu.text);
    assert.deepEqual(
      [menu.body.error, menu.body.saved, menu.body.menu.name, menu.body.rebaked.status],
      ["internal_unavailable", true, "Main", "unavailable"],
    );
    const put = await t.call("PUT", `${M}/~header/items`, { body: { items: [{ url: "/b", title: "B" }] } });
    assert.equal(put.status, 502);
    const read = await t.call("GET", `${M}/~header`);
    assert.deepEqual(
      read.body.items.map((i: any) => i.title),
      ["B"],
      "what was written stays written",
    );
  });
});

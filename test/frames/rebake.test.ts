// POST /frames/rebake (docs/frames.md, "Rebake") — every selector, the `changed` echo, per-frame
// `because` and `bake`, at most 25 frames a call with the rest in `rebaked.skipped`.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../support/app.ts";
import { assign, createFrame, createPage, embed, FRAMES, publicPage, refused } from "./helpers.ts";

const REBAKE = `${FRAMES}/rebake`;
type Row = [slug: string, because: string[], bake: string];
const rows = (r: any): Row[] => r.body.rebaked.frames.map((f: any) => [f.slug, f.because, f.bake]);

describe("frames: rebake selectors", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    await createFrame(t, "plain", "<p>plain</p>");
    await createFrame(t, "menu-user", `<nav><!-- svc/menu {"location": "header"} /--></nav>`);
    await createFrame(
      t,
      "page-lister",
      `<ul><!-- svc/repeat {"source": "pages"} --><li data-op-bind='{"text": "item.title"}'></li><!-- /svc/repeat --></ul>`,
    );
    await createFrame(t, "page-title", `<h1 data-op-bind='{"text": "page.title"}'></h1>`);
    await createFrame(t, "switcher", `<!-- op/lang-switcher /-->`);
    await createFrame(t, "site-name", `<b data-op-bind='{"text": "site.name"}'></b>`);
    await createFrame(
      t,
      "team-list",
      `<!-- svc/repeat {"source": "team"} --><i data-op-bind='{"text": "item.name"}'></i><!-- /svc/repeat -->`,
    );
    await createFrame(t, "prices", `<b data-op-bind='{"text": "data.prices.0.amount"}'></b>`);
    await createFrame(t, "wraps-plain", `<div>${embed("plain")}</div>`);
    await createFrame(t, "wraps-wrapper", `<!-- svc/partial {"name": "wraps-plain"} /-->`);
  });
  after(() => t.close());

  it("no selector is 400 nothing_to_rebake (empty body, false flags, empty lists)", async () => {
    refused(await t.call("POST", REBAKE, { body: {} }), 400, "nothing_to_rebake");
    refused(await t.call("POST", REBAKE, { body: { all: false, menus: false } }), 400, "nothing_to_rebake");
    refused(await t.call("POST", REBAKE, { body: { datasets: [], frames: [] } }), 400, "nothing_to_rebake");
    refused(await t.call("POST", REBAKE), 400, "nothing_to_rebake");
  });

  it("all: every frame, in slug order; baked frames `baked`, page-dependent ones `not_needed`", async () => {
    const r = await t.call("POST", REBAKE, { body: { all: true } });
    assert.equal(r.status, 200);
    assert.equal(r.body.success, true);
    assert.equal(r.body.site_id, 1);
    assert.deepEqual(r.body.changed, { all: true });
    assert.deepEqual(rows(r), [
      ["menu-user", ["all"], "baked"],
      ["page-lister", ["all"], "baked"],
      ["page-title", ["all"], "not_needed"],
      ["plain", ["all"], "baked"],
      ["prices", ["all"], "baked"],
      ["site-name", ["all"], "baked"],
      ["switcher", ["all"], "not_needed"],
      ["team-list", ["all"], "baked"],
      ["wraps-plain", ["all"], "baked"],
      ["wraps-wrapper", ["all"], "baked"],
    ]);
    const rebaked = r.body.rebaked;
    assert.equal(rebaked.status, "ok");
    assert.equal(rebaked.total, 10);
    assert.equal(rebaked.baked, 8);
    assert.equal(rebaked.not_needed, 2);
    assert.deepEqual(rebaked.skipped, []);
    for (const f of rebaked.frames) assert.match(f.id, /^[0-9a-f]{16}$/);
    assert.deepEqual(Object.keys(rebaked.cache).sort(), ["flushed", "pages", "scope", "status"]);
    assert.deepEqual(Object.keys(rebaked.cache.flushed.urls).sort(), ["by", "skipped", "status", "urls"]);
  });

  it("menus: frames that read a menu", async () => {
    const r = await t.call("POST", REBAKE, { body: { menus: true } });
    assert.deepEqual(r.body.changed, { menus: true });
    assert.deepEqual(rows(r), [["menu-user", ["menus"], "baked"]]);
  });

  it("pages: frames that print pages, their titles and addresses", async () => {
    const r = await t.call("POST", REBAKE, { body: { pages: true } });
    assert.deepEqual(r.body.changed, { pages: true });
    assert.deepEqual(rows(r), [
      ["page-lister", ["pages"], "baked"],
      ["page-title", ["pages"], "not_needed"],
    ]);
  });

  it("languages: every frame (languages move addresses and the language of every output)", async () => {
    const r = await t.call("POST", REBAKE, { body: { languages: true } });
    assert.deepEqual(r.body.changed, { languages: true });
    assert.equal(r.body.rebaked.total, 10);
    for (const [, because] of rows(r)) assert.deepEqual(because, ["languages"]);
  });

  it("settings: frames that read site settings", async () => {
    const r = await t.call("POST", REBAKE, { body: { settings: true } });
    assert.deepEqual(r.body.changed, { settings: true });
    assert.deepEqual(rows(r), [["site-name", ["settings"], "baked"]]);
  });

  it("datasets: frames that read those data sets, by repeat or by token", async () => {
    const r = await t.call("POST", REBAKE, { body: { datasets: ["team", "prices", "unused"] } });
    assert.deepEqual(r.body.changed, { datasets: ["team", "prices", "unused"] });
    assert.deepEqual(rows(r), [
      ["prices", ["data.prices"], "baked"],
      ["team-list", ["data.team"], "baked"],
    ]);
  });

  it("frames: the named frames and every frame that embeds them, transitively, by slug or id", async () => {
    const bySlug = await t.call("POST", REBAKE, { body: { frames: ["plain"] } });
    assert.deepEqual(bySlug.body.changed, { frames: ["plain"] });
    assert.deepEqual(rows(bySlug), [
      ["plain", ["frame"], "baked"],
      ["wraps-plain", ["frame plain"], "baked"],
      ["wraps-wrapper", ["frame plain"], "baked"],
    ]);
    const id = (await t.call("GET", `${FRAMES}/plain`)).body.frame.id;
    const byId = await t.call("POST", REBAKE, { body: { frames: [id] } });
    assert.deepEqual(rows(byId), rows(bySlug));
  });

  it("an unknown frame in `frames` is echoed and warned frame_not_found", async () => {
    const r = await t.call("POST", REBAKE, { body: { frames: ["ghost"] } });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.changed, { frames: ["ghost"] });
    assert.equal(r.body.rebaked.total, 0);
    assert.deepEqual(
      r.body.warnings.map((w: any) => [w.code, w.frame]),
      [["frame_not_found", "ghost"]],
    );
  });

  it("several selectors at once: `because` lists every reason a frame was chosen", async () => {
    const r = await t.call("POST", REBAKE, {
      body: { menus: true, settings: true, datasets: ["team"], frames: ["site-name"] },
    });
    assert.deepEqual(r.body.changed, { menus: true, settings: true, datasets: ["team"], frames: ["site-name"] });
    assert.deepEqual(rows(r), [
      ["menu-user", ["menus"], "baked"],
      ["site-name", ["settings", "frame"], "baked"],
      ["team-list", ["data.team"], "baked"],
    ]);
  });

  it("a rebake republishes the pages on the rebaked frames and lists them in rebaked.pages and cache", async () => {
    const page = await createPage(t, { title: "Rebaked page", slug: "rebaked-page" });
    await assign(t, "wraps-wrapper", page.id);
    assert.match((await publicPage(t, "/rebaked-page/")).body, /plain/);
    const r = await t.call("POST", REBAKE, { body: { frames: ["plain"] } });
    assert.deepEqual(r.body.rebaked.pages, [page.id]);
    assert.deepEqual(r.body.rebaked.cache.pages, [page.id]);
    assert.deepEqual(r.body.rebaked.cache.flushed.urls.urls, ["/rebaked-page/"]);
  });

  it("rebake works on the legacy address", async () => {
    const r = await t.call("POST", "/api/frames/rebake", { body: { menus: true } });
    assert.equal(r.status, 200);
    assert.deepEqual(rows(r), [["menu-user", ["menus"], "baked"]]);
  });
});

describe("frames: rebake limit", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    for (let i = 1; i <= 30; i++)
      await createFrame(t, `f${String(i).padStart(2, "0")}`, `<p>${i}</p>`, { bake: false });
  });
  after(() => t.close());

  it("at most 25 frames are processed per call; the rest are listed by slug in rebaked.skipped and status stays ok", async () => {
    const r = await t.call("POST", REBAKE, { body: { all: true } });
    assert.equal(r.status, 200);
    assert.equal(r.body.rebaked.status, "ok");
    assert.equal(r.body.rebaked.total, 25);
    assert.equal(r.body.rebaked.baked, 25);
    assert.deepEqual(
      r.body.rebaked.frames.map((f: any) => f.slug),
      Array.from({ length: 25 }, (_, i) => `f${String(i + 1).padStart(2, "0")}`),
    );
    assert.deepEqual(r.body.rebaked.skipped, ["f26", "f27", "f28", "f29", "f30"]);
    // The skipped ones are rebaked by naming them.
    const rest = await t.call("POST", REBAKE, { body: { frames: r.body.rebaked.skipped } });
    assert.deepEqual(
      rest.body.rebaked.frames.map((f: any) => f.slug),
      ["f26", "f27", "f28", "f29", "f30"],
    );
    assert.deepEqual(rest.body.rebaked.skipped, []);
  });
});

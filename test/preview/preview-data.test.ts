// POST /preview's `data` (docs/preview.md): unsaved data sets and language variants show on the
// previewed page, a frame previewed with a new set knows it, refusals name `data.<key>`, and
// nothing stored changes.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../support/app.ts";
import { addLanguage } from "../pages/helpers.ts";
import { changedTables, previewSite, storedState, visit, type Site } from "./helpers.ts";

const TEAM = `<ul><!-- svc/repeat {"source": "team"} --><li data-op-bind='{"text": "item.name"}'></li><!-- /svc/repeat --></ul>`;

describe("POST /preview with data", () => {
  let t: TestApp;
  let n = 0;
  const site = () => previewSite(t, `previewdata${++n}`);
  const preview = (s: Site, body: Record<string, unknown>) => t.call("POST", s.at("/preview"), { body });

  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it("an unsaved data set shows on the page and nothing stored changes", async () => {
    const s = await site();
    assert.equal((await t.call("PUT", s.at("/data/team"), { body: { items: [{ name: "Ada" }] } })).status, 201);
    assert.equal((await t.call("PUT", s.at("/frames/footer"), { body: { html: TEAM } })).status, 200);
    const before = await visit(t, `${s.domain}:8080`, "/about/");
    assert.match(before.body, /<li>Ada<\/li>/);
    const stored = await storedState(t);

    const r = await preview(s, { page: "about", data: { team: [{ name: "Grace" }, { name: "Alan" }] } });
    assert.equal(r.status, 200, r.text);
    assert.match(r.body.html, /<li>Grace<\/li><li>Alan<\/li>/);
    assert.deepEqual(r.body.warnings, []);

    assert.deepEqual(changedTables(stored, await storedState(t)), []);
    assert.equal((await visit(t, `${s.domain}:8080`, "/about/")).body, before.body);
  });

  it("a new set previewed with the frame that reads it gives no unknown_source", async () => {
    const s = await site();
    const r = await preview(s, { page: "about", frames: { footer: TEAM }, data: { team: [{ name: "Grace" }] } });
    assert.equal(r.status, 200, r.text);
    assert.match(r.body.html, /<li>Grace<\/li>/);
    assert.deepEqual(r.body.warnings, []);
  });

  it("`<name>.<lang>` previews that language's variant", async () => {
    const s = await site();
    await addLanguage(t, s.id, "en", { default: true });
    await addLanguage(t, s.id, "de");
    await t.call("PUT", s.at("/data/team"), { body: { items: [{ name: "Shared" }] } });
    await t.call("PUT", s.at("/frames/footer"), { body: { html: TEAM } });
    const r = await preview(s, { page: "about", data: { "team.en": [{ name: "English" }] } });
    assert.equal(r.status, 200, r.text);
    assert.match(r.body.html, /<li>English<\/li>/);
  });

  it("refusals name the entry: data.<key>", async () => {
    const s = await site();
    for (const [data, code] of [
      [{ "Bad Name": [] }, "invalid_dataset_name"],
      [{ pages: [] }, "invalid_dataset_name"],
      [{ team: [1] }, "invalid_field"],
      [{ team: "x" }, "invalid_field"],
      [{ "team.de": [] }, "multilang_inactive"],
    ] as const) {
      const r = await preview(s, { page: "about", data });
      assert.equal(r.status >= 400 && r.status < 500, true, `${JSON.stringify(data)}: ${r.status}`);
      assert.equal(r.body.error, code, r.text);
      assert.equal(r.body.field, `data.${Object.keys(data)[0]}`, r.text);
    }
  });
});

// POST /preview of a page not saved yet (docs/preview.md, "A page not saved yet"): `new_page`,
// the body of POST /pages, made inside the rolled-back transaction with its parents not saved
// either (`new_parents`), on a stored or a previewed frame, in its language; refused and warned as
// POST /pages refuses and warns, the field named under new_page; and nothing stored changes.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "../support/app.ts";
import { addLanguage } from "../pages/helpers.ts";
import { changedTables, previewSite, storedState, type Site } from "./helpers.ts";

const PATH_FRAME = `<!DOCTYPE html><html><head><title data-op-bind='{"text": "page.title"}'>x</title></head><body><a data-op-bind='{"href": "page.url", "text": "page.path"}'></a><div data-op-bind='{"html": "page.content"}'></div></body></html>`;

describe("POST /preview with new_page", () => {
  let t: TestApp;
  let n = 0;
  const site = () => previewSite(t, `newpage${++n}`);
  const preview = (s: Site, body: Record<string, unknown>) => t.call("POST", s.at("/preview"), { body });
  const pageCount = async (s: Site) => (await t.call("GET", s.at("/pages?status=any"))).body.total;

  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it("shows a page not saved yet as POST /pages would make it, and leaves every table as it was (no page, no event)", async () => {
    const s = await site();
    const stored = await storedState(t);
    const pages = await pageCount(s);
    const r = await preview(s, {
      new_page: {
        title: "Pricing",
        slug: "pricing",
        status: "draft",
        frame: "page",
        content: "<p>Unsaved pricing</p>",
        fields: { tone: "bold" },
      },
    });
    assert.equal(r.status, 200, r.text);
    assert.match(r.body.html, /<title>Pricing<\/title>/);
    assert.match(r.body.html, /<div><p>Unsaved pricing<\/p><\/div>/);
    assert.match(r.body.html, /<p class="tone">bold<\/p>/);
    assert.match(r.body.html, /<footer>Old footer<\/footer>/);
    assert.deepEqual(r.body.warnings, []);
    assert.deepEqual(
      changedTables(stored, await storedState(t)),
      [],
      "no stored row changed (pages, events, revisions)",
    );
    assert.equal(await pageCount(s), pages);
    assert.equal((await t.call("GET", s.at("/pages/pricing"))).status, 404);
  });

  it("stands on a previewed frame, under parents not saved yet (new_parents, made first, in order), with page_fields over it", async () => {
    const s = await site();
    const stored = await storedState(t);
    const r = await preview(s, {
      frames: { paths: PATH_FRAME },
      new_parents: [
        { title: "Docs", slug: "docs", frame: "paths" },
        { title: "Guide", slug: "guide", parent: "docs", frame: "paths" },
      ],
      new_page: { title: "Intro", parent: "/docs/guide", frame: "paths", content: "<p>Hello</p>" },
      page_fields: { title: "Intro (tweaked)" },
    });
    assert.equal(r.status, 200, r.text);
    assert.match(r.body.html, /<title>Intro \(tweaked\)<\/title>/);
    assert.match(
      r.body.html,
      /<a href="http:\/\/newpage2\.localhost:8080\/docs\/guide\/intro\/">\/docs\/guide\/intro<\/a>/,
    );
    assert.deepEqual(changedTables(stored, await storedState(t)), []);
  });

  it("is shown in its language, at its address with the language's prefix", async () => {
    const s = await site();
    await addLanguage(t, s.id, "en");
    await addLanguage(t, s.id, "de");
    await t.call("POST", s.at("/frames"), { body: { slug: "paths", html: PATH_FRAME } });
    const r = await preview(s, { new_page: { title: "Preise", lang: "de", frame: "paths" } });
    assert.equal(r.status, 200, r.text);
    assert.match(r.body.html, /<a href="http:\/\/newpage3\.localhost:8080\/de\/preise\/">\/preise<\/a>/);
  });

  it("a body naming a stored page's slug updates that page, as POST /pages does; its warnings name new_page.<field>", async () => {
    const s = await site();
    const r = await preview(s, { new_page: { title: "About again", slug: "about", id: 5 } });
    assert.equal(r.status, 200, r.text);
    assert.match(r.body.html, /<title>About again<\/title>/);
    assert.deepEqual(
      r.body.warnings.map((w: any) => [w.code, w.field]),
      [["unknown_field", "new_page.id"]],
    );
    const taken = await preview(s, {
      new_parents: [{ title: "Team", frame: "page" }],
      new_page: { title: "Lead", parent: "team", frame: "page" },
    });
    assert.equal(taken.status, 200, taken.text);
  });

  it("refuses as POST /pages refuses, the field named under new_page or new_parents.<i>", async () => {
    const s = await site();
    const stored = await storedState(t);
    const cases: Array<[Record<string, unknown>, number, string, Record<string, unknown>?]> = [
      [{ new_page: "pricing" }, 400, "invalid_field", { field: "new_page" }],
      [{ new_page: { slug: "" } }, 400, "invalid_slug", { field: "new_page" }],
      [{ new_page: { content: "<p>x</p>" } }, 400, "title_required", { field: "new_page.title" }],
      [{ new_page: { title: "" } }, 400, "title_required", { field: "new_page.title" }],
      [{ new_page: { title: 5 } }, 400, "invalid_field", { field: "new_page.title" }],
      [{ new_page: { title: "X", menu_order: 1.5 } }, 400, "invalid_field", { field: "new_page.menu_order" }],
      [{ new_page: { title: "X", frame: "nope" } }, 404, "frame_not_found", { field: "new_page" }],
      [{ new_page: { title: "X", parent: "nowhere" } }, 404, "parent_not_found", { field: "new_page.parent" }],
      [{ new_page: { title: "X", lang: "de" } }, 409, "multilang_inactive", { field: "new_page.lang" }],
      [
        { new_page: { title: "X", status: "trash", frame: "page" } },
        400,
        "invalid_field",
        { field: "new_page.status" },
      ],
      [{ new_page: { title: "X" } }, 409, "page_without_frame"],
      [{ page: "about", new_page: { title: "X" } }, 400, "invalid_field", { field: "page" }],
      [{ lang: "en", new_page: { title: "X" } }, 400, "invalid_field", { field: "lang" }],
      [{ page: "about", new_parents: [{ title: "X" }] }, 400, "invalid_field", { field: "new_parents" }],
      [{ new_page: { title: "X" }, new_parents: [7] }, 400, "invalid_field", { field: "new_parents.0" }],
      [{ new_page: { title: "X" }, new_parents: {} }, 400, "invalid_field", { field: "new_parents" }],
      [
        { new_page: { title: "X" }, new_parents: Array.from({ length: 21 }, (_, i) => ({ title: `P${i}` })) },
        400,
        "invalid_field",
        { field: "new_parents" },
      ],
      [
        { new_page: { title: "X" }, new_parents: [{ title: 5 }] },
        400,
        "invalid_field",
        { field: "new_parents.0.title" },
      ],
    ];
    for (const [body, status, code, details] of cases) {
      const r = await preview(s, body);
      const label = JSON.stringify(body).slice(0, 120);
      assert.equal(r.status, status, `${label}: ${r.text.slice(0, 300)}`);
      assert.equal(r.body.error, code, label);
      for (const [key, value] of Object.entries(details ?? {}))
        assert.deepEqual(r.body[key], value, `${label}: ${key}`);
    }
    assert.deepEqual(changedTables(stored, await storedState(t)), []);
  });
});
